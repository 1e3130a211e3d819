import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCount } from './format';
import type { ViewProps } from './view';
import { EmptyText } from './widget-states';

/**
 * Three figures: people whose agent is connected now, people with active time in the range, and
 * the people the filter covers. Never empty as a whole (the people are there); with nobody active
 * in the range it adds the widget's empty message under the figures.
 */
export function ActiveUsersView({ data }: ViewProps<'active_users'>) {
  const { t } = useTranslation();
  const figures = [
    { key: 'online', value: data.online },
    { key: 'active', value: data.active },
    { key: 'total', value: data.total },
  ] as const;
  return (
    <Stack gap="md">
      <SimpleGrid cols={3} spacing="sm" component="dl" m={0}>
        {figures.map((figure) => (
          <Stack key={figure.key} gap={2} align="center" data-figure={figure.key}>
            <Text component="dt" size="sm" c="dimmed" ta="center">
              {t(`monitor.widget.activeUsers.${figure.key}`)}
            </Text>
            <Text component="dd" m={0} fz={36} fw={700} lh={1.1}>
              {formatCount(figure.value)}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
      {data.active === 0 && <EmptyText widgetKey="active_users" />}
    </Stack>
  );
}
