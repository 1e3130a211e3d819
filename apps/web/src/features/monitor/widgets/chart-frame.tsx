import { Box, Center, Loader, SegmentedControl, Stack } from '@mantine/core';
import { type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/data-table/data-table';
import { WidgetTable } from './widget-table';

/** Spec section 9: charts are 300 px high on a dark theme (as the agent report's). */
export const CHART_HEIGHT = 300;

/**
 * A chart widget's whole body: the Chart/Table switch and the dark box around the chart. Its
 * loading, empty and error states take the same height, so the card does not jump when the
 * answer comes.
 */
export const CHART_FRAME_HEIGHT = CHART_HEIGHT + 70;

export interface ChartTable<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
}

/**
 * Every chart of the monitor, with the same figures as a table behind it (one way for all of
 * them, as the agent report's chart): a Chart/Table switch, the chart drawn as a named picture
 * (role img: its bars and axes are not read one by one, and the lazily loaded recharts chunk has
 * its keyboard layer off), and the table a keyboard or screen reader reads row by row.
 */
export function ChartFrame<T>({ title, chart, table }: { title: string; chart: ReactNode; table: ChartTable<T> }) {
  const { t } = useTranslation();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <Stack gap="xs" mih={CHART_FRAME_HEIGHT}>
      <SegmentedControl
        size="xs"
        style={{ alignSelf: 'flex-end' }}
        aria-label={t('monitor.widget.views', { title })}
        value={view}
        onChange={(value) => setView(value === 'table' ? 'table' : 'chart')}
        data={[
          { value: 'chart', label: t('monitor.widget.asChart') },
          { value: 'table', label: t('monitor.widget.asTable') },
        ]}
      />
      {view === 'table' ? (
        <WidgetTable title={title} {...table} />
      ) : (
        <Box bg="dark.7" c="gray.3" p="sm" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <div role="img" aria-label={t('monitor.widget.chartOf', { title })} data-testid="widget-chart">
            <Suspense
              fallback={
                // Busy until the chart's chunk is in: the browser tests' accessibility check waits for it.
                <Center h={CHART_HEIGHT} aria-busy="true">
                  <Loader size="sm" color="gray.3" aria-hidden="true" />
                </Center>
              }
            >
              {chart}
            </Suspense>
          </div>
        </Box>
      )}
    </Stack>
  );
}
