import { and, asc, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Executor, selectRows } from '../../db/client';
import {
  exceptionSearchText,
  executionDailyRollups,
  executionDailyTimeRollups,
  executionLogs,
  executionRollups,
  executionTimeRollups,
  logSearchText,
  queuedRuns,
  workflows,
} from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';
import { DAY_MS } from '../execution-logs/queries';
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

/** Epoch ms of the UTC midnight nearest to `at`. */
const nearestUtcMidnight = (at: number) => Math.round(at / DAY_MS) * DAY_MS;

/**
 * Executed milliseconds per day, for days given by their bounds (`bounds[i]` to `bounds[i + 1]`,
 * each a day of the caller's zone): a day is the UTC day whose midnight is nearest its start, read
 * from the daily rollup, with the 15-minute buckets between the two midnights added or taken away
 * at each end (docs/reports.md, "Executed time"). Every company's month is then a row a company and
 * day and a few edge buckets, not 96 rows a company and day. One statement; one number per day.
 */
export async function executedTimePerDay(db: Executor, scope: TenantScope, bounds: readonly number[]) {
  const utcDays = bounds.slice(0, -1).map(nearestUtcMidnight);
  // Each day's two ends: from its start to its UTC day's midnight, and from the next midnight to its end.
  const ends = bounds.slice(0, -1).flatMap((start, index) => {
    const utc = utcDays[index]!;
    return [
      { from: Math.min(start, utc), to: Math.max(start, utc) },
      { from: Math.min(bounds[index + 1]!, utc + DAY_MS), to: Math.max(bounds[index + 1]!, utc + DAY_MS) },
    ];
  });
  const daily = executionDailyTimeRollups;
  const buckets = executionTimeRollups;
  const rows = await selectRows<{ daily: boolean; at: string | number; ms: string | number }>(
    db,
    sql`select true as daily, ${daily.dayStart} as at, sum(${daily.executionMs}) as ms from ${daily}
        where ${and(inScope(daily.tenantId, scope), gte(daily.dayStart, utcDays[0]!), lte(daily.dayStart, utcDays.at(-1)!))}
        group by ${daily.dayStart}
        union all
        select false, ${buckets.bucketStart}, sum(${buckets.executionMs}) from ${buckets}
        where ${and(inScope(buckets.tenantId, scope), inSpans(buckets.bucketStart, mergeSpans(ends)))}
        group by ${buckets.bucketStart}`,
  );
  const perUtcDay = new Map<number, number>();
  const edges: [at: number, ms: number][] = [];
  for (const row of rows) {
    if (row.daily) perUtcDay.set(Number(row.at), Number(row.ms));
    else edges.push([Number(row.at), Number(row.ms)]);
  }
  edges.sort((a, b) => a[0] - b[0]);
  // Executed time of the buckets that start in [from, to), signed: negative when `to` is before `from`.
  const prefix = [0];
  for (const [, ms] of edges) prefix.push(prefix.at(-1)! + ms);
  const before = (at: number) => {
    let low = 0;
    let high = edges.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (edges[mid]![0] < at) low = mid + 1;
      else high = mid;
    }
    return prefix[low]!;
  };
  const between = (from: number, to: number) => before(to) - before(from);
  return utcDays.map((utc, index) => {
    const start = bounds[index]!;
    const end = bounds[index + 1]!;
    return between(start, utc) + (perUtcDay.get(utc) ?? 0) + between(utc + DAY_MS, end);
  });
}

/** Spans sorted and joined where they touch or overlap, empty ones left out. */
function mergeSpans(spans: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of [...spans].filter((s) => s.from < s.to).sort((a, b) => a.from - b.from)) {
    const last = merged.at(-1);
    if (last && span.from <= last.to) last.to = Math.max(last.to, span.to);
    else merged.push({ ...span });
  }
  return merged;
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

const STATUSES = ['success', 'faulted', 'unknown'] as const;
/** What a time shown as YYYY/MM/DD HH:mm:ss is made of: a search with anything else never matches one. */
const SHOWN_TIME_CHARS = /^[0-9/: ]+$/;
/** The separator of the searched fields in `searchText` (schema/execution-logs.ts). */
const FIELD_SEPARATOR = '\u0001';

/**
 * The search's condition (docs/reports.md, "Search"): one LIKE on the searched fields joined
 * (`exceptionSearchText` or `logSearchText`), which their trigram index serves; the logs' status
 * and shown end are tested apart, and only when the text can match them (formatting the end of
 * every row of the range costs a third of a search's time). A text holding the fields' separator
 * could match across two fields, so it is tested field by field (no index: a search nobody types).
 */
export function searchCondition(search: NonNullable<LogFilter['search']>, byIndex = true): SQL {
  const { pattern } = search;
  const text = search.text.toLowerCase();
  const log = executionLogs;
  const like = (expression: SQL) => sql`${expression} like ${pattern}`;
  const joined = search.logFields ? logSearchText(log) : exceptionSearchText(log);
  const fields = text.includes(FIELD_SEPARATOR)
    ? or(
        ...[
          log.errorMessage,
          log.errorActivity,
          log.workflowName,
          log.emailAddress,
          log.macAddress,
          ...(search.logFields ? [log.companyName, log.departmentName] : []),
        ].map((column) => like(sql`lower(${column})`)),
        like(sql`lower(${log.executorFirstName} || ' ' || ${log.executorLastName})`),
      )!
    : // Not through the trigram index: the same text, as an expression the index does not hold.
      like(byIndex ? joined : sql`(${joined} || '')`);
  if (!search.logFields) return fields;
  const statuses = STATUSES.filter((status) => status.includes(text));
  return or(
    fields,
    statuses.length ? inArray(log.statusType, statuses) : undefined,
    // The end as the log table shows it (spec section 9: YYYY/MM/DD HH:mm:ss) in the caller's zone.
    SHOWN_TIME_CHARS.test(text)
      ? like(
          sql`to_char(to_timestamp(${log.executionEnd} / 1000.0) at time zone ${search.timeZone}, 'YYYY/MM/DD HH24:MI:SS')`,
        )
      : undefined,
  )!;
}

function filterCondition(filter: LogFilter, searchByIndex = true): SQL {
  return and(
    inScope(executionLogs.tenantId, filter.scope),
    gte(executionLogs.executionStart, filter.from),
    lte(executionLogs.executionStart, filter.to),
    // A literal, not a parameter: the partial index execution_logs_tenant_faulted_idx then applies.
    filter.faultedOnly ? sql`${executionLogs.statusType} = 'faulted'` : undefined,
    filter.search ? searchCondition(filter.search, searchByIndex) : undefined,
  )!;
}

/** A slice of a search's range within one UTC month (one partition of the logs). */
type SearchSlice = { from: number; to: number; byIndex: boolean };

/**
 * The search's range cut at the UTC months (the logs' partitions). The trigram index of a month
 * holds no time: through it, a slice reads every match of its whole month, then keeps those of the
 * slice. A slice under a day (the hour of the month before that a range in Europe/Berlin starts
 * with, or a search of today) is read by time instead, each of its rows tested; a longer one
 * through the index (docs/reports.md, "Exceptions and logs").
 */
function searchSlices(from: number, to: number): SearchSlice[] {
  const slices: SearchSlice[] = [];
  for (let start = from; start <= to; ) {
    const at = new Date(start);
    const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
    const end = Math.min(to, next - 1);
    slices.push({ from: start, to: end, byIndex: end - start >= DAY_MS });
    start = next;
  }
  return slices;
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

/**
 * A page of a search known to match more than the cap (a common word): walked in order down the
 * start index, each row tested, until the page is full. The planner cannot know a word is common
 * (it estimates a handful of matches for any `like` on the joined text) and would read every
 * match through the trigram index and sort them: 350 ms for a common word in a big company's
 * month, against 0.2 ms for the walk (docs/performance.md). Bitmap and sequential scans are off
 * for this one transaction, so the ordered walk is the plan.
 */
export function listDenseMatches(
  db: Executor,
  filter: LogFilter,
  page: { direction: 'asc' | 'desc'; limit: number; offset: number },
): Promise<LogRow[]> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`,
    );
    return listLogs(tx, filter, page);
  });
}

/**
 * A search's page and its total in one statement (docs/reports.md, "Search"): the keys of the
 * matching logs are read once, through the trigram index, up to `cap + 1` of them; their number is
 * the total, and when it is within the cap the page is sorted from those same keys and joined back
 * to its rows, so the matches' rows are visited once rather than once for the count and again for
 * the page. Past the cap the keys are an arbitrary `cap + 1` of the matches: `rows` is then null and
 * the page is read in order on its own (`listLogs`: a common word's newest matches come first in the
 * index).
 */
export async function searchPage(
  db: Executor,
  filter: LogFilter,
  page: { direction: 'asc' | 'desc'; limit: number; offset: number; cap: number },
): Promise<{ total: number; rows: LogRow[] | null }> {
  const order = page.direction === 'asc' ? sql`asc` : sql`desc`;
  const log = executionLogs;
  const result = await selectRows<Record<string, unknown> & { total: number }>(
    db,
    sql`with matches as materialized (
          ${sql.join(
            searchSlices(filter.from, filter.to).map(
              (slice) =>
                sql`(select ${log.executionStart} as key_start, ${log.id} as key_id from ${log}
                     where ${filterCondition({ ...filter, ...slice }, slice.byIndex)})`,
            ),
            sql` union all `,
          )}
          limit ${page.cap + 1}
        ),
        total as (select count(*)::int as total from matches),
        page_keys as (
          select key_start, key_id from matches, total where total.total <= ${page.cap}
          order by key_start ${order}, key_id ${order} limit ${page.limit} offset ${page.offset}
        )
        select total.total, rows.* from total left join (
          select ${sql.join(
            Object.entries(logColumns).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`),
            sql`, `,
          )}
          from page_keys join ${log} on ${log.id} = page_keys.key_id and ${log.executionStart} = page_keys.key_start
        ) as rows on true
        order by rows."executionStart" ${order}, rows.id ${order}`,
  );
  const total = Number(result[0]?.total ?? 0);
  if (total > page.cap) return { total, rows: null };
  const rows = result
    .filter((row) => row.id !== null && row.id !== undefined)
    .map(
      (row) =>
        ({
          ...row,
          executionStart: Number(row.executionStart),
          executionEnd: Number(row.executionEnd),
        }) as unknown as LogRow,
    );
  return { total, rows };
}
