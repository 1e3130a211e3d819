import { Alert, Button, Card, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../lib/profile-context';
import { FilterModal } from './filter-modal';
import { useMonitorFilters } from './monitor-filters';
import { MonitorHeader } from './monitor-header';
import { SettingsModal } from './settings-modal';
import { useDashboardLayout } from './use-dashboard-layout';
import { WIDGET_MIN_HEIGHT } from './widget-card';
import { WidgetGrid } from './widget-grid';
import { WidgetParamsProvider, widgetParams, widgetQueryOptions } from './widgets/widget-query';

/** Two columns of card-sized placeholders while the layout loads, so nothing jumps when it comes. */
function GridSkeleton() {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" aria-busy="true" aria-label={t('monitor.grid.loading')}>
      {[0, 1].map((column) => (
        <Stack key={column} gap="md">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} h={WIDGET_MIN_HEIGHT} radius="md" />
          ))}
        </Stack>
      ))}
    </SimpleGrid>
  );
}

/**
 * /dashboard/report/monitor (spec section 2; docs/monitor.md, "The console page"): the active
 * filters and their modal, Dashboard Settings, and the signed-in user's grid of widgets.
 */
export function MonitorPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const { filters, setFilters } = useMonitorFilters();
  const queryClient = useQueryClient();
  // The visible widgets' calls leave as soon as the layout is read, while the grid is first drawn.
  const { layout, change, isError, refetch } = useDashboardLayout(profile.id, (read) => {
    if (filters === null) return;
    const params = widgetParams(filters);
    for (const key of [...read[1], ...read[2]]) void queryClient.prefetchQuery(widgetQueryOptions(key, params));
  });
  const [modal, setModal] = useState<'filters' | 'settings' | null>(null);
  const close = () => setModal(null);

  // The URL is being given today's dates (the spec's redirect).
  if (filters === null) return null;

  return (
    <Stack gap="lg">
      <MonitorHeader
        filters={filters}
        onOpenFilters={() => setModal('filters')}
        onOpenSettings={() => setModal('settings')}
        settingsDisabled={layout === null}
      />
      {isError && layout === null ? (
        <Alert color="red" title={t('monitor.grid.loadFailed')}>
          <Button variant="light" color="red" size="xs" onClick={() => void refetch()}>
            {t('monitor.grid.retry')}
          </Button>
        </Alert>
      ) : layout === null ? (
        <GridSkeleton />
      ) : layout[1].length + layout[2].length === 0 ? (
        <Card withBorder radius="md" padding="xl">
          <Stack align="center" gap="sm">
            <Text c="dimmed">{t('monitor.grid.empty')}</Text>
            <Button variant="light" onClick={() => setModal('settings')}>
              {t('monitor.settings.open')}
            </Button>
          </Stack>
        </Card>
      ) : (
        <WidgetParamsProvider filters={filters}>
          <WidgetGrid layout={layout} onChange={change} />
        </WidgetParamsProvider>
      )}
      <FilterModal opened={modal === 'filters'} onClose={close} filters={filters} onApply={setFilters} />
      {layout && <SettingsModal opened={modal === 'settings'} onClose={close} layout={layout} onChange={change} />}
    </Stack>
  );
}
