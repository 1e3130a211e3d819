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

/** The full names of users, by id. */
export async function namesOf(input: WidgetInput, ids: Iterable<number>): Promise<Map<number, string>> {
  const list = [...new Set(ids)];
  if (list.length === 0) return new Map();
  const rows = await input.db.select({ id: users.id, name: fullName }).from(users).where(inArray(users.id, list));
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
 * Per person, the idle time inside their schedules (not archived, overlapping [from, to)), cut
 * to [from, scheduledTo) and open idle spans up to now: summed by the database, so a month of a
 * company's idle spans is not sent over. An agent reports idle only while its person is signed
 * in, so this is the idle time inside the sessions too.
 */
export async function idleInSchedules(
  input: WidgetInput,
  from: number,
  to: number,
  scheduledTo: number,
): Promise<Map<number, number>> {
  if (input.people !== null && input.people.length === 0) return new Map();
  const idleEnd = sql`coalesce(${activitySpans.endedAt}, ${input.now}::bigint)`;
  const inside = sql`greatest(0, least(${idleEnd}, ${schedules.scheduleEnd}, ${scheduledTo}::bigint)
    - greatest(${activitySpans.startedAt}, ${schedules.scheduleStart}, ${from}::bigint))`;
  const rows = await input.db
    .select({ userId: schedules.userId, ms: sql<number>`sum(${inside})`.mapWith(Number) })
    .from(schedules)
    .innerJoin(
      activitySpans,
      and(
        eq(activitySpans.tenantId, schedules.tenantId),
        eq(activitySpans.userId, schedules.userId),
        eq(activitySpans.kind, 'idle'),
        lt(activitySpans.startedAt, schedules.scheduleEnd),
        lt(activitySpans.startedAt, to),
        or(
          gte(activitySpans.startedAt, sql`${schedules.scheduleStart} - ${SPAN_MAX_MS}::bigint`),
          isNull(activitySpans.endedAt),
        ),
        sql`${idleEnd} > ${schedules.scheduleStart}`,
      ),
    )
    .where(schedulesOverlapping(input, from, to))
    .groupBy(schedules.userId);
  return new Map(rows.map((row) => [row.userId, row.ms]));
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

/** The disjoint intervals covering a relation's (user_id, a, b) rows with b > a, per person (islands). */
const islands = (rows: SQL) => sql`
  select user_id, min(a) as a, max(b) as b from (
    select user_id, a, b, sum(case when before is null or a > before then 1 else 0 end)
      over (partition by user_id order by a, b rows unbounded preceding) as island
    from (
      select user_id, a, b,
        max(b) over (partition by user_id order by a, b rows between unbounded preceding and 1 preceding) as before
      from (${rows}) as r where b > a
    ) as ordered
  ) as numbered group by user_id, island`;

/**
 * Per person with a schedule (not archived) or a session overlapping [from, to): the scheduled
 * time (the union of the schedules cut to [from, scheduledTo)) and the signed-in time inside it
 * (the union of the sessions cut to [from, to), open ones up to now, intersected with it): summed
 * by the database from the unions of each, so a month of a company's sessions is not sent over.
 */
export async function signedInSchedules(
  input: WidgetInput,
  from: number,
  to: number,
  scheduledTo: number,
): Promise<Map<number, { scheduledMs: number; signedInMs: number }>> {
  if (input.people !== null && input.people.length === 0) return new Map();
  const scheduled = sql`select ${schedules.userId} as user_id,
      greatest(${schedules.scheduleStart}, ${from}::bigint) as a, least(${schedules.scheduleEnd}, ${scheduledTo}::bigint) as b
    from ${schedules} where ${schedulesOverlapping(input, from, to)}`;
  const sessions = sql`select ${activitySpans.userId} as user_id, greatest(${activitySpans.startedAt}, ${from}::bigint) as a,
      least(greatest(${activitySpans.startedAt}, coalesce(${activitySpans.endedAt}, ${input.now}::bigint)), ${to}::bigint) as b
    from ${activitySpans}
    where ${and(spanPeople(input), eq(activitySpans.kind, 'session'), overlapping(from, to, input.now))}`;
  const rows = await selectRows<{ user_id: number; scheduled_ms: string | number; signed_in_ms: string | number }>(
    input.db,
    sql`with scheduled as (${scheduled}), sessions as (${sessions}),
      people as (select user_id from scheduled union select user_id from sessions),
      scheduled_union as (${islands(sql`select * from scheduled`)}),
      sessions_union as (${islands(sql`select * from sessions`)}),
      scheduled_ms as (select user_id, sum(b - a) as ms from scheduled_union group by user_id),
      signed_in_ms as (
        select session.user_id, sum(least(session.b, schedule.b) - greatest(session.a, schedule.a)) as ms
        from sessions_union as session
        join scheduled_union as schedule
          on schedule.user_id = session.user_id and schedule.a < session.b and session.a < schedule.b
        group by session.user_id
      )
    select people.user_id, coalesce(scheduled_ms.ms, 0) as scheduled_ms, coalesce(signed_in_ms.ms, 0) as signed_in_ms
    from people
    left join scheduled_ms on scheduled_ms.user_id = people.user_id
    left join signed_in_ms on signed_in_ms.user_id = people.user_id`,
  );
  return new Map(
    rows.map((row) => [
      Number(row.user_id),
      { scheduledMs: Number(row.scheduled_ms), signedInMs: Number(row.signed_in_ms) },
    ]),
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
