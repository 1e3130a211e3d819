import { Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

interface PanelMessageProps {
  icon: ReactNode;
  children: ReactNode;
  /** Teal for the success states, red for a link that no longer works. */
  color?: string;
}

/** The success states of the login panel: an icon and a short explanation under the title. */
export function PanelMessage({ icon, children, color = 'teal' }: PanelMessageProps) {
  return (
    <Stack align="center" gap="md" py="sm">
      <ThemeIcon size={64} radius="xl" variant="light" color={color} aria-hidden="true">
        {icon}
      </ThemeIcon>
      <Text ta="center" c="dimmed" role="status">
        {children}
      </Text>
    </Stack>
  );
}
