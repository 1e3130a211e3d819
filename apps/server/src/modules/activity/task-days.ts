import { type SQL, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { DAY_MS } from './queries';

/**
 * Task productivity per UTC day (activity_task_days; docs/monitor.md, "Task productivity"): how
 * much of each task's time was active (inside a session, outside idle) and idle. An overlap of
 * spans is not a sum of them, so the ingest cannot add it up as it does the rollups: it marks the
 * person-days whose session, idle or task spans changed (activity_task_days_stale, in the
 * transaction of the change), and `refreshTaskDays` recomputes them from the spans shortly after.
 * A reader takes the stale person-days, and those an open span reaches, from the spans instead.
 *
 * A person-day's key is the person, or minus the key's id for an agent whose key has no person;
 * person 0 holds the company's sum of the day.
 */

/** The kinds whose spans a task's productivity depends on. */
export const TASK_DAY_KINDS = ['session', 'idle', 'task'] as const;

/** The person-day key of a span: its person, or minus its key's id (a key without a person). */
export const personKeyOf = sql`coalesce(user_id, -account_id)`;

/** One session, idle or task span, as the computation reads it (times as numbers, end null while open). */
export type TaskDaySpan = {
  accountId: number | null;
  userId: number | null;
  kind: string;
  taskId: number | null;
  start: number;
  end: number | null;
};

export type TaskTime = { activeMs: number; idleMs: number; ms: number };

type Interval = [number, number];

/** Sorted, merged intervals. */
function union(intervals: Interval[]): Interval[] {
  const merged: Interval[] = [];
  for (const [a, b] of [...intervals].filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0])) {
    const last = merged.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** `whole` minus `minus`, both merged. */
function subtract(whole: Interval[], minus: Interval[]): Interval[] {
  const out: Interval[] = [];
  let first = 0;
  for (const [a, b] of whole) {
    // Both sorted: what ends before this interval ends before every later one.
    while (first < minus.length && minus[first]![1] <= a) first += 1;
    let at = a;
    for (let i = first; i < minus.length && minus[i]![0] < b; i += 1) {
      const [c, d] = minus[i]!;
      if (d <= at) continue;
      if (c > at) out.push([at, c]);
      at = Math.max(at, d);
    }
    if (at < b) out.push([at, b]);
  }
  return out;
}

/** The time [from, to) shares with sorted, disjoint intervals: from the first one ending after `from` (bisection). */
function overlapWith(from: number, to: number, merged: Interval[]) {
  let low = 0;
  let high = merged.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (merged[mid]![1] <= from) low = mid + 1;
    else high = mid;
  }
  let sum = 0;
  for (let i = low; i < merged.length && merged[i]![0] < to; i += 1) {
    sum += Math.max(0, Math.min(to, merged[i]![1]) - Math.max(from, merged[i]![0]));
  }
  return sum;
}

/**
 * Each task's time in [from, to) and its active and idle parts, added into `totals`: every span
 * cut to [from, to), open ones up to `now`; each agent's tasks against that agent's own sessions
 * and idle (a person on two machines is two agents).
 */
export function addTaskTimes(
  totals: Map<number, TaskTime>,
  spans: Iterable<TaskDaySpan>,
  from: number,
  to: number,
  now: number,
): Map<number, TaskTime> {
  type Agent = { sessions: Interval[]; idle: Interval[]; tasks: { taskId: number; at: Interval }[] };
  const agents = new Map<string, Agent>();
  for (const span of spans) {
    const a = Math.max(span.start, from);
    const b = span.end === null ? Math.min(to, now) : Math.min(span.end, to);
    if (b <= a) continue;
    const key = span.accountId !== null ? `a${span.accountId}` : `u${span.userId ?? ''}`;
    let agent = agents.get(key);
    if (!agent) {
      agent = { sessions: [], idle: [], tasks: [] };
      agents.set(key, agent);
    }
    if (span.kind === 'session') agent.sessions.push([a, b]);
    else if (span.kind === 'idle') agent.idle.push([a, b]);
    else if (span.kind === 'task' && span.taskId !== null) agent.tasks.push({ taskId: span.taskId, at: [a, b] });
  }
  for (const agent of agents.values()) {
    const idle = union(agent.idle);
    const active = subtract(union(agent.sessions), idle);
    for (const task of agent.tasks) {
      let total = totals.get(task.taskId);
      if (!total) {
        total = { activeMs: 0, idleMs: 0, ms: 0 };
        totals.set(task.taskId, total);
      }
      total.activeMs += overlapWith(task.at[0], task.at[1], active);
      total.idleMs += overlapWith(task.at[0], task.at[1], idle);
      total.ms += task.at[1] - task.at[0];
    }
  }
  return totals;
}

/** A person-day of a tenant: the person's key and the UTC day's start. */
export type PersonDay = { tenantId: string; personId: number; dayStart: number };

type SpanRow = {
  mark: number;
  account_id: number | null;
  user_id: number | null;
  company_id: number | null;
  kind: string;
  task_id: number | null;
  started_at: string | number;
  ended_at: string | number | null;
};

/**
 * The session, idle and task spans of each person-day (the person's, or the key's for a negative
 * key) that overlap its UTC day, tagged with the person-day's index; closed ones only unless
 * `openUpTo` is given (then open ones too, whatever their start, up to that time).
 */
export async function spansOfPersonDays(
  db: Executor,
  days: readonly PersonDay[],
  openUpTo?: number,
): Promise<(TaskDaySpan & { mark: number; companyId: number | null })[]> {
  if (days.length === 0) return [];
  // A closed span lasts a day at most: those of a person's day are one range of the index
  // (tenant_id, user_id, kind, started_at) a kind. An open one reaches from its start up to now:
  // those come from the open spans' partial index.
  const closed = sql`span.kind in ('session', 'idle', 'task')
    and span.started_at < mark.day_start + ${DAY_MS}::bigint
    and span.started_at >= mark.day_start - ${DAY_MS}::bigint and span.ended_at > mark.day_start`;
  const columns = sql.raw(
    'mark.index as mark, span.account_id, span.user_id, span.company_id, span.kind, span.task_id, span.started_at, span.ended_at',
  );
  const open =
    openUpTo === undefined
      ? sql``
      : sql`
    union all
    select ${columns} from mark join activity_spans as span
      on span.tenant_id = mark.tenant_id and span.ended_at is null and span.kind in ('session', 'idle', 'task')
        and coalesce(span.user_id, -span.account_id) = mark.person_id
        and span.started_at < mark.day_start + ${DAY_MS}::bigint and ${openUpTo}::bigint > mark.day_start`;
  const rows = await selectRows<SpanRow>(
    db,
    sql`
    with mark as (
      select * from ${unnestRows(days, PERSON_DAY)} with ordinality as mark(tenant_id, person_id, day_start, index)
    )
    select ${columns} from mark join activity_spans as span
      on span.tenant_id = mark.tenant_id and span.user_id = mark.person_id and ${closed}
    where mark.person_id > 0
    union all
    select ${columns} from mark join activity_spans as span
      on span.tenant_id = mark.tenant_id and span.user_id is null and span.account_id = -mark.person_id and ${closed}
    where mark.person_id < 0${open}`,
  );
  return rows.map((row) => ({
    mark: Number(row.mark) - 1,
    accountId: row.account_id === null ? null : Number(row.account_id),
    userId: row.user_id === null ? null : Number(row.user_id),
    companyId: row.company_id === null ? null : Number(row.company_id),
    kind: row.kind,
    taskId: row.task_id === null ? null : Number(row.task_id),
    start: Number(row.started_at),
    end: row.ended_at === null ? null : Number(row.ended_at),
  }));
}

/** `unnest(…)` of one array parameter a column: each row's values, cast to the column's type. */
export function unnestRows<T>(rows: readonly T[], columns: readonly (readonly [(row: T) => unknown, string])[]): SQL {
  return sql`unnest(${sql.join(
    columns.map(([value, type]) => sql`${sql.param(rows.map(value))}::${sql.raw(type)}[]`),
    sql`, `,
  )})`;
}

/** A person-day's key columns: tenant_id, person_id, day_start. */
export const PERSON_DAY = [
  [(day: PersonDay) => day.tenantId, 'uuid'],
  [(day: PersonDay) => day.personId, 'int'],
  [(day: PersonDay) => day.dayStart, 'bigint'],
] as const;

/** The advisory lock one refresh at a time holds, across instances (a number of our own). */
const REFRESH_LOCK = 7_341_017;

/**
 * Recomputes up to `limit` stale person-days from their closed spans, then the company rows of
 * their days, and unmarks those no change marked meanwhile (the version read is the version
 * removed). One refresh at a time across instances (an advisory lock; another instance's refresh
 * under way: nothing done here). Answers how many person-days were recomputed.
 */
export async function refreshTaskDays(db: Executor, limit = 2_000): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = await selectRows<{ held: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${REFRESH_LOCK}) as held`,
    );
    if (!lock?.held) return 0;
    const marks = (
      await selectRows<{ tenant_id: string; person_id: number; day_start: string | number; version: number }>(
        tx,
        // Locked now, in key order, skipping those a batch of spans holds (it is marking them again):
        // this never waits on the ingest, and the ingest waits on it only for the marks it took.
        sql`select tenant_id::text as tenant_id, person_id, day_start, version from activity_task_days_stale
            order by tenant_id, person_id, day_start limit ${limit} for update skip locked`,
      )
    ).map((row) => ({
      tenantId: row.tenant_id,
      personId: Number(row.person_id),
      dayStart: Number(row.day_start),
      version: Number(row.version),
    }));
    if (marks.length === 0) return 0;
    const spans = await spansOfPersonDays(tx, marks);
    const perMark = marks.map(() => ({ spans: [] as TaskDaySpan[], companyId: null as number | null }));
    for (const span of spans) {
      const entry = perMark[span.mark]!;
      entry.spans.push(span);
      entry.companyId ??= span.companyId;
    }
    const rows: (PersonDay & { companyId: number | null; taskId: number } & TaskTime)[] = [];
    for (const [index, mark] of marks.entries()) {
      const { spans: own, companyId } = perMark[index]!;
      const times = addTaskTimes(new Map(), own, mark.dayStart, mark.dayStart + DAY_MS, mark.dayStart);
      for (const [taskId, time] of times) rows.push({ ...mark, companyId, taskId, ...time });
    }
    const markKeys = unnestRows(marks, PERSON_DAY);
    await tx.execute(sql`delete from activity_task_days
      where (tenant_id, person_id, day_start) in (select * from ${markKeys})`);
    if (rows.length > 0)
      await tx.execute(sql`insert into activity_task_days
        (tenant_id, company_id, person_id, day_start, task_id, active_ms, idle_ms, task_ms)
        select * from ${unnestRows(rows, [
          ...PERSON_DAY.slice(0, 1),
          [(row) => row.companyId, 'int'],
          ...PERSON_DAY.slice(1),
          [(row) => row.taskId, 'int'],
          [(row) => row.activeMs, 'bigint'],
          [(row) => row.idleMs, 'bigint'],
          [(row) => row.ms, 'bigint'],
        ])}
        order by 1, 3, 4, 5`);
    // The company's rows of each day touched: the sum of its people's, summed again whole.
    const tenantDays = sql`select distinct tenant_id, day_start from ${markKeys} as mark(tenant_id, person_id, day_start)`;
    await tx.execute(sql`delete from activity_task_days
      where person_id = 0 and (tenant_id, day_start) in (${tenantDays})`);
    await tx.execute(sql`insert into activity_task_days
      (tenant_id, company_id, person_id, day_start, task_id, active_ms, idle_ms, task_ms)
      select tenant_id, max(company_id), 0, day_start, task_id, sum(active_ms), sum(idle_ms), sum(task_ms)
      from activity_task_days
      where person_id <> 0 and (tenant_id, day_start) in (${tenantDays})
      group by tenant_id, day_start, task_id
      order by 1, 4, 5`);
    await tx.execute(sql`delete from activity_task_days_stale
      where (tenant_id, person_id, day_start, version) in
        (select * from ${unnestRows(marks, [...PERSON_DAY, [(mark) => mark.version, 'int']])})`);
    return marks.length;
  });
}

/** Refreshes until no stale person-day is left (or another instance's refresh holds the lock). */
export async function refreshAllTaskDays(db: Executor, limit?: number): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await refreshTaskDays(db, limit);
    total += done;
    if (done === 0) return total;
  }
}

/**
 * Marks stale every person-day of the spans from `from` on (the rollups' rebuild, and the
 * migration that made the table), and forgets the computed rows of those days.
 */
export async function markAllTaskDaysStale(db: Executor, from: number): Promise<void> {
  const day = sql.raw(`${DAY_MS}::bigint`);
  await db.execute(
    sql`delete from activity_task_days where day_start >= ${from}::bigint - mod(${from}::bigint, ${day})`,
  );
  await db.execute(sql`
    insert into activity_task_days_stale (tenant_id, person_id, day_start)
    select distinct tenant_id, ${personKeyOf}, day
    from activity_spans, generate_series(started_at - mod(started_at, ${day}), ended_at - 1, ${day}) as day
    where started_at >= ${from}::bigint and kind in ('session', 'idle', 'task') and ended_at > started_at
      and ${personKeyOf} is not null
    order by 1, 2, 3
    on conflict (tenant_id, person_id, day_start) do update set version = activity_task_days_stale.version + 1`);
}
