import type { WidgetAnswer } from '@opsdeck/contract/monitor';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/data-table/data-table';
import { ChartFrame } from './chart-frame';
import { formatDay, formatDuration, formatHours, formatShortDay, toHours } from './format';
import { StackedBarsChart } from './lazy-charts';
import { OTHER_COLOR, seriesColor, type ViewProps } from './view';

type Entry = WidgetAnswer<'application_duration'>[number];

/**
 * Each day's time of the range's five longest applications and the rest (the entry marked
 * `other`: an application may itself be named "Other"), one stacked bar a day. The answer has
 * every day and application (zeros too), days in order and applications in the range's order; the
 * table keeps the days with time.
 */
export function ApplicationDurationView({ data, title }: ViewProps<'application_duration'>) {
  const { t } = useTranslation();
  const identity = (entry: Entry) => (entry.other ? null : entry.application);
  const applications = [...new Set(data.map(identity))];
  const nameOf = (entry: Entry) => (entry.other ? t('monitor.widget.otherApplications') : entry.application);
  // Series keys are plain identifiers: an application's name may hold dots, which recharts reads as a path.
  const key = (entry: Entry) => `s${applications.indexOf(identity(entry))}`;
  const days = new Map<string, Record<string, string | number>>();
  for (const entry of data) {
    const day = days.get(entry.date) ?? { date: entry.date };
    day[key(entry)] = toHours(entry.durationMs);
    days.set(entry.date, day);
  }
  const series = applications.map((application, index) => ({
    name: `s${index}`,
    label: application ?? t('monitor.widget.otherApplications'),
    color: application === null ? OTHER_COLOR : seriesColor(index),
  }));
  const columns: Column<Entry>[] = [
    {
      key: 'date',
      header: t('monitor.widget.columns.day'),
      value: (row) => row.date,
      render: (row) => formatDay(row.date),
    },
    { key: 'application', header: t('monitor.widget.columns.application'), value: nameOf },
    {
      key: 'time',
      header: t('monitor.widget.columns.time'),
      value: (row) => row.durationMs,
      render: (row) => formatDuration(row.durationMs),
      align: 'right',
    },
  ];
  return (
    <ChartFrame
      title={title}
      table={{
        columns,
        rows: data.filter((entry) => entry.durationMs > 0),
        rowKey: (row) => `${row.date} ${key(row)}`,
      }}
      chart={
        <StackedBarsChart
          data={[...days.values()]}
          dataKey="date"
          series={series}
          formatCategory={formatShortDay}
          formatValue={formatHours}
        />
      }
    />
  );
}
