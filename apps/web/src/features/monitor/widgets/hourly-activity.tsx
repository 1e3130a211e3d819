import type { WidgetAnswer } from '@opsdeck/contract/monitor';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/data-table/data-table';
import { ChartFrame } from './chart-frame';
import { formatDuration, formatHour, formatHours, toHours } from './format';
import { StackedAreaChart } from './lazy-charts';
import type { ViewProps } from './view';

type Hour = WidgetAnswer<'hourly_activity'>[number];

/** Active and idle time by hour of the day (the browser's), summed over the range: stacked areas. */
export function HourlyActivityView({ data, title }: ViewProps<'hourly_activity'>) {
  const { t } = useTranslation();
  const active = t('monitor.widget.columns.active');
  const idle = t('monitor.widget.columns.idle');
  const columns: Column<Hour>[] = [
    {
      key: 'hour',
      header: t('monitor.widget.columns.hour'),
      value: (row) => row.hour,
      render: (row) => formatHour(row.hour),
    },
    {
      key: 'active',
      header: active,
      value: (row) => row.activeMs,
      render: (row) => formatDuration(row.activeMs),
      align: 'right',
    },
    {
      key: 'idle',
      header: idle,
      value: (row) => row.idleMs,
      render: (row) => formatDuration(row.idleMs),
      align: 'right',
    },
  ];
  return (
    <ChartFrame
      title={title}
      table={{ columns, rows: data, rowKey: (row) => row.hour }}
      chart={
        <StackedAreaChart
          data={data.map((row) => ({ hour: row.hour, active: toHours(row.activeMs), idle: toHours(row.idleMs) }))}
          dataKey="hour"
          series={[
            { name: 'active', label: active, color: 'teal.4' },
            { name: 'idle', label: idle, color: 'yellow.4' },
          ]}
          formatCategory={(hour) => formatHour(Number(hour))}
          formatValue={formatHours}
        />
      }
    />
  );
}
