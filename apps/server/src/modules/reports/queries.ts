import { and, asc, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Executor, selectRows } from '../../db/client';
import {
  executionDailyRollups,
  executionLogs,
  executionRollups,
  executionTimeRollups,
  queuedRuns,
  workflows,
} from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';
import type { RangePieces, Span } from './ranges';

/** `column` in any of the half-open spans (none: false). */
function inSpans(column: PgColumn, spans: readonly Span[]): SQL {
  if (spans.length === 0) return sql`false`;
  return or(...spans.map((span) => and(gte(column, span.from), lt(column, span.to))))!;
}

/**
 * The runs of a range by workflow and status, and the runs queued in it, as one UNION ALL of the
 * three sources of `pieces` (docs/reports.md): the daily rollups for whole UTC days, the 15-minute
 * rollups for whole buckets, and the raw logs (and queued runs) for the sub-bucket ends. Each run
 * is counted once, where its start (or its queueing) falls. Columns: workflow_id, succeeded,
 * faulted, unknown, queued.
 */
function countSources(scope: TenantScope, pieces: RangePieces, withQueued: boolean): SQL {
  const parts: SQL[] = [];
  const rollupOf = (table: typeof executionDailyRollups | typeof executionRollups, start: PgColumn, spans: Span[]) =>
    sql`select ${table.workflowId} as workflow_id, ${table.succeeded} as succeeded, ${table.faulted} as faulted,
          ${table.unknown} as unknown, ${withQueued ? table.queued : sql`0`} as queued
        from ${table} where ${and(inScope(table.tenantId, scope), inSpans(start, spans))}`;
  if (pieces.days) parts.push(rollupOf(executionDailyRollups, executionDailyRollups.dayStart, [pieces.days]));
  if (pieces.buckets.length) parts.push(rollupOf(executionRollups, executionRollups.bucketStart, pieces.buckets));
  if (pieces.raw.length) {
    const log = executionLogs;
    // The rollups count a log of a company (tenant_id set) whatever became of its workflow since.
    parts.push(sql`select ${log.workflowId} as workflow_id, (${log.statusType} = 'success')::int as succeeded,
        (${log.statusType} = 'faulted')::int as faulted, (${log.statusType} = 'unknown')::int as unknown, 0 as queued
      from ${log}
      where ${and(inScope(log.tenantId, scope), sql`${log.tenantId} is not null`, inSpans(log.executionStart, pieces.raw))}`);
    if (withQueued) {
      parts.push(sql`select ${queuedRuns.workflowId} as workflow_id, 0 as succeeded, 0 as faulted, 0 as unknown, 1 as queued
        from ${queuedRuns}
        where ${and(inScope(queuedRuns.tenantId, scope), inSpans(queuedRuns.queuedAt, pieces.raw))}`);
    }
  }
  return sql.join(parts, sql` union all `);
}

export type RangeCounts = { succeeded: number; faulted: number; unknown: number; queued: number };

/** The runs of a range by status, and the runs queued in it: one statement. */
export async function rangeCounts(
  db: Executor,
  scope: TenantScope,
  pieces: RangePieces,
  options: { withQueued: boolean } = { withQueued: true },
): Promise<RangeCounts> {
  const [row] = await selectRows<Record<keyof RangeCounts, string | number | null>>(
    db,
    sql`select sum(succeeded) as succeeded, sum(faulted) as faulted, sum(unknown) as unknown, sum(queued) as queued
        from (${countSources(scope, pieces, options.withQueued)}) as counts`,
  );
  return {
    succeeded: Number(row?.succeeded ?? 0),
    faulted: Number(row?.faulted ?? 0),
    unknown: Number(row?.unknown ?? 0),
    queued: Number(row?.queued ?? 0),
  };
}

/**
 * The workflows run most in a range, with their current names (archived ones too): runs of every
 * status, most first, ties by name then id; only workflows run at least once.
 */
export async function useCounts(
  db: Executor,
  scope: TenantScope,
  pieces: RangePieces,
  limit: number,
): Promise<{ workflowName: string; useCount: number }[]> {
  const rows = await selectRows<{ workflow_name: string; use_count: string | number }>(
    db,
    sql`with runs as (
          select workflow_id, sum(succeeded + faulted + unknown) as use_count
          from (${countSources(scope, pieces, false)}) as counts
          group by workflow_id
        )
        select ${workflows.name} as workflow_name, runs.use_count
        from runs join ${workflows} on ${workflows.id} = runs.workflow_id
        where runs.use_count > 0
        order by runs.use_count desc, ${workflows.name} asc, ${workflows.id} asc
        limit ${limit}`,
  );
  return rows.map((row) => ({ workflowName: row.workflow_name, useCount: Number(row.use_count) }));
}

/**
 * Executed milliseconds per day, for days given by their bounds (`bounds[i]` to `bounds[i + 1]`):
 * the 15-minute buckets of the whole span read once and put in their day by `width_bucket`.
 * Answers one number per day.
 */
export async function executedTimePerDay(db: Executor, scope: TenantScope, bounds: readonly number[]) {
  const t = executionTimeRollups;
  const first = bounds[0]!;
  const last = bounds.at(-1)!;
  const rows = await selectRows<{ day: number; ms: string | number }>(
    db,
    sql`select width_bucket(${t.bucketStart}, ${`{${bounds.join(',')}}`}::bigint[]) as day, sum(${t.executionMs}) as ms
        from ${t}
        where ${and(inScope(t.tenantId, scope), gte(t.bucketStart, first), lt(t.bucketStart, last))}
        group by 1`,
  );
  const perDay = new Array<number>(bounds.length - 1).fill(0);
  for (const row of rows) perDay[row.day - 1] = Number(row.ms);
  return perDay;
}

/** Which logs a list reads (docs/reports.md, "The calls"). */
export type LogFilter = {
  scope: TenantScope;
  /** Execution start, both inclusive. */
  from: number;
  to: number;
  /** Only the exceptions (faulted runs). */
  faultedOnly: boolean;
  /**
   * The text searched (case-insensitive substring of the fields the list shows), its LIKE pattern
   * (`likePattern`), and the zone the logs' times show in.
   */
  search?: { text: string; pattern: string; timeZone: string; logFields: boolean };
};

const fullName = sql`lower(${executionLogs.executorFirstName} || ' ' || ${executionLogs.executorLastName})`;

const STATUSES = ['success', 'faulted', 'unknown'] as const;
/** What a time shown as YYYY/MM/DD HH:mm:ss is made of: a search with anything else never matches one. */
const SHOWN_TIME_CHARS = /^[0-9/: ]+$/;

function searchCondition(search: NonNullable<LogFilter['search']>): SQL {
  const { pattern } = search;
  const text = search.text.toLowerCase();
  const log = executionLogs;
  const like = (expression: SQL) => sql`${expression} like ${pattern}`;
  const exception = [
    like(sql`lower(${log.errorMessage})`),
    like(sql`lower(${log.errorActivity})`),
    like(sql`lower(${log.workflowName})`),
    like(sql`lower(${log.emailAddress})`),
    // MAC addresses are stored upper-case: lowered like the pattern.
    like(sql`lower(${log.macAddress})`),
    // "first last" holds every substring of the first name and of the last name.
    like(fullName),
  ];
  if (!search.logFields) return or(...exception)!;
  // The status and the shown end are tested only when the text can match them: formatting the end
  // of every row of the range costs a third of a search's time.
  const statuses = STATUSES.filter((status) => status.includes(text));
  return or(
    ...exception,
    statuses.length ? inArray(log.statusType, statuses) : undefined,
    like(sql`lower(${log.companyName})`),
    like(sql`lower(${log.departmentName})`),
    // The end as the log table shows it (spec section 9: YYYY/MM/DD HH:mm:ss) in the caller's zone.
    SHOWN_TIME_CHARS.test(text)
      ? like(
          sql`to_char(to_timestamp(${log.executionEnd} / 1000.0) at time zone ${search.timeZone}, 'YYYY/MM/DD HH24:MI:SS')`,
        )
      : undefined,
  )!;
}

function filterCondition(filter: LogFilter): SQL {
  return and(
    inScope(executionLogs.tenantId, filter.scope),
    gte(executionLogs.executionStart, filter.from),
    lte(executionLogs.executionStart, filter.to),
    // A literal, not a parameter: the partial index execution_logs_tenant_faulted_idx then applies.
    filter.faultedOnly ? sql`${executionLogs.statusType} = 'faulted'` : undefined,
    filter.search ? searchCondition(filter.search) : undefined,
  )!;
}

const logColumns = {
  id: executionLogs.id,
  executionStart: executionLogs.executionStart,
  executionEnd: executionLogs.executionEnd,
  statusType: executionLogs.statusType,
  workflowId: executionLogs.workflowId,
  workflowName: executionLogs.workflowName,
  workflowVersion: executionLogs.workflowVersion,
  errorMessage: executionLogs.errorMessage,
  errorActivity: executionLogs.errorActivity,
  executorUserId: executionLogs.executorUserId,
  executorFirstName: executionLogs.executorFirstName,
  executorLastName: executionLogs.executorLastName,
  emailAddress: executionLogs.emailAddress,
  macAddress: executionLogs.macAddress,
  hostname: executionLogs.hostname,
  companyName: executionLogs.companyName,
  departmentName: executionLogs.departmentName,
};

export type LogRow = {
  id: string;
  executionStart: number;
  executionEnd: number;
  statusType: 'success' | 'faulted' | 'unknown';
  workflowId: number | null;
  workflowName: string;
  workflowVersion: number | null;
  errorMessage: string | null;
  errorActivity: string | null;
  executorUserId: number | null;
  executorFirstName: string;
  executorLastName: string;
  emailAddress: string | null;
  macAddress: string;
  hostname: string | null;
  companyName: string | null;
  departmentName: string | null;
};

/** Where a keyset read resumes: after this row, in the list's order. */
export type LogCursor = { executionStart: number; id: string };

/**
 * Logs of the filter in execution start order, ties by id (newest first by default), `limit` of
 * them from `offset`, or after `cursor`. Both walk execution_logs_tenant_start_idx (one company),
 * its faulted twin, or execution_logs_start_idx (every company), forwards or backwards.
 *
 * With an offset, the rows skipped are read from the index alone (their start and id are the
 * index's own columns: an index-only scan) and only the page's rows from the table, joined back
 * by their key: page 500 of a month reads 5,000 index entries and 10 rows, not 5,000 rows
 * (measured on PostgreSQL: 1 ms rather than 100 to 250 ms).
 */
export async function listLogs(
  db: Executor,
  filter: LogFilter,
  page: { direction: 'asc' | 'desc'; limit: number; offset?: number; cursor?: LogCursor },
): Promise<LogRow[]> {
  const order = page.direction === 'asc' ? asc : desc;
  const { cursor } = page;
  const after = cursor
    ? page.direction === 'asc'
      ? sql`(${executionLogs.executionStart}, ${executionLogs.id}) > (${cursor.executionStart}::bigint, ${cursor.id}::uuid)`
      : sql`(${executionLogs.executionStart}, ${executionLogs.id}) < (${cursor.executionStart}::bigint, ${cursor.id}::uuid)`
    : undefined;
  const byStart = [order(executionLogs.executionStart), order(executionLogs.id)];
  if (!page.offset) {
    return db
      .select(logColumns)
      .from(executionLogs)
      .where(and(filterCondition(filter), after))
      .orderBy(...byStart)
      .limit(page.limit) as Promise<LogRow[]>;
  }
  const keys = db.$with('page_keys').as(
    db
      .select({
        start: sql<number>`${executionLogs.executionStart}`.as('key_start'),
        id: sql<string>`${executionLogs.id}`.as('key_id'),
      })
      .from(executionLogs)
      .where(and(filterCondition(filter), after))
      .orderBy(...byStart)
      .limit(page.limit)
      .offset(page.offset),
  );
  return db
    .with(keys)
    .select(logColumns)
    .from(keys)
    .innerJoin(executionLogs, and(eq(executionLogs.id, keys.id), eq(executionLogs.executionStart, keys.start)))
    .orderBy(...byStart) as Promise<LogRow[]>;
}

/** How many logs the filter matches, counted over the rows (a search's total). */
export async function countLogs(db: Executor, filter: LogFilter): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(executionLogs)
    .where(filterCondition(filter));
  return Number(row?.count ?? 0);
}
