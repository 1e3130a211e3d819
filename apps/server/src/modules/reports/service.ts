import { type Page, parseSort } from '@opsdeck/contract/paging';
import {
  EXCEPTION_CSV_COLUMNS,
  type ExecutionException,
  type ExecutionLog,
  type ExecutionLogListQuery,
  type ExecutionTimeEntry,
  LOG_CSV_COLUMNS,
  type Metrics,
  type ReportRange,
  type TotalHoursQuery,
  type UseCount,
  type UseCountsQuery,
} from '@opsdeck/contract/reports';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import type { CsvValue } from '../../platform/csv';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { badRequest } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { ListCache } from '../../platform/list-counts';
import { likePattern } from '../../platform/search';
import { scopeOf } from '../../platform/tenancy';
import { DAY_MS } from '../execution-logs/queries';
import { CLOCK_SKEW_MS } from '../execution-logs/service';
import * as q from './queries';
import { decomposeRange, zonedDays } from './ranges';

/** The two lists: `/exceptions` (faulted runs, the exception's fields) and `/logs` (every run, more fields). */
export type LogListKind = 'exceptions' | 'logs';

/**
 * A search's total is counted up to this many matches: past it the page answers this total with
 * `totalCapped` (the console says "of more than 10000"), and counting a common word costs its first 10,001 rows,
 * not a month's.
 */
export const SEARCH_TOTAL_CAP = 10_000;

/** Rows an export reads per query: a keyset batch, so that memory stays flat at any size. */
export const CSV_BATCH_ROWS = 1_000;

function toException(row: q.LogRow): ExecutionException {
  return {
    id: row.id,
    executionStart: row.executionStart,
    workflowId: row.workflowId,
    workflowName: row.workflowName,
    workflowVersion: row.workflowVersion,
    errorMessage: row.errorMessage,
    errorActivity: row.errorActivity,
    executedBy: { id: row.executorUserId, firstName: row.executorFirstName, lastName: row.executorLastName },
    emailAddress: row.emailAddress,
    macAddress: row.macAddress,
    hostname: row.hostname,
  };
}

function toLog(row: q.LogRow): ExecutionLog {
  return {
    ...toException(row),
    executionEnd: row.executionEnd,
    statusType: row.statusType,
    companyName: row.companyName,
    departmentName: row.departmentName,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A log as a CSV record: the columns of LOG_CSV_COLUMNS (EXCEPTION_CSV_COLUMNS are a subset), times in ISO 8601 UTC. */
function toCsvRecord(row: q.LogRow): Record<(typeof LOG_CSV_COLUMNS)[number], CsvValue> {
  return {
    id: row.id,
    executionStart: iso(row.executionStart),
    executionEnd: iso(row.executionEnd),
    runtimeSeconds: (row.executionEnd - row.executionStart) / 1000,
    statusType: row.statusType,
    workflowName: row.workflowName,
    workflowVersion: row.workflowVersion,
    errorMessage: row.errorMessage,
    errorActivity: row.errorActivity,
    executedByFirstName: row.executorFirstName,
    executedByLastName: row.executorLastName,
    emailAddress: row.emailAddress,
    macAddress: row.macAddress,
    hostname: row.hostname,
    companyName: row.companyName,
    departmentName: row.departmentName,
  };
}

/** A time zone Intl knows but the database does not (their tz data differ in age): the caller's 400. */
async function zoneChecked<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (error) {
    if (hasSqlState(error, SQLSTATE.invalidParameterValue)) {
      throw badRequest('ERROR_REPORT_TIME_ZONE_INVALID', { tz: 'ERROR_REPORT_TIME_ZONE_INVALID' });
    }
    throw error;
  }
}

export type ReportsService = ReturnType<typeof createReportsService>;

/**
 * The report calls (docs/reports.md, "The calls"): counts from the rollups (exact for any range:
 * whole days, whole 15-minute buckets and the raw ends, in one statement), executed time per day
 * of the caller's zone, and the exceptions and logs, listed, paged or exported as CSV. Every read
 * is of the request's scope (an admin who named no company reads every company).
 *
 * `retentionDays` is the logs' (EXECUTION_LOG_RETENTION_DAYS): the lists start no earlier than the
 * UTC month that holds the retention's cut, the oldest month kept whole, so that a page's total (from
 * the rollups, which are kept for ever) counts only rows the list can still show.
 */
export function createReportsService(deps: {
  db: Db;
  /** Without a bus (some tests) nothing would evict them: the lists' pages are then read every time. */
  events?: EventBus;
  retentionDays?: number;
  now?: () => number;
  csvBatchRows?: number;
  searchTotalCap?: number;
  /** Where an abandoned CSV export's read ahead is noted (debug). */
  log?: Pick<FastifyBaseLogger, 'debug'>;
}) {
  const { db, now = Date.now, csvBatchRows = CSV_BATCH_ROWS, searchTotalCap = SEARCH_TOTAL_CAP } = deps;
  const retentionMs = (deps.retentionDays ?? 400) * DAY_MS;
  /**
   * The lists' pages as answered (docs/reports.md, "Lists"): a log never changes once stored, so a
   * page changes only when logs are stored (an `executions` event of its company) or its company
   * goes. A page of every company is dropped by any company's logs.
   */
  const pages = deps.events
    ? new ListCache<{ rows: q.LogRow[]; page?: PageOf }>(deps.events, { dependsOn: ['executions', 'companies'] })
    : null;

  /** The first millisecond the lists show: the start of the UTC month of the retention's cut. */
  function listsStart() {
    const cut = new Date(now() - retentionMs);
    return Date.UTC(cut.getUTCFullYear(), cut.getUTCMonth(), 1);
  }

  /** The list's filter, or null when the range is wholly before what the lists keep. */
  function filterOf(kind: LogListKind, auth: RequestAuth, query: ExecutionLogListQuery): q.LogFilter | null {
    const from = Math.max(query.from, listsStart());
    // No run starts after the clock skew an agent is allowed: a range into the far future ends there.
    const to = Math.min(query.to, now() + CLOCK_SKEW_MS);
    if (from > to) return null;
    return {
      scope: scopeOf(auth),
      from,
      to,
      faultedOnly: kind === 'exceptions',
      ...(query.search
        ? {
            search: {
              text: query.search,
              pattern: likePattern(query.search),
              timeZone: query.tz,
              logFields: kind === 'logs',
            },
          }
        : {}),
    };
  }

  /** The rows a filter without a search matches, counted from the rollups. */
  async function totalOf(filter: q.LogFilter): Promise<number> {
    const counts = await q.rangeCounts(db, filter.scope, decomposeRange(filter.from, filter.to), { withQueued: false });
    return filter.faultedOnly ? counts.faulted : counts.succeeded + counts.faulted + counts.unknown;
  }

  const directionOf = (query: ExecutionLogListQuery) => parseSort(query.sort)?.direction ?? 'desc';

  async function rowsOf(kind: LogListKind, auth: RequestAuth, query: ExecutionLogListQuery) {
    const filter = filterOf(kind, auth, query);
    const direction = directionOf(query);
    if (query.page === undefined) {
      const rows = filter ? await zoneChecked(q.listLogs(db, filter, { direction, limit: query.limit })) : [];
      return { rows };
    }
    const at = { page: query.page, size: query.size };
    if (!pages || !filter) return pageOf(filter, at, direction);
    // A range that ends in the future ends, for what it can hold, at the latest start an agent may
    // report (filterOf): it is keyed as open, not by a clock that moves every millisecond.
    const open = query.to >= now() + CLOCK_SKEW_MS;
    const key = { kind, from: filter.from, to: open ? 'open' : filter.to, search: query.search ?? '', tz: query.tz };
    return pages.get(filter.scope, { key, direction, ...at }, () => pageOf(filter, at, direction));
  }

  type PageOf = { total: number; totalCapped?: true; page: number; size: number };

  /** One page of a list and its total (or the capped total of a search). */
  async function pageOf(
    filter: q.LogFilter | null,
    at: { page: number; size: number },
    direction: 'asc' | 'desc',
  ): Promise<{ rows: q.LogRow[]; page: PageOf }> {
    const { size } = at;
    const offset = (at.page - 1) * size;
    if (filter?.search) {
      // A search: its total and page from one read of its matches, up to the cap.
      const found = await zoneChecked(
        q.searchPage(db, filter, { direction, limit: size, offset, cap: searchTotalCap }),
      );
      if (found.rows) return { rows: found.rows, page: { total: found.total, page: at.page, size } };
      const rows =
        offset < searchTotalCap
          ? await zoneChecked(q.listDenseMatches(db, filter, { direction, limit: size, offset }))
          : [];
      return { rows, page: { total: searchTotalCap, totalCapped: true as const, page: at.page, size } };
    }
    const total = filter ? await totalOf(filter) : 0;
    // Nothing is read past the end: a page number of two billion costs one count.
    const rows =
      filter && offset < total ? await zoneChecked(q.listLogs(db, filter, { direction, limit: size, offset })) : [];
    return { rows, page: { total, page: at.page, size } };
  }

  async function list<T>(
    kind: LogListKind,
    auth: RequestAuth,
    query: ExecutionLogListQuery,
    map: (row: q.LogRow) => T,
  ): Promise<T[] | Page<T>> {
    const { rows, page } = await rowsOf(kind, auth, query);
    const items = rows.map(map);
    return page ? { items, ...page } : items;
  }

  /**
   * Every row the filter matches, in the list's order, read in keyset batches of `csvBatchRows`:
   * the next batch is read while the current one is written (at most two batches held).
   */
  async function* allRows(filter: q.LogFilter | null, direction: 'asc' | 'desc') {
    if (!filter) return;
    const read = (cursor?: q.LogCursor) =>
      zoneChecked(q.listLogs(db, filter, { direction, limit: csvBatchRows, ...(cursor ? { cursor } : {}) }));
    let ahead: Promise<q.LogRow[]> | undefined = read();
    try {
      while (ahead) {
        const batch: q.LogRow[] = await ahead;
        const last = batch.at(-1);
        ahead =
          last && batch.length === csvBatchRows
            ? read({ executionStart: last.executionStart, id: last.id })
            : undefined;
        for (const row of batch) yield toCsvRecord(row);
      }
    } finally {
      // A download the client left mid-way: the batch read ahead is not wanted, and its failure
      // (the connection it ran on may be gone too) has nobody to be told to.
      await ahead?.catch((err: unknown) =>
        deps.log?.debug({ err }, 'CSV export: the batch read ahead failed after the client left'),
      );
    }
  }

  return {
    /** Runs that started in the range, by outcome, and runs queued in it. */
    async metrics(auth: RequestAuth, range: ReportRange): Promise<Metrics> {
      const counts = await q.rangeCounts(db, scopeOf(auth), decomposeRange(range.from, range.to));
      return {
        completedWorkflowCount: counts.succeeded,
        failedWorkflowCount: counts.faulted,
        scheduledWorkflowCount: counts.queued,
      };
    },

    /** The workflows run most in the range (every outcome), most first, at most `limit`. */
    async useCounts(auth: RequestAuth, query: UseCountsQuery): Promise<UseCount[]> {
      return q.useCounts(db, scopeOf(auth), decomposeRange(query.from, query.to), query.limit);
    },

    /** Executed time of each whole day of `tz` from the day holding `from` to the day holding `to`. */
    async totalHours(auth: RequestAuth, query: TotalHoursQuery): Promise<ExecutionTimeEntry[]> {
      const days = zonedDays(query.from, query.to, query.tz);
      const bounds = [...days.map((day) => day.start), days.at(-1)!.end];
      const perDay = await q.executedTimePerDay(db, scopeOf(auth), bounds);
      return days.map((day, index) => ({ date: day.date, executionTime: perDay[index]! }));
    },

    exceptions: (auth: RequestAuth, query: ExecutionLogListQuery) => list('exceptions', auth, query, toException),
    logs: (auth: RequestAuth, query: ExecutionLogListQuery) => list('logs', auth, query, toLog),

    /** The list as a CSV download: every row it matches (no page, size or limit). */
    csv(kind: LogListKind, auth: RequestAuth, query: ExecutionLogListQuery) {
      return {
        fileName: `${kind === 'logs' ? 'execution-logs' : 'exceptions'}-${query.from}-${query.to}.csv`,
        columns: kind === 'logs' ? LOG_CSV_COLUMNS : EXCEPTION_CSV_COLUMNS,
        rows: allRows(filterOf(kind, auth, query), directionOf(query)),
      };
    },
  };
}
