import type { ActivityKind } from '@opsdeck/contract/activity';
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { selectRows } from '../../db/client';
import { activitySpans, schedules, statuses, tasks, users } from '../../db/schema';
import { inScope } from '../../platform/tenancy';
import type { WidgetInput } from './widget-input';

/**
 * The raw reads of the span widgets (span-widgets.ts; docs/monitor.md, "The widgets"): spans of
 * the people of a scope through `(tenant_id, kind, started_at)` or `(tenant_id, user_id, kind,
 * started_at)`, schedules through `(tenant_id, schedule_start)`. A span lasts at most 24 hours
 * (the ingest refuses longer ones), so one that overlaps a time starts at most a day before it;
 * open spans are read whatever their start (the partial index of open spans).
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
const SPAN_MAX_MS = 86_400_000;

export type RawSpan = {
  id: string;
  userId: number;
  kind: ActivityKind;
  start: number;
  /** null while open. */
  end: number | null;
  application: string | null;
  statusId: number | null;
  taskId: number | null;
};

export type RawSchedule = { id: number; userId: number; start: number; end: number };

/** A person's full name, as every answer gives it. */
export const fullName = sql<string>`${users.firstName} || ' ' || ${users.lastName}`;

const spanColumns = {
  id: activitySpans.id,
  userId: activitySpans.userId,
  kind: activitySpans.kind,
  start: activitySpans.startedAt,
  end: activitySpans.endedAt,
  application: activitySpans.application,
  statusId: activitySpans.statusId,
  taskId: activitySpans.taskId,
};

/** The spans' rows of the scope with a person, of those people when a filter is set. */
export function spanPeople(input: WidgetInput): SQL | undefined {
  return and(
    inScope(activitySpans.tenantId, input.scope),
    input.people === null ? isNotNull(activitySpans.userId) : inArray(activitySpans.userId, [...input.people]),
  );
}

/** Spans of a kind that overlap [from, to) (to excluded), open ones up to `now`. */
export function overlapping(from: number, to: number, now: number): SQL {
  return and(
    lt(activitySpans.startedAt, to),
    or(gte(activitySpans.startedAt, from - SPAN_MAX_MS), isNull(activitySpans.endedAt)),
    or(gt(activitySpans.endedAt, from), and(isNull(activitySpans.endedAt), sql`${now}::bigint > ${from}::bigint`)),
  ) as SQL;
}

/**
 * The spans of the input's people (or of `people`, a condition on them) that `where` keeps, in
 * `order` (ties by id), at most `limit`: every raw read of spans alone goes through here.
 */
async function selectSpans(
  input: WidgetInput,
  where: SQL | undefined,
  order: SQL,
  limit?: number,
  people: SQL | undefined = spanPeople(input),
): Promise<RawSpan[]> {
  if (input.people !== null && input.people.length === 0) return [];
  const query = input.db
    .select(spanColumns)
    .from(activitySpans)
    .where(and(people, where))
    .orderBy(order, asc(activitySpans.id));
  return (limit === undefined ? await query : await query.limit(limit)) as RawSpan[];
}

/** The spans of the kinds that overlap [from, to), of the input's people. */
export function readSpans(
  input: WidgetInput,
  kinds: readonly ActivityKind[],
  from: number,
  to: number,
): Promise<RawSpan[]> {
  return selectSpans(
    input,
    and(inArray(activitySpans.kind, [...kinds]), overlapping(from, to, input.now)),
    asc(activitySpans.startedAt),
  );
}

/** The schedules (not archived) of the input's people that overlap [from, to). */
export async function readSchedules(input: WidgetInput, from: number, to: number): Promise<RawSchedule[]> {
  if (input.people !== null && input.people.length === 0) return [];
  return input.db
    .select({ id: schedules.id, userId: schedules.userId, start: schedules.scheduleStart, end: schedules.scheduleEnd })
    .from(schedules)
    .where(schedulesOverlapping(input, from, to))
    .orderBy(asc(schedules.scheduleStart), asc(schedules.id));
}

/** The full names of users of the input's scope, by id. */
export async function namesOf(input: WidgetInput, ids: Iterable<number>): Promise<Map<number, string>> {
  const list = [...new Set(ids)];
  if (list.length === 0) return new Map();
  const rows = await input.db
    .select({ id: users.id, name: fullName })
    .from(users)
    .where(and(inArray(users.id, list), inScope(users.tenantId, input.scope)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

export type StatusInfo = { name: string; threshold: number };

/** The statuses named, by id (a status removed since is missing). */
export async function statusesOf(input: WidgetInput, ids: Iterable<number>): Promise<Map<number, StatusInfo>> {
  const list = [...new Set(ids)];
  if (list.length === 0) return new Map();
  const rows = await input.db
    .select({ id: statuses.id, name: statuses.name, threshold: statuses.threshold })
    .from(statuses)
    .where(and(inArray(statuses.id, list), inScope(statuses.tenantId, input.scope)));
  return new Map(rows.map((row) => [row.id, { name: row.name, threshold: row.threshold }]));
}

/** The tasks named, by id. */
export async function taskNamesOf(input: WidgetInput, ids: Iterable<number>): Promise<Map<number, string>> {
  const list = [...new Set(ids)];
  if (list.length === 0) return new Map();
  const rows = await input.db
    .select({ id: tasks.id, name: tasks.name })
    .from(tasks)
    .where(and(inArray(tasks.id, list), inScope(tasks.tenantId, input.scope)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * The newest spans of a kind that start in [from, to] (at most `limit`), optionally only those
 * lasting at least `minMs` (open ones up to now): the action timeline's and alerts' reads.
 */
export function newestStarts(
  input: WidgetInput,
  kind: ActivityKind,
  from: number,
  to: number,
  limit: number,
  minMs = 0,
): Promise<RawSpan[]> {
  return selectSpans(
    input,
    and(
      eq(activitySpans.kind, kind),
      gte(activitySpans.startedAt, from),
      lte(activitySpans.startedAt, to),
      minMs > 0
        ? sql`coalesce(${activitySpans.endedAt}, ${input.now}::bigint) - ${activitySpans.startedAt} >= ${minMs}::bigint`
        : undefined,
    ),
    desc(activitySpans.startedAt),
    limit,
  );
}

/** The open spans of a kind that start in [from, to], oldest first (through the partial index of open spans). */
export function openSpans(input: WidgetInput, kind: ActivityKind, from: number, to: number): Promise<RawSpan[]> {
  return selectSpans(
    input,
    and(
      eq(activitySpans.kind, kind),
      isNull(activitySpans.endedAt),
      gte(activitySpans.startedAt, from),
      lte(activitySpans.startedAt, to),
    ),
    asc(activitySpans.startedAt),
  );
}

/**
 * The newest session ends in [from, to] (at most `limit`). First among the sessions starting in
 * the last two days of the range only: every session starting before that ended less than a day
 * after its start, so when the last of those found ends later than that, none can be newer; else
 * (a quiet range, a short one) among every session that may end in the range.
 */
export async function newestSessionEnds(input: WidgetInput, from: number, to: number, limit: number) {
  const ends = (startFrom: number) =>
    selectSpans(
      input,
      and(
        eq(activitySpans.kind, 'session'),
        gte(activitySpans.startedAt, startFrom),
        lte(activitySpans.startedAt, to),
        gte(activitySpans.endedAt, from),
        lte(activitySpans.endedAt, to),
      ),
      desc(activitySpans.endedAt),
      limit,
    );
  const near = to - 2 * SPAN_MAX_MS;
  if (near > from - SPAN_MAX_MS) {
    const recent = await ends(near);
    const last = recent[limit - 1];
    if (last?.end != null && last.end >= near + SPAN_MAX_MS) return recent;
  }
  return ends(from - SPAN_MAX_MS);
}

/**
 * The application timeline's people: the first `limit` of the scope's people (by name, then id)
 * with an `app` span overlapping [from, to), each found by one probe of the person's index.
 */
export async function appTimelinePeople(input: WidgetInput, from: number, to: number, limit: number) {
  if (input.people !== null && input.people.length === 0) return [];
  return input.db
    .select({ id: users.id, name: fullName })
    .from(users)
    .where(
      and(
        inScope(users.tenantId, input.scope),
        input.people === null ? undefined : inArray(users.id, [...input.people]),
        sql`exists (${input.db
          .select({ one: sql`1` })
          .from(activitySpans)
          .where(
            and(
              inScope(activitySpans.tenantId, input.scope),
              eq(activitySpans.userId, users.id),
              eq(activitySpans.kind, 'app'),
              overlapping(from, to, input.now),
            ),
          )})`,
      ),
    )
    .orderBy(sql`${fullName} collate "C"`, asc(users.id))
    .limit(limit);
}

/** A person's latest `limit` app spans overlapping [from, to), newest first. */
export function latestAppSpans(input: WidgetInput, userId: number, from: number, to: number, limit: number) {
  return selectSpans(
    input,
    and(eq(activitySpans.kind, 'app'), overlapping(from, to, input.now)),
    desc(activitySpans.startedAt),
    limit,
    and(inScope(activitySpans.tenantId, input.scope), eq(activitySpans.userId, userId)),
  );
}

/**
 * The schedules (not archived) of the input's people that start in [from, to] and have ended by
 * now (`schedule_end <= now`), each with its arrival: the earliest start of the person's sessions
 * that start before the schedule ends and either start at most `earlyMs` before its start or are
 * still going on at its start (open ones up to now); null when none does. Found by the database
 * schedule by schedule, so no session is sent over: one probe of `(tenant_id, user_id, kind,
 * started_at)` from a day before those `earlyMs` (a closed session lasts a day at most) to the
 * schedule's end, stopping at the first session that counts (in a company's month, the two of the
 * day before and the arrival); and the person's oldest open session, which is going on at every
 * start since its own once now has passed it (a younger open session is either in the probe's
 * range or counts only if the oldest does).
 */
function arrivals(input: WidgetInput, from: number, to: number, earlyMs: number): SQL {
  const person = and(
    eq(activitySpans.tenantId, schedules.tenantId),
    eq(activitySpans.userId, schedules.userId),
    eq(activitySpans.kind, 'session'),
  );
  const early = sql`${schedules.scheduleStart} - ${earlyMs}::bigint`;
  const now = sql`${input.now}::bigint`;
  return sql`
    select ${schedules.id} as id, ${schedules.userId} as user_id, ${schedules.scheduleStart} as start,
      ${schedules.scheduleEnd} as "end",
      least(
        (select ${activitySpans.startedAt} from ${activitySpans}
          where ${person} and ${activitySpans.startedAt} >= ${early} - ${SPAN_MAX_MS}::bigint
            and ${activitySpans.startedAt} < ${schedules.scheduleEnd}
            and (${activitySpans.startedAt} >= ${early}
              or greatest(${activitySpans.startedAt}, coalesce(${activitySpans.endedAt}, ${now})) > ${schedules.scheduleStart})
          order by ${activitySpans.startedAt} limit 1),
        case when oldest.started_at < ${schedules.scheduleEnd}
          and (oldest.started_at >= ${early} or greatest(oldest.started_at, ${now}) > ${schedules.scheduleStart})
          then oldest.started_at end
      ) as arrival
    from ${schedules}
    left join (
      select ${activitySpans.tenantId} as tenant_id, ${activitySpans.userId} as user_id,
        min(${activitySpans.startedAt}) as started_at
      from ${activitySpans}
      where ${and(spanPeople(input), eq(activitySpans.kind, 'session'), isNull(activitySpans.endedAt), lt(activitySpans.startedAt, input.now))}
      group by ${activitySpans.tenantId}, ${activitySpans.userId}
    ) as oldest on oldest.tenant_id = ${schedules.tenantId} and oldest.user_id = ${schedules.userId}
    where ${schedulesOverlapping(input, from, to + 1)} and ${schedules.scheduleStart} >= ${from}::bigint
      and ${schedules.scheduleEnd} <= ${now}`;
}

export type ScheduleArrival = RawSchedule & { arrival: number | null };

/** The schedules starting in [from, to] that have ended by now, each with its arrival (`arrivals`), by start then id. */
export async function scheduleArrivals(
  input: WidgetInput,
  from: number,
  to: number,
  earlyMs: number,
): Promise<ScheduleArrival[]> {
  if (input.people !== null && input.people.length === 0) return [];
  const rows = await withoutJit(input, (db) =>
    selectRows<{ id: number; user_id: number; start: string; end: string; arrival: string | null }>(
      db,
      sql`select * from (${arrivals(input, from, to, earlyMs)}) as schedule order by start, id`,
    ),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    userId: Number(row.user_id),
    start: Number(row.start),
    end: Number(row.end),
    arrival: row.arrival === null ? null : Number(row.arrival),
  }));
}

/**
 * Per person, the schedules starting in [from, to] that have ended by now (`arrivals`): how many,
 * with an arrival, late (arriving more than `graceMs` after the start) and the time late, summed by
 * the database. (`offset 0` keeps the arrivals a subquery of their own: pulled up, each use of
 * `arrival` would look its sessions up again.)
 */
export async function attendanceTotals(input: WidgetInput, from: number, to: number, earlyMs: number, graceMs: number) {
  if (input.people !== null && input.people.length === 0) return [];
  const late = sql`arrival - start > ${graceMs}::bigint`;
  const rows = await withoutJit(input, (db) =>
    selectRows<{
      user_id: number;
      scheduled: string | number;
      present: string | number;
      late: string | number;
      late_ms: string | number;
    }>(
      db,
      sql`select user_id, count(*) as scheduled, count(arrival) as present, count(*) filter (where ${late}) as late,
          coalesce(sum(arrival - start) filter (where ${late}), 0) as late_ms
        from (${arrivals(input, from, to, earlyMs)} offset 0) as schedule group by user_id`,
    ),
  );
  return rows.map((row) => ({
    userId: Number(row.user_id),
    scheduledDays: Number(row.scheduled),
    presentDays: Number(row.present),
    lateDays: Number(row.late),
    absentDays: Number(row.scheduled) - Number(row.present),
    lateMs: Number(row.late_ms),
  }));
}

/**
 * Per person, the idle time inside their schedules (not archived, overlapping [from, to)), cut
 * to [from, scheduledTo) and open idle spans up to now: summed by the database, so a month of a
 * company's idle spans is not sent over. An agent reports idle only while its person is signed
 * in, so this is the idle time inside the sessions too. Each schedule counts on its own (two that
 * overlap count their common idle time twice). A closed idle span counts for a schedule when it
 * starts from a day before the schedule's start (a span lasts a day at most); an open one
 * whatever its start.
 *
 * A closed idle span meets the schedules by a hash join on the person and the UTC day it starts
 * in, each schedule listed under the days from the one before its start to the one after (a shift
 * lasts a day at most; the days after those, for a longer one, by a join of their own): a span is
 * compared with the one or two schedules of its days, not with every schedule of its person's
 * month (7,000,000 comparisons for a company's month). The open ones (one a person at most) meet
 * every schedule of their person. Read from two days before `from` (schedules start from a day
 * before it), without JIT and without a merge join: the planner's estimate of the join preferred
 * sorting both sides, four times the hash join's time.
 */
export async function idleInSchedules(
  input: WidgetInput,
  from: number,
  to: number,
  scheduledTo: number,
): Promise<Map<number, number>> {
  if (input.people !== null && input.people.length === 0) return new Map();
  const day = sql`${SPAN_MAX_MS}::bigint`;
  const until = Math.min(to, scheduledTo);
  const scheduled = sql`select ${schedules.tenantId} as tenant_id, ${schedules.userId} as user_id,
      ${schedules.scheduleStart} as start, ${schedules.scheduleEnd} as "end",
      greatest(${schedules.scheduleStart}, ${from}::bigint) as a, least(${schedules.scheduleEnd}, ${scheduledTo}::bigint) as b,
      (${schedules.scheduleStart} - ${day}) / ${day} as first_day
    from ${schedules} where ${schedulesOverlapping(input, from, to)}`;
  const idle = (open: boolean) => sql`select ${activitySpans.tenantId} as tenant_id, ${activitySpans.userId} as user_id,
      ${activitySpans.startedAt} as a, ${open ? sql`${input.now}::bigint` : activitySpans.endedAt} as b
    from ${activitySpans}
    where ${and(
      spanPeople(input),
      eq(activitySpans.kind, 'idle'),
      lt(activitySpans.startedAt, until),
      open ? isNull(activitySpans.endedAt) : isNotNull(activitySpans.endedAt),
      open ? undefined : gte(activitySpans.startedAt, from - 2 * SPAN_MAX_MS),
    )}`;
  // The pairs that count, written so that no index serves them (a probe of the person's index per
  // schedule reads a whole day of idle spans before it: slower than the hash join).
  const counts = (closed: boolean) => sql`idle.tenant_id = schedule.tenant_id and idle.user_id = schedule.user_id
    and schedule."end" - idle.a > 0 and schedule.b - idle.a > 0 and idle.b - schedule.a > 0
    ${closed ? sql`and idle.a - schedule.start >= -${day}` : sql``}`;
  const common = sql`least(idle.b, schedule.b) - greatest(idle.a, schedule.a)`;
  const rows = await withoutJit(
    input,
    (db) =>
      selectRows<{ user_id: number; ms: string | number }>(
        db,
        sql`select user_id, sum(ms) as ms from (
          select schedule.user_id, ${common} as ms
          from (
            select scheduled.*, scheduled.first_day + next.days as day
            from (${scheduled}) as scheduled, (values (0::bigint), (1::bigint), (2::bigint)) as next(days)
            where scheduled.first_day + next.days <= (scheduled.b - 1) / ${day}
          ) as schedule
          join (${idle(false)}) as idle on idle.a / ${day} = schedule.day and ${counts(true)}
          union all
          select schedule.user_id, ${common} as ms
          from (${scheduled}) as schedule join (${idle(false)}) as idle
            on idle.a / ${day} > schedule.first_day + 2 and ${counts(true)}
          where (schedule.b - 1) / ${day} > schedule.first_day + 2
          union all
          select schedule.user_id, ${common} as ms
          from (${scheduled}) as schedule join (${idle(true)}) as idle on ${counts(false)}
        ) as pairs
        group by user_id`,
      ),
    sql`set local enable_mergejoin = off`,
  );
  return new Map(rows.map((row) => [Number(row.user_id), Number(row.ms)]));
}

/**
 * Runs a widget's big aggregate with PostgreSQL's JIT off (in a transaction of its own, `set
 * local`), and any other setting given: compiling its expressions took 30–90 ms of each such
 * query on a company's month, more than it could save.
 */
async function withoutJit<T>(
  input: WidgetInput,
  read: (db: WidgetInput['db']) => Promise<T>,
  ...settings: SQL[]
): Promise<T> {
  return input.db.transaction(async (tx) => {
    for (const setting of [sql`set local jit = off`, ...settings]) await tx.execute(setting);
    return read(tx);
  });
}

/** The schedules (not archived) of the input's people that overlap [from, to). */
function schedulesOverlapping(input: WidgetInput, from: number, to: number): SQL {
  return and(
    inScope(schedules.tenantId, input.scope),
    input.people === null ? undefined : inArray(schedules.userId, [...input.people]),
    eq(schedules.archived, false),
    // A schedule is one shift of a day: it starts at most a day before it ends.
    gte(schedules.scheduleStart, from - SPAN_MAX_MS),
    lt(schedules.scheduleStart, to),
    gt(schedules.scheduleEnd, from),
  ) as SQL;
}

/**
 * Per person with a schedule (not archived) or a session overlapping [from, to): the scheduled
 * time (the union of the schedules cut to [from, scheduledTo)) and the signed-in time inside it
 * (the union of the sessions cut to [from, to), open ones up to now, intersected with it): summed
 * by the database, so a month of a company's sessions is not sent over.
 *
 * One sort of both lists per person by start: each interval adds to a union what it reaches past
 * every end before it (`b − max(a, the latest end so far)`, at least 0), so one pass gives the
 * length of the schedules' union, of the sessions' and of both together, and the intersection is
 * `scheduled + signed in − both` (no join of the two unions).
 */
export async function signedInSchedules(
  input: WidgetInput,
  from: number,
  to: number,
  scheduledTo: number,
): Promise<Map<number, { scheduledMs: number; signedInMs: number }>> {
  if (input.people !== null && input.people.length === 0) return new Map();
  const scheduled = sql`select ${schedules.userId} as user_id,
      greatest(${schedules.scheduleStart}, ${from}::bigint) as a, least(${schedules.scheduleEnd}, ${scheduledTo}::bigint) as b,
      true as scheduled
    from ${schedules} where ${schedulesOverlapping(input, from, to)}`;
  // `overlapping`, as two reads: those starting from a day before `from` (a range of the index, not
  // every session of every month kept before `to`) and the open ones older than that.
  const sessionsWhere = (recent: boolean) =>
    and(
      spanPeople(input),
      eq(activitySpans.kind, 'session'),
      overlapping(from, to, input.now),
      recent
        ? gte(activitySpans.startedAt, from - SPAN_MAX_MS)
        : and(isNull(activitySpans.endedAt), lt(activitySpans.startedAt, from - SPAN_MAX_MS)),
    );
  const sessionsOf = (recent: boolean) => sql`select ${activitySpans.userId} as user_id,
      greatest(${activitySpans.startedAt}, ${from}::bigint) as a,
      least(greatest(${activitySpans.startedAt}, coalesce(${activitySpans.endedAt}, ${input.now}::bigint)), ${to}::bigint) as b,
      false as scheduled
    from ${activitySpans} where ${sessionsWhere(recent)}`;
  const sessions = sql`${sessionsOf(true)} union all ${sessionsOf(false)}`;
  const adds = (before: string) => sql.raw(`greatest(0, b - greatest(a, coalesce(${before}, a)))`);
  const rows = await withoutJit(input, (db) =>
    selectRows<{
      user_id: number;
      scheduled_ms: string | number;
      signed_ms: string | number;
      both_ms: string | number;
    }>(
      db,
      sql`select user_id,
        coalesce(sum(${adds('scheduled_before')}) filter (where scheduled), 0) as scheduled_ms,
        coalesce(sum(${adds('signed_before')}) filter (where not scheduled), 0) as signed_ms,
        coalesce(sum(${adds('any_before')}), 0) as both_ms
      from (
        select user_id, a, b, scheduled,
          max(b) filter (where scheduled) over earlier as scheduled_before,
          max(b) filter (where not scheduled) over earlier as signed_before,
          max(b) over earlier as any_before
        from (${scheduled} union all ${sessions}) as intervals
        window earlier as (partition by user_id order by a, b rows between unbounded preceding and 1 preceding)
      ) as ordered
      group by user_id`,
    ),
  );
  return new Map(
    rows.map((row) => {
      const scheduledMs = Number(row.scheduled_ms);
      return [
        Number(row.user_id),
        { scheduledMs, signedInMs: scheduledMs + Number(row.signed_ms) - Number(row.both_ms) },
      ];
    }),
  );
}

export type RawBreak = RawSpan & { statusName: string; threshold: number };

/** A span's length: up to its end, or up to now while open (never below 0). */
const lengthUpTo = (now: number) =>
  sql`greatest(${activitySpans.startedAt}, coalesce(${activitySpans.endedAt}, ${now}::bigint)) - ${activitySpans.startedAt}`;

/**
 * The status spans that start in [from, to] whose status (of the span's company) has a threshold
 * above 0, joined to it: the breaks of break_adherence and alerts.
 */
function breaksFrom(input: WidgetInput, from: number, to: number) {
  return and(
    spanPeople(input),
    eq(activitySpans.kind, 'status'),
    gte(activitySpans.startedAt, from),
    lte(activitySpans.startedAt, to),
  );
}

const breakStatus = and(
  eq(statuses.id, activitySpans.statusId),
  eq(statuses.tenantId, activitySpans.tenantId),
  gt(statuses.threshold, 0),
);

/**
 * The breaks that start in [from, to] (status spans whose status, of the span's company, has a
 * threshold above 0), with the status's name and threshold in minutes; `overOnly`: only those
 * longer than their threshold (open ones up to now).
 */
export async function readBreaks(input: WidgetInput, from: number, to: number, overOnly = false): Promise<RawBreak[]> {
  if (input.people !== null && input.people.length === 0) return [];
  const length = lengthUpTo(input.now);
  const rows = await input.db
    .select({ ...spanColumns, statusName: statuses.name, threshold: statuses.threshold })
    .from(activitySpans)
    .innerJoin(statuses, breakStatus)
    .where(
      and(
        breaksFrom(input, from, to),
        overOnly ? sql`${length} > ${statuses.threshold}::bigint * ${MINUTE_MS}::bigint` : undefined,
      ),
    )
    .orderBy(asc(activitySpans.startedAt), asc(activitySpans.id));
  return rows as RawBreak[];
}

/**
 * Per person, the breaks that start in [from, to], those over their threshold and the time over
 * (open ones up to now): summed by the database, so a month of a company's breaks is not sent over.
 */
export async function breakTotals(input: WidgetInput, from: number, to: number) {
  if (input.people !== null && input.people.length === 0) return [];
  const over = sql`greatest(0, ${lengthUpTo(input.now)} - ${statuses.threshold}::bigint * ${MINUTE_MS}::bigint)`;
  return input.db
    .select({
      userId: sql<number>`${activitySpans.userId}`.mapWith(Number),
      breaks: sql<number>`count(*)`.mapWith(Number),
      overThreshold: sql<number>`count(*) filter (where ${over} > 0)`.mapWith(Number),
      overMs: sql<number>`coalesce(sum(${over}), 0)`.mapWith(Number),
    })
    .from(activitySpans)
    .innerJoin(statuses, breakStatus)
    .where(breaksFrom(input, from, to))
    .groupBy(activitySpans.userId);
}
