import { Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

interface PanelMessageProps {
  icon: ReactNode;
  children: ReactNode;
}

/** The success states of the login panel: an icon and a short explanation under the title. */
export function PanelMessage({ icon, children }: PanelMessageProps) {
  return (
    <Stack align="center" gap="md" py="sm">
      <ThemeIcon size={64} radius="xl" variant="light" color="teal" aria-hidden="true">
        {icon}
      </ThemeIcon>
      <Text ta="center" c="dimmed" role="status">
        {children}
      </Text>
    </Stack>
  );
}
