import { Box, Card, Center, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import type { ExecutionTimeEntry } from '@opsdeck/contract/reports';
import dayjs from 'dayjs';
import { lazy, Suspense, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { formatMinutes } from '../../lib/dates';
import { toMinutes } from './report-format';

// recharts and @mantine/charts stay out of the page's chunk: they load once the report is shown.
const ExecutedTimeChart = lazy(async () => ({ default: (await import('./executed-time-chart')).ExecutedTimeChart }));

/** Spec section 9: charts are 300 px high on a dark theme. */
export const CHART_HEIGHT = 300;

const formatDay = (date: string) => dayjs(date).format('YYYY/MM/DD');

interface ExecutedTimeCardProps {
  entries: readonly ExecutionTimeEntry[];
  /** 'May 2026': the month the chart covers. */
  month: string;
}

/**
 * Executed minutes per day of the month: the column chart, or the same figures as a table (for
 * screen readers, and anyone who wants the numbers). The chart's focused or pointed day is read
 * out below it (aria-live), as the tooltip shows it.
 */
export function ExecutedTimeCard({ entries, month }: ExecutedTimeCardProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const [activeDate, setActiveDate] = useState<string | null>(null);
  const onActiveDay = useCallback((date: string | null) => setActiveDate(date), []);
  const empty = entries.every((entry) => entry.executionTime === 0);
  const active = entries.find((entry) => entry.date === activeDate);

  const columns: Column<ExecutionTimeEntry>[] = [
    { key: 'date', header: t('reports.chart.date'), value: (row) => row.date, render: (row) => formatDay(row.date) },
    {
      key: 'minutes',
      header: t('reports.chart.minutes'),
      value: (row) => row.executionTime,
      render: (row) => formatMinutes(row.executionTime),
      align: 'right',
    },
  ];

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId} data-testid="executed-time">
      <Stack gap="sm">
        <Group justify="space-between" align="center" wrap="wrap">
          <Title order={2} fz="lg" id={titleId}>
            {t('reports.chart.title')}
          </Title>
          <SegmentedControl
            size="xs"
            aria-label={t('reports.chart.views')}
            value={view}
            onChange={(value) => setView(value === 'table' ? 'table' : 'chart')}
            data={[
              { value: 'chart', label: t('reports.chart.asChart') },
              { value: 'table', label: t('reports.chart.asTable') },
            ]}
          />
        </Group>
        {view === 'table' ? (
          <DataTable
            columns={columns}
            rows={entries}
            rowKey={(row) => row.date}
            label={t('reports.chart.tableLabel', { month })}
            pageSize={Math.max(entries.length, 1)}
          />
        ) : (
          <Box
            bg="dark.7"
            c="gray.3"
            p="md"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
            data-testid="chart-area"
          >
            {empty ? (
              <Center h={CHART_HEIGHT}>
                <Text c="gray.3" ta="center" maw={420}>
                  {t('reports.chart.empty')}
                </Text>
              </Center>
            ) : (
              <>
                <Suspense
                  fallback={
                    <Center h={CHART_HEIGHT}>
                      <Group gap="xs">
                        <Loader size="sm" color="gray.3" aria-hidden="true" />
                        <Text c="gray.3">{t('reports.chart.loading')}</Text>
                      </Group>
                    </Center>
                  }
                >
                  <ExecutedTimeChart
                    days={entries.map((entry) => ({ date: entry.date, minutes: toMinutes(entry.executionTime) }))}
                    title={t('reports.chart.title')}
                    description={t('reports.chart.description', { month })}
                    seriesLabel={t('reports.chart.minutes')}
                    unit={t('reports.chart.unit')}
                    formatDay={formatDay}
                    onActiveDay={onActiveDay}
                  />
                </Suspense>
                <Text size="sm" c="gray.3" mt="xs" aria-live="polite" data-testid="chart-readout">
                  {active
                    ? t('reports.chart.readout', {
                        date: formatDay(active.date),
                        minutes: formatMinutes(active.executionTime),
                      })
                    : t('reports.chart.hint')}
                </Text>
              </>
            )}
          </Box>
        )}
      </Stack>
    </Card>
  );
}
