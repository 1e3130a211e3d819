import type { ExecutionException, ExecutionLog } from '@opsdeck/contract/reports';
import type { TFunction } from 'i18next';
import type { Column } from '../../components/data-table/data-table';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import type { ExecutionListKind } from '../../resources/reports';
import { ExecutionStatusBadge } from './execution-status-badge';
import { executorName, formatRuntime } from './report-format';

/** The one sort key the server keeps an index for (docs/reports.md). */
export const SORT_KEY = 'executionStart';

/** Spec section 9: the log pages' dates are YYYY/MM/DD HH:mm:ss. */
export const formatLogDate = (epoch: number | null | undefined) => formatEpoch(epoch, DATE_FORMATS.log);

/** A date or a runtime kept on one line: the table scrolls sideways rather than break it. */
const oneLine = (text: string) => <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;

const isLog = (row: ExecutionException): row is ExecutionLog => 'statusType' in row;

/**
 * Spec section 2: exceptions show execution start, workflow, message, activity, executed by, e-mail
 * and MAC address; logs add execution end, the runtime (hours:mm:ss), the status, the company and
 * the department. Only execution start sorts (the server's order). Narrow screens keep the start,
 * the workflow and (logs) the status.
 */
export function executionColumns(kind: ExecutionListKind, t: TFunction): Column<ExecutionException>[] {
  const start: Column<ExecutionException> = {
    key: SORT_KEY,
    header: t('reports.columns.executionStart'),
    value: (row) => row.executionStart,
    render: (row) => oneLine(formatLogDate(row.executionStart)),
    sortable: true,
    truncate: false,
  };
  const workflow: Column<ExecutionException> = {
    key: 'workflow',
    header: t('reports.columns.workflow'),
    value: (row) => row.workflowName,
  };
  const shared: Column<ExecutionException>[] = [
    { key: 'message', header: t('reports.columns.message'), value: (row) => row.errorMessage, priority: 2 },
    { key: 'activity', header: t('reports.columns.activity'), value: (row) => row.errorActivity, priority: 3 },
    {
      key: 'executedBy',
      header: t('reports.columns.executedBy'),
      value: (row) => executorName(row.executedBy),
      priority: 2,
    },
    { key: 'email', header: t('reports.columns.email'), value: (row) => row.emailAddress, priority: 3 },
    { key: 'macAddress', header: t('reports.columns.macAddress'), value: (row) => row.macAddress, priority: 3 },
  ];
  if (kind === 'exceptions') return [start, workflow, ...shared];
  return [
    start,
    {
      key: 'executionEnd',
      header: t('reports.columns.executionEnd'),
      value: (row) => (isLog(row) ? row.executionEnd : null),
      render: (row) => (isLog(row) ? oneLine(formatLogDate(row.executionEnd)) : '-'),
      truncate: false,
      priority: 3,
    },
    {
      key: 'runtime',
      header: t('reports.columns.runtime'),
      value: (row) => (isLog(row) ? formatRuntime(row.executionEnd - row.executionStart) : null),
      align: 'right',
      truncate: false,
      priority: 2,
    },
    workflow,
    {
      key: 'status',
      header: t('reports.columns.status'),
      value: (row) => (isLog(row) ? row.statusType : null),
      width: 112,
      render: (row) => (isLog(row) ? <ExecutionStatusBadge status={row.statusType} /> : '-'),
    },
    ...shared,
    {
      key: 'company',
      header: t('reports.columns.company'),
      value: (row) => (isLog(row) ? row.companyName : null),
      priority: 3,
    },
    {
      key: 'department',
      header: t('reports.columns.department'),
      value: (row) => (isLog(row) ? row.departmentName : null),
      priority: 3,
    },
  ];
}
