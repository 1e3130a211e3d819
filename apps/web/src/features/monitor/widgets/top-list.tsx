import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/data-table/data-table';
import { ChartFrame } from './chart-frame';
import { formatCount, formatDuration, formatHours, toHours } from './format';
import { TopBarsChart } from './lazy-charts';
import type { ViewProps } from './view';
import { ColoredName } from './widget-table';

interface TopItem {
  id: string | number;
  name: string;
  /** Milliseconds, or a count. */
  value: number;
  /** The status's own colour; the others take the chart's. */
  color?: string;
}

/**
 * The four "most of" lists (applications by time and by openings, statuses, tasks): horizontal
 * bars, longest first as the server orders them, with the same list as a table behind.
 */
function TopList({
  title,
  items,
  nameHeader,
  valueHeader,
  unit,
}: {
  title: string;
  items: readonly TopItem[];
  nameHeader: string;
  valueHeader: string;
  unit: 'duration' | 'count';
}) {
  const format = unit === 'duration' ? formatDuration : formatCount;
  const columns: Column<TopItem>[] = [
    {
      key: 'name',
      header: nameHeader,
      value: (row) => row.name,
      render: (row) => (row.color ? <ColoredName name={row.name} color={row.color} /> : row.name),
    },
    {
      key: 'value',
      header: valueHeader,
      value: (row) => row.value,
      render: (row) => format(row.value),
      align: 'right',
    },
  ];
  return (
    <ChartFrame
      title={title}
      table={{ columns, rows: items, rowKey: (row) => row.id }}
      chart={
        <TopBarsChart
          bars={items.map((item) => ({
            name: item.name,
            value: unit === 'duration' ? toHours(item.value) : item.value,
            ...(item.color && { color: item.color }),
          }))}
          seriesLabel={valueHeader}
          formatValue={unit === 'duration' ? formatHours : formatCount}
        />
      }
    />
  );
}

const header = (t: TFunction, column: string) => t(`monitor.widget.columns.${column}`);

export function TopApplicationsView({ data, title }: ViewProps<'top_applications'>) {
  const { t } = useTranslation();
  return (
    <TopList
      title={title}
      items={data.map((row) => ({ id: row.application, name: row.application, value: row.durationMs }))}
      nameHeader={header(t, 'application')}
      valueHeader={header(t, 'time')}
      unit="duration"
    />
  );
}

export function ApplicationFrequencyView({ data, title }: ViewProps<'application_frequency'>) {
  const { t } = useTranslation();
  return (
    <TopList
      title={title}
      items={data.map((row) => ({ id: row.application, name: row.application, value: row.count }))}
      nameHeader={header(t, 'application')}
      valueHeader={header(t, 'opened')}
      unit="count"
    />
  );
}

export function TopStatusesView({ data, title }: ViewProps<'top_statuses'>) {
  const { t } = useTranslation();
  return (
    <TopList
      title={title}
      items={data.map((row) => ({ id: row.statusId, name: row.name, value: row.durationMs, color: row.color }))}
      nameHeader={header(t, 'status')}
      valueHeader={header(t, 'time')}
      unit="duration"
    />
  );
}

export function TopTasksView({ data, title }: ViewProps<'top_tasks'>) {
  const { t } = useTranslation();
  return (
    <TopList
      title={title}
      items={data.map((row) => ({ id: row.taskId, name: row.name, value: row.durationMs }))}
      nameHeader={header(t, 'task')}
      valueHeader={header(t, 'time')}
      unit="duration"
    />
  );
}
