import { z } from 'zod';
import type { ErrorKey } from './errors';
import { EPOCH_MAX, ID_MAX } from './fields';
import { LIMITS } from './limits';
import { ExecutionStatus } from './live';
import { pageOf } from './paging';

/**
 * Reports (spec sections 2, 3 and 7; docs/reports.md): the agent report's metrics, use counts and
 * executed time per day, and the exceptions and execution logs, each over `from`..`to` (epoch
 * milliseconds, both ends inclusive). A run belongs to the moment it started (its
 * `executionStart`); a queued run to the moment it was queued; executed time is spread over the
 * days it ran.
 */

/** The agent report's "Most Used Workflows" (spec section 9 leaves it open: the ten most used). */
export const USE_COUNT_LIMIT_DEFAULT = 10;
/** The list calls without `page` answer at most this many rows (default 100), newest first. */
export const REPORT_LIST_LIMIT_DEFAULT = 100;
export const REPORT_LIST_LIMIT_MAX = 1_000;
/** Executed time per day covers at most this many days (a year and a day: 366 entries at most). */
export const TOTAL_HOURS_MAX_DAYS = 366;
/** The agent report's Workflow Errors panel: the first 5 exceptions (spec section 9). */
export const REPORT_ERRORS_PANEL = 5;
/** The agent report's Events panel: up to 2 agents (spec section 9). */
export const REPORT_EVENTS_PANEL = 2;

const invalid: ErrorKey = 'ERROR_REPORT_RANGE_INVALID';

/** An epoch-millisecond query value: required, a whole number a Date can hold. */
const epochQuery = () =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number({ error: invalid }).int(invalid).min(0, invalid).max(EPOCH_MAX, invalid),
  );

/** `from` and `to` (epoch ms, both included): shared with the monitor's widget query. */
export const rangeShape = { from: epochQuery(), to: epochQuery() };
export const ordered = (range: { from: number; to: number }) => range.from <= range.to;

/** `from` and `to` of every report call; `from` after `to` is ERROR_REPORT_RANGE_INVALID. */
export const ReportRange = z.object(rangeShape).refine(ordered, { message: invalid, path: ['to'] });
export type ReportRange = z.infer<typeof ReportRange>;

/**
 * An IANA time zone name the runtime knows ('UTC', 'Europe/Berlin', 'Asia/Kathmandu'). A name, not
 * an offset: runtimes that take '+05:45' would pass it to PostgreSQL, which reads it as POSIX does
 * (5:45 west of Greenwich).
 */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z]/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** `tz`: an IANA zone name, default UTC (ERROR_REPORT_TIME_ZONE_INVALID). */
export const timeZone = () =>
  z
    .string()
    .trim()
    .min(1, 'ERROR_REPORT_TIME_ZONE_INVALID')
    .max(64, 'ERROR_REPORT_TIME_ZONE_INVALID')
    .refine(isTimeZone, 'ERROR_REPORT_TIME_ZONE_INVALID')
    .default('UTC');

const limit = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'ERROR_REPORT_LIMIT_INVALID' })
    .int('ERROR_REPORT_LIMIT_INVALID')
    .min(1, 'ERROR_REPORT_LIMIT_INVALID')
    .max(max, 'ERROR_REPORT_LIMIT_INVALID')
    .default(fallback);

export const UseCountsQuery = z
  .object({ ...rangeShape, limit: limit(USE_COUNT_LIMIT_DEFAULT, REPORT_LIST_LIMIT_MAX) })
  .refine(ordered, { message: invalid, path: ['to'] });
export type UseCountsQuery = z.infer<typeof UseCountsQuery>;

export const TotalHoursQuery = z
  .object({ ...rangeShape, tz: timeZone() })
  .refine(ordered, { message: invalid, path: ['to'] })
  .refine((range) => range.to - range.from < TOTAL_HOURS_MAX_DAYS * 86_400_000, {
    message: 'ERROR_REPORT_RANGE_TOO_LONG',
    path: ['to'],
  });
export type TotalHoursQuery = z.infer<typeof TotalHoursQuery>;

/** What the list calls (`/exceptions`, `/logs`) answer in: JSON, or every matching row as CSV. */
export const ReportFormat = z.enum(['json', 'csv']);
export type ReportFormat = z.infer<typeof ReportFormat>;

/**
 * `/exceptions` and `/logs`. Without `page`: an array (the spec insists), newest first, at most
 * `limit` rows. With `page` (and `size`, `search`, `sort`): a `Page`. With `format=csv`: every row
 * the filter matches, all pages, as RFC 4180 CSV. `sort` is `executionStart,asc|desc` (newest
 * first by default: the only order a table of ten million runs keeps an index for).
 */
export const ExecutionLogListQuery = z
  .object({
    ...rangeShape,
    limit: limit(REPORT_LIST_LIMIT_DEFAULT, REPORT_LIST_LIMIT_MAX),
    page: z.coerce
      .number({ error: 'ERROR_GENERAL_INVALID_INPUT' })
      .int('ERROR_GENERAL_INVALID_INPUT')
      .min(1, 'ERROR_GENERAL_INVALID_INPUT')
      .max(ID_MAX, 'ERROR_GENERAL_INVALID_INPUT')
      .optional(),
    size: z.coerce
      .number({ error: 'ERROR_GENERAL_INVALID_INPUT' })
      .int('ERROR_GENERAL_INVALID_INPUT')
      .min(1, 'ERROR_GENERAL_INVALID_INPUT')
      .max(100, 'ERROR_GENERAL_INVALID_INPUT')
      .default(LIMITS.pageSize),
    sort: z
      .string()
      .regex(/^executionStart(,(asc|desc))?$/, 'ERROR_GENERAL_INVALID_INPUT')
      .optional(),
    search: z.string().trim().max(LIMITS.nameMax, 'ERROR_GENERAL_INVALID_INPUT').optional(),
    format: ReportFormat.default('json'),
    /** The caller's zone: the search matches execution end as the console shows it (YYYY/MM/DD HH:mm:ss there). */
    tz: timeZone(),
  })
  .refine(ordered, { message: invalid, path: ['to'] });
export type ExecutionLogListQuery = z.infer<typeof ExecutionLogListQuery>;

export const Metrics = z
  .object({
    completedWorkflowCount: z.number().int(),
    failedWorkflowCount: z.number().int(),
    scheduledWorkflowCount: z.number().int(),
  })
  .meta({ id: 'Metrics' });
export type Metrics = z.infer<typeof Metrics>;

export const UseCount = z.object({ workflowName: z.string(), useCount: z.number().int() }).meta({ id: 'UseCount' });
export type UseCount = z.infer<typeof UseCount>;

/** One day of the caller's time zone: `date` is its 'YYYY-MM-DD', `executionTime` milliseconds. */
export const ExecutionTimeEntry = z
  .object({ date: z.string(), executionTime: z.number().int() })
  .meta({ id: 'ExecutionTimeEntry' });
export type ExecutionTimeEntry = z.infer<typeof ExecutionTimeEntry>;

export const ExecutedBy = z.object({ id: z.number().int().nullable(), firstName: z.string(), lastName: z.string() });
export type ExecutedBy = z.infer<typeof ExecutedBy>;

/**
 * An exception (spec section 3), with what the details need: the log's id, the workflow's id and
 * the version that ran (the one current when the run started), the machine's host name.
 */
export const ExecutionException = z
  .object({
    id: z.string(),
    executionStart: z.number().int(),
    workflowId: z.number().int().nullable(),
    workflowName: z.string(),
    workflowVersion: z.number().int().nullable(),
    errorMessage: z.string().nullable(),
    errorActivity: z.string().nullable(),
    executedBy: ExecutedBy,
    emailAddress: z.string().nullable(),
    macAddress: z.string(),
    hostname: z.string().nullable(),
  })
  .meta({ id: 'ExecutionException' });
export type ExecutionException = z.infer<typeof ExecutionException>;

/** An execution log: an exception's fields and the end, status, company and department. */
export const ExecutionLog = ExecutionException.extend({
  executionEnd: z.number().int(),
  statusType: ExecutionStatus,
  companyName: z.string().nullable(),
  departmentName: z.string().nullable(),
}).meta({ id: 'ExecutionLog' });
export type ExecutionLog = z.infer<typeof ExecutionLog>;

export const ExecutionExceptionPage = pageOf(ExecutionException).meta({ id: 'ExecutionExceptionPage' });
export const ExecutionLogPage = pageOf(ExecutionLog).meta({ id: 'ExecutionLogPage' });

/** The report calls' paths under /api (spec section 7). */
export const REPORT_PATHS = {
  metrics: '/report/agent/metrics',
  useCounts: '/report/agent/use-counts',
  totalHours: '/report/agent/total-hours',
  exceptions: '/report/agent/exceptions',
  logs: '/report/agent/logs',
} as const;

/** The columns of the CSV exports, in order (docs/reports.md); times are ISO 8601 in UTC. */
export const EXCEPTION_CSV_COLUMNS = [
  'id',
  'executionStart',
  'workflowName',
  'workflowVersion',
  'errorMessage',
  'errorActivity',
  'executedByFirstName',
  'executedByLastName',
  'emailAddress',
  'macAddress',
  'hostname',
] as const;
export const LOG_CSV_COLUMNS = [
  'id',
  'executionStart',
  'executionEnd',
  'runtimeSeconds',
  'statusType',
  'workflowName',
  'workflowVersion',
  'errorMessage',
  'errorActivity',
  'executedByFirstName',
  'executedByLastName',
  'emailAddress',
  'macAddress',
  'hostname',
  'companyName',
  'departmentName',
] as const;
