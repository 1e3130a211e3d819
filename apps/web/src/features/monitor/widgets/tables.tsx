import type { WidgetAnswer, WidgetKey } from '@opsdeck/contract/monitor';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/data-table/data-table';
import { formatCount, formatDay, formatDuration, formatPercent, formatTime } from './format';
import type { ViewProps } from './view';
import { ColoredName, WidgetTable } from './widget-table';

/** One row of a widget whose answer is a list. */
type Row<K extends WidgetKey> = WidgetAnswer<K> extends readonly (infer R)[] ? R : never;

const header = (t: TFunction, column: string) => t(`monitor.widget.columns.${column}`);

/** A column of milliseconds, right-aligned as h:mm. */
function durationColumn<T>(t: TFunction, key: string, value: (row: T) => number): Column<T> {
  return { key, header: header(t, key), value, render: (row) => formatDuration(value(row)), align: 'right' };
}

/** A column of whole numbers, right-aligned. */
function countColumn<T>(t: TFunction, key: string, value: (row: T) => number): Column<T> {
  return { key, header: header(t, key), value, render: (row) => formatCount(value(row)), align: 'right' };
}

function personColumn<T extends { name: string }>(t: TFunction): Column<T> {
  return { key: 'person', header: header(t, 'person'), value: (row) => row.name };
}

export function EmployeeLoginHoursView({ data, title }: ViewProps<'employee_login_hours'>) {
  const { t } = useTranslation();
  const columns: Column<Row<'employee_login_hours'>>[] = [
    personColumn(t),
    { key: 'day', header: header(t, 'day'), value: (row) => row.date, render: (row) => formatDay(row.date) },
    {
      key: 'firstLogin',
      header: header(t, 'firstLogin'),
      value: (row) => row.firstLogin,
      render: (row) => formatTime(row.firstLogin),
    },
    {
      key: 'lastLogout',
      header: header(t, 'lastLogout'),
      value: (row) => row.lastLogout,
      // Null while the person is still signed in (an open session the day does not cut).
      render: (row) => (row.lastLogout === null ? t('monitor.widget.stillSignedIn') : formatTime(row.lastLogout)),
    },
    durationColumn(t, 'logged', (row) => row.loggedMs),
  ];
  return <WidgetTable title={title} columns={columns} rows={data} rowKey={(row) => `${row.userId} ${row.date}`} />;
}

export function AttendanceView({ data, title }: ViewProps<'attendance_and_tardiness'>) {
  const { t } = useTranslation();
  const columns: Column<Row<'attendance_and_tardiness'>>[] = [
    personColumn(t),
    countColumn(t, 'scheduledDays', (row) => row.scheduledDays),
    countColumn(t, 'presentDays', (row) => row.presentDays),
    countColumn(t, 'lateDays', (row) => row.lateDays),
    countColumn(t, 'absentDays', (row) => row.absentDays),
    durationColumn(t, 'lateTime', (row) => row.lateMs),
  ];
  return <WidgetTable title={title} columns={columns} rows={data} rowKey={(row) => row.userId} />;
}

export function EmployeeUtilizationView({ data, title }: ViewProps<'employee_utilization'>) {
  const { t } = useTranslation();
  const columns: Column<Row<'employee_utilization'>>[] = [
    personColumn(t),
    durationColumn(t, 'active', (row) => row.activeMs),
    durationColumn(t, 'idle', (row) => row.idleMs),
    durationColumn(t, 'scheduled', (row) => row.scheduledMs),
    {
      key: 'utilization',
      header: header(t, 'utilization'),
      value: (row) => row.utilization,
      render: (row) => formatPercent(row.utilization),
      align: 'right',
    },
  ];
  return <WidgetTable title={title} columns={columns} rows={data} rowKey={(row) => row.userId} />;
}

export function BreakAdherenceView({ data, title }: ViewProps<'break_adherence'>) {
  const { t } = useTranslation();
  const columns: Column<Row<'break_adherence'>>[] = [
    personColumn(t),
    countColumn(t, 'breaks', (row) => row.breaks),
    countColumn(t, 'overThreshold', (row) => row.overThreshold),
    durationColumn(t, 'overTime', (row) => row.overMs),
  ];
  return <WidgetTable title={title} columns={columns} rows={data} rowKey={(row) => row.userId} />;
}

export function TaskProductivityView({ data, title }: ViewProps<'task_productivity'>) {
  const { t } = useTranslation();
  const columns: Column<Row<'task_productivity'>>[] = [
    { key: 'task', header: header(t, 'task'), value: (row) => row.name },
    durationColumn(t, 'active', (row) => row.activeMs),
    durationColumn(t, 'idle', (row) => row.idleMs),
    {
      key: 'productivity',
      header: header(t, 'productivity'),
      value: (row) => row.productivity,
      render: (row) => formatPercent(row.productivity),
      align: 'right',
    },
  ];
  return <WidgetTable title={title} columns={columns} rows={data} rowKey={(row) => row.taskId} />;
}

export function StatusSummaryView({ data, title }: ViewProps<'status_summary'>) {
  const { t } = useTranslation();
  const columns: Column<Row<'status_summary'>>[] = [
    {
      key: 'status',
      header: header(t, 'status'),
      value: (row) => row.name,
      render: (row) => <ColoredName name={row.name} color={row.color} />,
    },
    countColumn(t, 'people', (row) => row.people),
    countColumn(t, 'count', (row) => row.count),
    durationColumn(t, 'total', (row) => row.durationMs),
    durationColumn(t, 'average', (row) => row.averageMs),
  ];
  return <WidgetTable title={title} columns={columns} rows={data} rowKey={(row) => row.statusId} />;
}
