import type { ActivityKind } from '@opsdeck/contract/activity';
import { and, eq, gte, inArray, isNotNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { selectRows } from '../../db/client';
import { activityDailyRollups, activityRollups, activitySpans, statuses, tasks, users } from '../../db/schema';
import { inScope } from '../../platform/tenancy';
import { BUCKET_MS, DAY_MS } from '../execution-logs/queries';
import { decomposeRange, type Span, type ZonedDay, zonedDays } from '../reports/ranges';
import { taskTimes } from './task-productivity';
import { dayIndexOf, type WidgetHandlers, type WidgetInput } from './widget-input';

/**
 * The nine widgets read from the rollups (docs/monitor.md, "The widgets"): whole UTC days from
 * activity_daily_rollups, whole 15-minute buckets from activity_rollups, and from activity_spans
 * the sub-bucket ends of the range and the open spans (counted up to now), all clipped to
 * [from, to]. Without filters the company's rows (person 0); with them the people's rows.
 */

/**
 * Time of one kind and item: a rollup row (summed by the database over what the read does not
 * keep apart), or a clipped piece of a raw span. `weight` is −1 for a bucket taken back out of a
 * nearest UTC day (application_duration), `tag` the zoned day a term belongs to (0 otherwise).
 */
type Slice = {
  from: number;
  to: number;
  person: number;
  kind: ActivityKind;
  item: string;
  ms: number;
  starts: number;
  tag: number;
};

/** Whole UTC days or whole 15-minute buckets added (weight 1) or taken out (−1) for a tag. */
type Term = Span & { weight: 1 | -1; tag: number };

/** What a read covers: whole UTC days, whole buckets, and the sub-bucket raw pieces (each once). */
type ReadPlan = { days: Term[]; buckets: Term[]; raw: Span[] };

type ReadOptions = {
  kinds: readonly ActivityKind[];
  /**
   * Read whole UTC days from the daily rollups (false: 15-minute rows only, for hours), or an
   * explicit plan (application_duration's zoned days).
   */
  daily: boolean | ReadPlan;
  /** One row a person (person_id ≠ 0) even without filters: who had the time, not only how much. */
  perPerson: boolean;
  /**
   * Keep the rollup rows' times apart (hours, days); otherwise the database sums them per kind
   * and item (and person with `perPerson`), and a row's `from`/`to` are its read's bounds.
   */
  byTime?: boolean;
};

const DAY_BEFORE = DAY_MS;
/** The long spans' partial index's length (migration 0015): 15 minutes. */
const LONG_SPAN_MS = 900_000;
/** The tag of raw slices: placed by their time, not by a term. */
const RAW_TAG = -1;

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

/** The plan of [from, to]: decomposeRange's pieces, days from the daily rollups or not. */
function rangePlan(from: number, to: number, daily: boolean): ReadPlan {
  const pieces = decomposeRange(from, to);
  const term = (span: Span): Term => ({ ...span, weight: 1, tag: 0 });
  const buckets = pieces.buckets.map(term);
  const days: Term[] = [];
  if (pieces.days) (daily ? days : buckets).push(term(pieces.days));
  return { days, buckets, raw: pieces.raw };
}

/** Sorted, merged spans (the union a rollup read covers). */
function mergedSpans(terms: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const term of [...terms].sort((a, b) => a.from - b.from)) {
    const last = merged.at(-1);
    if (last && term.from <= last.to) last.to = Math.max(last.to, term.to);
    else merged.push({ from: term.from, to: term.to });
  }
  return merged;
}

/** The terms a rollup row at `at` (a day or a bucket) falls in. */
function termsAt(terms: readonly Term[], width: number) {
  // Every row read is inside a term: with one weight and one tag, any term stands for them all.
  if (terms.every((term) => term.weight === 1 && term.tag === terms[0]!.tag)) {
    const only = [terms[0]!];
    return () => only;
  }
  const byStart = new Map<number, Term[]>();
  for (const term of terms) {
    for (let at = term.from; at < term.to; at += width) {
      const list = byStart.get(at);
      if (list) list.push(term);
      else byStart.set(at, [term]);
    }
  }
  return (at: number) => byStart.get(at) ?? [];
}

/**
 * The rows of one rollup table over the terms, summed by the database over what the read does not
 * keep apart (people without `perPerson`, times without `byTime`), then weighted and tagged.
 */
async function readRollup(
  input: WidgetInput,
  options: ReadOptions,
  table: typeof activityRollups | typeof activityDailyRollups,
  terms: readonly Term[],
  width: number,
): Promise<Slice[]> {
  if (terms.length === 0) return [];
  const time = 'bucketStart' in table ? table.bucketStart : table.dayStart;
  // Times are kept apart only when asked, or when a row's term decides its weight or its day.
  const byTime = options.byTime || terms.some((term) => term.weight !== 1 || term.tag !== terms[0]!.tag) || false;
  const keepPerson = options.perPerson || false;
  const at = byTime ? sql<number>`${time}` : sql<number>`0`;
  const person = keepPerson ? sql<number>`${table.personId}` : sql<number>`0`;
  const rows = await input.db
    .select({
      at: at.mapWith(Number),
      person: person.mapWith(Number),
      kind: table.kind,
      item: table.item,
      ms: sql<number>`sum(${table.durationMs})`.mapWith(Number),
      starts: sql<number>`sum(${table.starts})`.mapWith(Number),
    })
    .from(table)
    .where(
      and(
        inScope(table.tenantId, input.scope),
        personCondition(table.personId, input, options.perPerson),
        inSpans(time, mergedSpans(terms)),
        inArray(table.kind, [...options.kinds]),
      ),
    )
    .groupBy(...(byTime ? [time] : []), ...(keepPerson ? [table.personId] : []), table.kind, table.item);
  const slices: Slice[] = [];
  const termsOf = termsAt(terms, width);
  const only = {
    from: Math.min(...terms.map((term) => term.from)),
    to: Math.max(...terms.map((term) => term.to)),
    tag: terms[0]!.tag,
  };
  for (const row of rows) {
    const base = { person: row.person, kind: row.kind, item: row.item };
    if (!byTime) {
      slices.push({ ...base, from: only.from, to: only.to, ms: row.ms, starts: row.starts, tag: only.tag });
      continue;
    }
    for (const term of termsOf(row.at)) {
      slices.push({
        ...base,
        from: row.at,
        to: row.at + width,
        ms: term.weight * row.ms,
        starts: term.weight * row.starts,
        tag: term.tag,
      });
    }
  }
  return slices;
}

/**
 * Every slice of time of `kinds` in [from, to] (to included: the range ends at to + 1), and the
 * spans started in it (`starts`, as slices of no length at the span's start).
 */
async function readSlices(input: WidgetInput, options: ReadOptions): Promise<Slice[]> {
  const { db, scope, from, to, now } = input;
  const end = to + 1;
  if (input.people && input.people.length === 0) return [];
  const plan = typeof options.daily === 'object' ? options.daily : rangePlan(from, to, options.daily);
  const kinds = [...options.kinds];

  // The raw spans: closed ones over the sub-bucket ends, open ones over the whole range, and the
  // starts in the ends. Without filters every span (a key with no person counts for the company);
  // per person only the spans of a person.
  const span = activitySpans;
  const personOfSpan = input.people
    ? inArray(span.userId, [...input.people])
    : options.perPerson
      ? isNotNull(span.userId)
      : undefined;
  // A closed span overlapping a piece (under 15 minutes) started at most 15 minutes before it, or
  // lasts 15 minutes or more and started at most a day before it: the partial index of long spans
  // (activity_spans_tenant_kind_long_idx) finds those without reading a whole day of app switches.
  const rawOverlap = plan.raw.flatMap((piece) => [
    and(
      lt(span.startedAt, piece.to),
      sql`${span.endedAt} > ${piece.from}`,
      gte(span.startedAt, piece.from - BUCKET_MS),
    ),
    and(
      lt(span.startedAt, piece.to),
      sql`${span.endedAt} > ${piece.from}`,
      gte(span.startedAt, piece.from - DAY_BEFORE),
      sql`${span.endedAt} - ${span.startedAt} >= ${sql.raw(String(LONG_SPAN_MS))}`,
    ),
  ]);
  const [daily, buckets, rows] = await Promise.all([
    readRollup(input, options, activityDailyRollups, plan.days, DAY_MS),
    readRollup(input, options, activityRollups, plan.buckets, BUCKET_MS),
    db
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
      ),
  ]);
  const slices: Slice[] = [...daily, ...buckets];
  const openEnd = Math.min(end, now);
  for (const row of rows) {
    const base = { person: row.person ?? 0, kind: row.kind, item: itemOf(row), tag: RAW_TAG };
    const started = Number(row.startedAt);
    if (row.endedAt === null) {
      const clipFrom = Math.max(started, from);
      if (openEnd > clipFrom) slices.push({ ...base, from: clipFrom, to: openEnd, ms: openEnd - clipFrom, starts: 0 });
    } else {
      const ended = Number(row.endedAt);
      for (const piece of plan.raw) {
        const clipFrom = Math.max(started, piece.from);
        const clipTo = Math.min(ended, piece.to);
        if (clipTo > clipFrom) slices.push({ ...base, from: clipFrom, to: clipTo, ms: clipTo - clipFrom, starts: 0 });
      }
    }
    if (plan.raw.some((piece) => started >= piece.from && started < piece.to)) {
      slices.push({ ...base, from: started, to: started, ms: 0, starts: 1 });
    }
  }
  return slices;
}

const floorTo = (value: number, unit: number) => value - (((value % unit) + unit) % unit);
const ceilTo = (value: number, unit: number) => floorTo(value + unit - 1, unit);

/**
 * The plan of [from, to] cut into the days of a zone (docs/reports.md, "Executed time per day"),
 * each term tagged with its day's index: a day's whole buckets are its nearest UTC day from the
 * daily rollups plus and minus the 15-minute buckets between the two midnights (when that reads
 * fewer buckets than the day has), else its buckets; its sub-bucket ends are raw.
 */
function zonedDaysPlan(from: number, to: number, days: readonly ZonedDay[]): ReadPlan {
  const plan: ReadPlan = { days: [], buckets: [], raw: [] };
  const end = to + 1;
  days.forEach((day, tag) => {
    const a = Math.max(day.start, from);
    const b = Math.min(day.end, end);
    if (b <= a) return;
    const first = ceilTo(a, BUCKET_MS);
    const last = floorTo(b, BUCKET_MS);
    if (first >= last) {
      plan.raw.push({ from: a, to: b });
      return;
    }
    if (a < first) plan.raw.push({ from: a, to: first });
    if (last < b) plan.raw.push({ from: last, to: b });
    const utcDay = Math.round(first / DAY_MS) * DAY_MS;
    const edges = Math.abs(first - utcDay) + Math.abs(last - (utcDay + DAY_MS));
    if (utcDay >= last || utcDay + DAY_MS <= first || edges >= last - first) {
      plan.buckets.push({ from: first, to: last, weight: 1, tag });
      return;
    }
    plan.days.push({ from: utcDay, to: utcDay + DAY_MS, weight: 1, tag });
    if (first < utcDay) plan.buckets.push({ from: first, to: utcDay, weight: 1, tag });
    if (first > utcDay) plan.buckets.push({ from: utcDay, to: first, weight: -1, tag });
    if (last > utcDay + DAY_MS) plan.buckets.push({ from: utcDay + DAY_MS, to: last, weight: 1, tag });
    if (last < utcDay + DAY_MS) plan.buckets.push({ from: last, to: utcDay + DAY_MS, weight: -1, tag });
  });
  return plan;
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

/** The first `limit` entries, most first by `value`, ties by name (code-point order), then id. */
function ranked<T>(
  entries: readonly T[],
  value: (entry: T) => number,
  name: (entry: T) => string,
  id: (entry: T) => number = () => 0,
  limit = Number.POSITIVE_INFINITY,
): T[] {
  return [...entries].sort((a, b) => value(b) - value(a) || byName(name(a), name(b)) || id(a) - id(b)).slice(0, limit);
}

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
  return ranked(
    [...totals].flatMap(([item, total]) => {
      const status = names.get(Number(item));
      return status ? [{ statusId: Number(item), name: status.name, color: status.color, ...total }] : [];
    }),
    (status) => status.ms,
    (status) => status.name,
    (status) => status.statusId,
  );
}

/** The 10 applications with the most time (`ms`) or starts in the range, above 0, as [name, value]. */
async function topApplications(input: WidgetInput, by: 'ms' | 'starts') {
  const totals = totalsByItem(await readSlices(input, { kinds: ['app'], daily: true, perPerson: false }));
  return ranked(
    [...totals].map(([application, total]) => [application, total[by]] as const).filter(([, value]) => value > 0),
    ([, value]) => value,
    ([application]) => application,
    undefined,
    10,
  );
}

export type RollupWidgetDeps = {
  /** The keys with an agent connected now, on any instance (modules/events). */
  connectedAccounts: () => readonly number[];
};

export function createRollupWidgets(deps: RollupWidgetDeps): WidgetHandlers {
  return {
    async hourly_activity(input) {
      // The 15-minute rows summed per bucket by the database (a company's month is ~3,000 of them).
      const slices = await readSlices(input, {
        kinds: ['session', 'idle'],
        daily: false,
        perPerson: false,
        byTime: true,
      });
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
      return (await topApplications(input, 'ms')).map(([application, durationMs]) => ({ application, durationMs }));
    },

    async application_frequency(input) {
      return (await topApplications(input, 'starts')).map(([application, count]) => ({ application, count }));
    },

    async application_duration(input) {
      const days = zonedDays(input.from, input.to, input.tz);
      const slices = await readSlices(input, {
        kinds: ['app'],
        daily: zonedDaysPlan(input.from, input.to, days),
        perPerson: false,
      });
      const totals = [...totalsByItem(slices)].filter(([, total]) => total.ms > 0);
      if (totals.length === 0) return [];
      const top = ranked(
        totals,
        ([, total]) => total.ms,
        ([application]) => application,
        undefined,
        5,
      ).map(([application]) => application);
      const other = totals.length > 5;
      const perDay = days.map(() => new Map<string, number>(top.map((label) => [label, 0])));
      const otherPerDay = days.map(() => 0);
      const dayOf = dayIndexOf(days);
      const topSet = new Set(top);
      const add = (index: number, item: string, ms: number) => {
        if (topSet.has(item)) perDay[index]!.set(item, perDay[index]!.get(item)! + ms);
        else otherPerDay[index]! += ms;
      };
      for (const slice of slices) {
        if (slice.tag !== RAW_TAG) {
          add(slice.tag, slice.item, slice.ms);
          continue;
        }
        for (const piece of quarters(slice)) if (piece.ms !== 0) add(dayOf(piece.from), piece.item, piece.ms);
      }
      return days.flatMap((day, index) => [
        ...top.map((application) => ({ date: day.date, application, durationMs: perDay[index]!.get(application)! })),
        // The sum of the rest, flagged: an application may be named "Other" too.
        ...(other
          ? [{ date: day.date, application: 'Other', durationMs: otherPerDay[index]!, other: true as const }]
          : []),
      ]);
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
      return ranked(
        [...totals].flatMap(([item, total]) => {
          const name = names.get(Number(item));
          return name !== undefined && total.ms > 0 ? [{ taskId: Number(item), name, durationMs: total.ms }] : [];
        }),
        (task) => task.durationMs,
        (task) => task.name,
        (task) => task.taskId,
        10,
      );
    },

    async task_productivity(input) {
      // The overlap of task spans with session and idle spans is not in the rollups: activity_task_days.
      const perTask = await taskTimes(input);
      const names = await taskNames(input, [...perTask.keys()]);
      return ranked(
        [...perTask].flatMap(([taskId, total]) => {
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
        }),
        (task) => task.ms,
        (task) => task.name,
        (task) => task.taskId,
      ).map(({ ms: _ms, ...task }) => task);
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
