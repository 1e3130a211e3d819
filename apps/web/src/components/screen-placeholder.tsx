import { Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface ScreenPlaceholderProps {
  /** i18n key of the screen's title. */
  title: string;
  /** i18n key of the area whose release brings the screen; without it the screen is a placeholder by design. */
  area?: string;
}

/** A screen with nothing to show yet, saying so plainly. */
export function ScreenPlaceholder({ title, area }: ScreenPlaceholderProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Title order={1} fz={26}>
        {t(title)}
      </Title>
      <Card withBorder radius="md" padding="xl">
        <Stack align="center" gap="sm" py="xl">
          <ThemeIcon size={52} radius="xl" variant="light" aria-hidden="true">
            <IconHourglass size={28} stroke={1.6} />
          </ThemeIcon>
          <Text c="dimmed" ta="center">
            {area ? t('screens.comingSoon', { area: t(area) }) : t('screens.placeholder')}
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
