import type { ActivityKind } from '@opsdeck/contract/activity';
import { and, asc, eq, gte, inArray, isNotNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { selectRows } from '../../db/client';
import { activityDailyRollups, activityRollups, activitySpans, statuses, tasks, users } from '../../db/schema';
import { inScope } from '../../platform/tenancy';
import { BUCKET_MS, DAY_MS } from '../execution-logs/queries';
import { decomposeRange, type Span, zonedDays } from '../reports/ranges';
import type { WidgetHandlers, WidgetInput } from './widget-input';

/**
 * The nine widgets read from the rollups (docs/monitor.md, "The widgets"): whole UTC days from
 * activity_daily_rollups, whole 15-minute buckets from activity_rollups, and from activity_spans
 * the sub-bucket ends of the range and the open spans (counted up to now), all clipped to
 * [from, to]. Without filters the company's rows (person 0); with them the people's rows.
 */

/** Time of one kind and item in [from, to): a rollup row, or a clipped piece of a raw span. */
type Slice = { from: number; to: number; person: number; kind: ActivityKind; item: string; ms: number; starts: number };

type ReadOptions = {
  kinds: readonly ActivityKind[];
  /** Read whole UTC days from the daily rollups (false: 15-minute rows only, for hours and zoned days). */
  daily: boolean;
  /** One row a person (person_id ≠ 0) even without filters: who had the time, not only how much. */
  perPerson: boolean;
};

const DAY_BEFORE = DAY_MS;

function inSpans(column: PgColumn, spans: readonly Span[]): SQL {
  if (spans.length === 0) return sql`false`;
  return or(...spans.map((span) => and(gte(column, span.from), lt(column, span.to))))!;
}

function itemOf(row: { kind: string; application: string | null; statusId: number | null; taskId: number | null }) {
  if (row.kind === 'app') return row.application ?? '';
  if (row.kind === 'status') return row.statusId === null ? '' : String(row.statusId);
  if (row.kind === 'task') return row.taskId === null ? '' : String(row.taskId);
  return '';
}

/** The rows of the persons a read covers: person 0, every person, or the filter's people. */
function personCondition(column: PgColumn, input: WidgetInput, perPerson: boolean): SQL {
  if (input.people) return input.people.length ? inArray(column, [...input.people]) : sql`false`;
  return perPerson ? ne(column, 0) : eq(column, 0);
}

/**
 * Every slice of time of `kinds` in [from, to] (to included: the range ends at to + 1), and the
 * spans started in it (`starts`, as slices of no length at the span's start).
 */
async function readSlices(input: WidgetInput, options: ReadOptions): Promise<Slice[]> {
  const { db, scope, from, to, now } = input;
  const end = to + 1;
  if (input.people && input.people.length === 0) return [];
  const pieces = decomposeRange(from, to);
  const bucketSpans = [...pieces.buckets];
  if (pieces.days && !options.daily) bucketSpans.push(pieces.days);
  const slices: Slice[] = [];
  const kinds = [...options.kinds];

  if (pieces.days && options.daily) {
    const daily = activityDailyRollups;
    const rows = await db
      .select({
        at: daily.dayStart,
        person: daily.personId,
        kind: daily.kind,
        item: daily.item,
        ms: daily.durationMs,
        starts: daily.starts,
      })
      .from(daily)
      .where(
        and(
          inScope(daily.tenantId, scope),
          personCondition(daily.personId, input, options.perPerson),
          inSpans(daily.dayStart, [pieces.days]),
          inArray(daily.kind, kinds),
        ),
      );
    for (const row of rows) {
      const at = Number(row.at);
      slices.push({ ...row, from: at, to: at + DAY_MS, ms: Number(row.ms), starts: Number(row.starts) });
    }
  }
  if (bucketSpans.length) {
    const bucket = activityRollups;
    const rows = await db
      .select({
        at: bucket.bucketStart,
        person: bucket.personId,
        kind: bucket.kind,
        item: bucket.item,
        ms: bucket.durationMs,
        starts: bucket.starts,
      })
      .from(bucket)
      .where(
        and(
          inScope(bucket.tenantId, scope),
          personCondition(bucket.personId, input, options.perPerson),
          inSpans(bucket.bucketStart, bucketSpans),
          inArray(bucket.kind, kinds),
        ),
      );
    for (const row of rows) {
      const at = Number(row.at);
      slices.push({ ...row, from: at, to: at + BUCKET_MS, ms: Number(row.ms), starts: Number(row.starts) });
    }
  }

  // The raw spans: closed ones over the sub-bucket ends, open ones over the whole range, and the
  // starts in the ends. Without filters every span (a key with no person counts for the company);
  // per person only the spans of a person.
  const span = activitySpans;
  const personOfSpan = input.people
    ? inArray(span.userId, [...input.people])
    : options.perPerson
      ? isNotNull(span.userId)
      : undefined;
  const rawOverlap = pieces.raw.map((piece) =>
    and(
      lt(span.startedAt, piece.to),
      sql`${span.endedAt} > ${piece.from}`,
      gte(span.startedAt, piece.from - DAY_BEFORE),
    ),
  );
  const rows = await db
    .select({
      person: span.userId,
      kind: span.kind,
      application: span.application,
      statusId: span.statusId,
      taskId: span.taskId,
      startedAt: span.startedAt,
      endedAt: span.endedAt,
    })
    .from(span)
    .where(
      and(
        inScope(span.tenantId, scope),
        inArray(span.kind, kinds),
        personOfSpan,
        or(and(sql`${span.endedAt} is null`, lt(span.startedAt, Math.min(end, now))), ...rawOverlap),
      ),
    );
  const openEnd = Math.min(end, now);
  for (const row of rows) {
    const base = { person: row.person ?? 0, kind: row.kind, item: itemOf(row) };
    const started = Number(row.startedAt);
    if (row.endedAt === null) {
      const clipFrom = Math.max(started, from);
      if (openEnd > clipFrom) slices.push({ ...base, from: clipFrom, to: openEnd, ms: openEnd - clipFrom, starts: 0 });
    } else {
      const ended = Number(row.endedAt);
      for (const piece of pieces.raw) {
        const clipFrom = Math.max(started, piece.from);
        const clipTo = Math.min(ended, piece.to);
        if (clipTo > clipFrom) slices.push({ ...base, from: clipFrom, to: clipTo, ms: clipTo - clipFrom, starts: 0 });
      }
    }
    if (pieces.raw.some((piece) => started >= piece.from && started < piece.to)) {
      slices.push({ ...base, from: started, to: started, ms: 0, starts: 1 });
    }
  }
  return slices;
}

/** A slice cut at the 15-minute boundaries (a rollup row of a bucket is one piece already). */
function* quarters(slice: Slice): Generator<Slice> {
  if (slice.to - slice.from <= 0 || (slice.from % BUCKET_MS === 0 && slice.to - slice.from === BUCKET_MS)) {
    yield slice;
    return;
  }
  let at = slice.from;
  while (at < slice.to) {
    const next = Math.min(slice.to, at - (((at % BUCKET_MS) + BUCKET_MS) % BUCKET_MS) + BUCKET_MS);
    yield { ...slice, from: at, to: next, ms: next - at, starts: at === slice.from ? slice.starts : 0 };
    at = next;
  }
}

/** The hour of the day of `timeZone` an instant is in, cached by 15-minute bucket. */
function hourOfDay(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: 'numeric' });
  const cache = new Map<number, number>();
  return (at: number) => {
    const key = at - (((at % BUCKET_MS) + BUCKET_MS) % BUCKET_MS);
    let hour = cache.get(key);
    if (hour === undefined) {
      hour = Number(format.format(key)) % 24;
      cache.set(key, hour);
    }
    return hour;
  };
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sums of ms and starts by item. */
function totalsByItem(slices: readonly Slice[]) {
  const totals = new Map<string, { ms: number; starts: number }>();
  for (const slice of slices) {
    const total = totals.get(slice.item) ?? { ms: 0, starts: 0 };
    total.ms += slice.ms;
    total.starts += slice.starts;
    totals.set(slice.item, total);
  }
  return totals;
}

async function statusNames(input: WidgetInput, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { name: string; color: string }>();
  const rows = await input.db
    .select({ id: statuses.id, name: statuses.name, color: statuses.color })
    .from(statuses)
    .where(and(inScope(statuses.tenantId, input.scope), inArray(statuses.id, [...ids])));
  return new Map(rows.map((row) => [row.id, { name: row.name, color: row.color }]));
}

async function taskNames(input: WidgetInput, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await input.db
    .select({ id: tasks.id, name: tasks.name })
    .from(tasks)
    .where(and(inScope(tasks.tenantId, input.scope), inArray(tasks.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row.name]));
}

const idItems = (totals: Map<string, unknown>) =>
  [...totals.keys()].filter((item) => /^[0-9]+$/.test(item)).map(Number);

/** Statuses (or tasks) by time, most first, ties by name then id; those that no longer exist are left out. */
async function statusTotals(input: WidgetInput) {
  const slices = await readSlices(input, { kinds: ['status'], daily: true, perPerson: false });
  const totals = totalsByItem(slices);
  const names = await statusNames(input, idItems(totals));
  return [...totals]
    .flatMap(([item, total]) => {
      const status = names.get(Number(item));
      return status ? [{ statusId: Number(item), name: status.name, color: status.color, ...total }] : [];
    })
    .sort((a, b) => b.ms - a.ms || byName(a.name, b.name) || a.statusId - b.statusId);
}

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
  for (const [a, b] of whole) {
    let at = a;
    for (const [c, d] of minus) {
      if (d <= at || c >= b) continue;
      if (c > at) out.push([at, c]);
      at = Math.max(at, d);
    }
    if (at < b) out.push([at, b]);
  }
  return out;
}

const overlapWith = (from: number, to: number, merged: Interval[]) =>
  merged.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(to, b) - Math.max(from, a)), 0);

export type RollupWidgetDeps = {
  /** The keys with an agent connected now, on any instance (modules/events). */
  connectedAccounts: () => readonly number[];
};

export function createRollupWidgets(deps: RollupWidgetDeps): WidgetHandlers {
  return {
    async hourly_activity(input) {
      const slices = await readSlices(input, { kinds: ['session', 'idle'], daily: false, perPerson: false });
      const hourOf = hourOfDay(input.tz);
      const session = new Array<number>(24).fill(0);
      const idle = new Array<number>(24).fill(0);
      for (const slice of slices) {
        for (const piece of quarters(slice)) {
          if (piece.ms === 0) continue;
          const hour = hourOf(piece.from);
          if (piece.kind === 'session') session[hour]! += piece.ms;
          else idle[hour]! += piece.ms;
        }
      }
      return session.map((ms, hour) => ({ hour, activeMs: Math.max(0, ms - idle[hour]!), idleMs: idle[hour]! }));
    },

    async top_applications(input) {
      const totals = totalsByItem(await readSlices(input, { kinds: ['app'], daily: true, perPerson: false }));
      return [...totals]
        .filter(([, total]) => total.ms > 0)
        .map(([application, total]) => ({ application, durationMs: total.ms }))
        .sort((a, b) => b.durationMs - a.durationMs || byName(a.application, b.application))
        .slice(0, 10);
    },

    async application_frequency(input) {
      const totals = totalsByItem(await readSlices(input, { kinds: ['app'], daily: true, perPerson: false }));
      return [...totals]
        .filter(([, total]) => total.starts > 0)
        .map(([application, total]) => ({ application, count: total.starts }))
        .sort((a, b) => b.count - a.count || byName(a.application, b.application))
        .slice(0, 10);
    },

    async application_duration(input) {
      const slices = await readSlices(input, { kinds: ['app'], daily: false, perPerson: false });
      const totals = [...totalsByItem(slices)]
        .filter(([, total]) => total.ms > 0)
        .sort((a, b) => b[1].ms - a[1].ms || byName(a[0], b[0]));
      if (totals.length === 0) return [];
      const top = totals.slice(0, 5).map(([application]) => application);
      const labels = totals.length > 5 ? [...top, 'Other'] : top;
      const days = zonedDays(input.from, input.to, input.tz);
      const perDay = days.map(() => new Map<string, number>(labels.map((label) => [label, 0])));
      const dayOf = (at: number) => {
        let low = 0;
        let high = days.length - 1;
        while (low < high) {
          const mid = (low + high + 1) >> 1;
          if (days[mid]!.start <= at) low = mid;
          else high = mid - 1;
        }
        return low;
      };
      const topSet = new Set(top);
      for (const slice of slices) {
        for (const piece of quarters(slice)) {
          if (piece.ms === 0) continue;
          const label = topSet.has(piece.item) ? piece.item : 'Other';
          const day = perDay[dayOf(piece.from)]!;
          day.set(label, day.get(label)! + piece.ms);
        }
      }
      return days.flatMap((day, index) =>
        labels.map((application) => ({ date: day.date, application, durationMs: perDay[index]!.get(application)! })),
      );
    },

    async top_statuses(input) {
      return (await statusTotals(input))
        .filter((status) => status.ms > 0)
        .map(({ statusId, name, color, ms }) => ({ statusId, name, color, durationMs: ms }));
    },

    async status_summary(input) {
      const [totals, perPerson] = await Promise.all([
        statusTotals(input),
        readSlices(input, { kinds: ['status'], daily: true, perPerson: true }),
      ]);
      const people = new Map<string, Set<number>>();
      for (const slice of perPerson) {
        if (slice.ms <= 0) continue;
        const set = people.get(slice.item) ?? new Set<number>();
        set.add(slice.person);
        people.set(slice.item, set);
      }
      return totals
        .filter((status) => status.ms > 0 || status.starts > 0)
        .map(({ statusId, name, color, ms, starts }) => ({
          statusId,
          name,
          color,
          people: people.get(String(statusId))?.size ?? 0,
          count: starts,
          durationMs: ms,
          averageMs: starts > 0 ? Math.round(ms / starts) : 0,
        }));
    },

    async top_tasks(input) {
      const totals = totalsByItem(await readSlices(input, { kinds: ['task'], daily: true, perPerson: false }));
      const names = await taskNames(input, idItems(totals));
      return [...totals]
        .flatMap(([item, total]) => {
          const name = names.get(Number(item));
          return name !== undefined && total.ms > 0 ? [{ taskId: Number(item), name, durationMs: total.ms }] : [];
        })
        .sort((a, b) => b.durationMs - a.durationMs || byName(a.name, b.name) || a.taskId - b.taskId)
        .slice(0, 10);
    },

    async task_productivity(input) {
      // The overlap of task spans with session and idle spans is not in the rollups: from the spans.
      if (input.people && input.people.length === 0) return [];
      const { from, now } = input;
      const end = input.to + 1;
      const span = activitySpans;
      const rows = await input.db
        .select({
          accountId: span.accountId,
          userId: span.userId,
          kind: span.kind,
          taskId: span.taskId,
          startedAt: span.startedAt,
          endedAt: span.endedAt,
        })
        .from(span)
        .where(
          and(
            inScope(span.tenantId, input.scope),
            inArray(span.kind, ['session', 'idle', 'task']),
            input.people ? inArray(span.userId, [...input.people]) : undefined,
            lt(span.startedAt, end),
            or(
              sql`${span.endedAt} is null`,
              and(sql`${span.endedAt} > ${from}`, gte(span.startedAt, from - DAY_BEFORE)),
            ),
          ),
        )
        .orderBy(asc(span.startedAt));
      type Agent = { sessions: Interval[]; idle: Interval[]; tasks: { taskId: number; at: Interval }[] };
      const agents = new Map<string, Agent>();
      for (const row of rows) {
        const key = row.accountId !== null ? `a${row.accountId}` : `u${row.userId ?? ''}`;
        const agent = agents.get(key) ?? { sessions: [], idle: [], tasks: [] };
        agents.set(key, agent);
        const a = Math.max(Number(row.startedAt), from);
        const b = row.endedAt === null ? Math.min(end, now) : Math.min(Number(row.endedAt), end);
        if (b <= a) continue;
        if (row.kind === 'session') agent.sessions.push([a, b]);
        else if (row.kind === 'idle') agent.idle.push([a, b]);
        else if (row.taskId !== null) agent.tasks.push({ taskId: row.taskId, at: [a, b] });
      }
      const perTask = new Map<number, { activeMs: number; idleMs: number; ms: number }>();
      for (const agent of agents.values()) {
        const idle = union(agent.idle);
        const active = subtract(union(agent.sessions), idle);
        for (const task of agent.tasks) {
          const total = perTask.get(task.taskId) ?? { activeMs: 0, idleMs: 0, ms: 0 };
          total.activeMs += overlapWith(task.at[0], task.at[1], active);
          total.idleMs += overlapWith(task.at[0], task.at[1], idle);
          total.ms += task.at[1] - task.at[0];
          perTask.set(task.taskId, total);
        }
      }
      const names = await taskNames(input, [...perTask.keys()]);
      return [...perTask]
        .flatMap(([taskId, total]) => {
          const name = names.get(taskId);
          if (name === undefined) return [];
          const sum = total.activeMs + total.idleMs;
          return [
            {
              taskId,
              name,
              activeMs: total.activeMs,
              idleMs: total.idleMs,
              productivity: sum > 0 ? total.activeMs / sum : null,
              ms: total.ms,
            },
          ];
        })
        .sort((a, b) => b.ms - a.ms || byName(a.name, b.name) || a.taskId - b.taskId)
        .map(({ ms: _ms, ...task }) => task);
    },

    async active_users(input) {
      const slices = await readSlices(input, { kinds: ['session', 'idle'], daily: true, perPerson: true });
      const activeByPerson = new Map<number, number>();
      for (const slice of slices) {
        if (slice.person === 0) continue;
        const sign = slice.kind === 'session' ? 1 : -1;
        activeByPerson.set(slice.person, (activeByPerson.get(slice.person) ?? 0) + sign * slice.ms);
      }
      const active = [...activeByPerson.values()].filter((ms) => ms > 0).length;
      const peopleCondition = input.people
        ? input.people.length
          ? inArray(users.id, [...input.people])
          : sql`false`
        : isNotNull(users.tenantId);
      const [counted] = await input.db
        .select({ total: sql<number>`count(*)::int` })
        .from(users)
        .where(and(inScope(users.tenantId, input.scope), peopleCondition, eq(users.archived, false)));
      const connected = [...deps.connectedAccounts()];
      let online = 0;
      if (connected.length) {
        const [row] = await selectRows<{ online: number | string }>(
          input.db,
          sql`select count(distinct person.id) as online
              from accounts as account
              join users as person on person.tenant_id = account.tenant_id
                and lower(person.email_address) = lower(regexp_replace(account.email_address, '^\\s+|\\s+$', '', 'g'))
              where account.id = any(${sql.param(connected)}::int[])
                and ${input.scope.kind === 'one' ? sql`person.tenant_id = ${input.scope.tenantId}` : sql`true`}
                and ${input.people ? (input.people.length ? sql`person.id = any(${sql.param([...input.people])}::int[])` : sql`false`) : sql`true`}`,
        );
        online = Number(row?.online ?? 0);
      }
      return { online, active, total: Number(counted?.total ?? 0) };
    },
  };
}
