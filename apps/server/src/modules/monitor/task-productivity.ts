import { and, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { selectRows } from '../../db/client';
import { activitySpans, activityTaskDays, activityTaskDaysStale } from '../../db/schema';
import { inScope } from '../../platform/tenancy';
import { DAY_MS } from '../activity/queries';
import {
  addTaskTimes,
  PERSON_DAY,
  type PersonDay,
  personKeyOf,
  spansOfPersonDays,
  TASK_DAY_KINDS,
  type TaskDaySpan,
  type TaskTime,
  unnestRows,
} from '../activity/task-days';
import type { WidgetInput } from './widget-input';

/**
 * Task productivity over a range (docs/monitor.md, "Task productivity"): the whole UTC days inside
 * it from activity_task_days (the company's rows, or the people's), except the person-days that
 * are stale or that an open span reaches, which are computed from their spans like the range's
 * two partial days at its ends. A day's rows hold the tasks' closed time cut at its midnights, so
 * the days and the ends add up to the range exactly.
 */
export async function taskTimes(input: WidgetInput): Promise<Map<number, TaskTime>> {
  const totals = new Map<number, TaskTime>();
  if (input.people && input.people.length === 0) return totals;
  const end = input.to + 1;
  const firstDay = Math.ceil(input.from / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(end / DAY_MS) * DAY_MS;
  if (firstDay >= lastDay)
    return addTaskTimes(totals, await spansOver(input, input.from, end), input.from, end, input.now);

  const live = await livePersonDays(input, firstDay, lastDay);
  const [cached, cachedLive, liveSpans, before, after] = await Promise.all([
    storedTotals(
      input,
      and(
        gte(activityTaskDays.dayStart, firstDay),
        lt(activityTaskDays.dayStart, lastDay),
        input.people ? inArray(activityTaskDays.personId, [...input.people]) : sql`${activityTaskDays.personId} = 0`,
      ),
    ),
    live.length === 0
      ? []
      : storedTotals(
          input,
          sql`(${activityTaskDays.tenantId}, ${activityTaskDays.personId}, ${activityTaskDays.dayStart}) in
            (select * from ${unnestRows(live, PERSON_DAY)})`,
        ),
    spansOfPersonDays(input.db, live, input.now),
    input.from < firstDay ? spansOver(input, input.from, firstDay) : [],
    lastDay < end ? spansOver(input, lastDay, end) : [],
  ]);
  for (const row of cached) add(totals, row, 1);
  for (const row of cachedLive) add(totals, row, -1);
  const perDay = live.map((): TaskDaySpan[] => []);
  for (const span of liveSpans) perDay[span.mark]!.push(span);
  for (const [index, day] of live.entries())
    addTaskTimes(totals, perDay[index]!, day.dayStart, day.dayStart + DAY_MS, input.now);
  addTaskTimes(totals, before, input.from, firstDay, input.now);
  return addTaskTimes(totals, after, lastDay, end, input.now);
}

function add(totals: Map<number, TaskTime>, row: { taskId: number } & TaskTime, sign: 1 | -1) {
  let total = totals.get(row.taskId);
  if (!total) {
    total = { activeMs: 0, idleMs: 0, ms: 0 };
    totals.set(row.taskId, total);
  }
  total.activeMs += sign * row.activeMs;
  total.idleMs += sign * row.idleMs;
  total.ms += sign * row.ms;
}

/** The stored rows `where` keeps in the input's scope, summed per task by the database. */
function storedTotals(input: WidgetInput, where: SQL | undefined) {
  const sum = (column: typeof activityTaskDays.activeMs) => sql<number>`sum(${column})`.mapWith(Number);
  return input.db
    .select({
      taskId: activityTaskDays.taskId,
      activeMs: sum(activityTaskDays.activeMs),
      idleMs: sum(activityTaskDays.idleMs),
      ms: sum(activityTaskDays.taskMs),
    })
    .from(activityTaskDays)
    .where(and(inScope(activityTaskDays.tenantId, input.scope), where))
    .groupBy(activityTaskDays.taskId);
}

/**
 * The person-days of [firstDay, lastDay) (of the input's people, or of everyone with a key) that
 * the stored rows do not hold as they are now: those marked stale, and each day from an open
 * span's start to now.
 */
async function livePersonDays(input: WidgetInput, firstDay: number, lastDay: number): Promise<PersonDay[]> {
  const day = sql.raw(`${DAY_MS}::bigint`);
  const stale = activityTaskDaysStale;
  const rows = await selectRows<{ tenant_id: string; person_id: number; day_start: string | number }>(
    input.db,
    sql`
    select ${stale.tenantId}::text as tenant_id, ${stale.personId} as person_id, ${stale.dayStart} as day_start
    from ${stale}
    where ${and(
      inScope(stale.tenantId, input.scope),
      gte(stale.dayStart, firstDay),
      lt(stale.dayStart, lastDay),
      input.people ? inArray(stale.personId, [...input.people]) : undefined,
    )}
    union
    select ${activitySpans.tenantId}::text, ${personKeyOf}, open_day
    from ${activitySpans},
      generate_series(greatest(${activitySpans.startedAt} - mod(${activitySpans.startedAt}, ${day}), ${firstDay}::bigint),
        least(${input.now}::bigint, ${lastDay - 1}::bigint), ${day}) as open_day
    where ${and(isNull(activitySpans.endedAt), inArray(activitySpans.kind, [...TASK_DAY_KINDS]), spanPeople(input))}`,
  );
  return rows.map((row) => ({
    tenantId: row.tenant_id,
    personId: Number(row.person_id),
    dayStart: Number(row.day_start),
  }));
}

/** The spans' rows of the scope with a person key, of the filter's people when it is set. */
function spanPeople(input: WidgetInput): SQL | undefined {
  return and(
    inScope(activitySpans.tenantId, input.scope),
    input.people ? inArray(activitySpans.userId, [...input.people]) : sql`${personKeyOf} is not null`,
  );
}

/** The session, idle and task spans of the input's people that overlap [from, to), open ones up to now. */
async function spansOver(input: WidgetInput, from: number, to: number): Promise<TaskDaySpan[]> {
  const span = activitySpans;
  const rows = await input.db
    .select({
      accountId: span.accountId,
      userId: span.userId,
      kind: span.kind,
      taskId: span.taskId,
      start: span.startedAt,
      end: span.endedAt,
    })
    .from(span)
    .where(
      and(
        spanPeople(input),
        inArray(span.kind, [...TASK_DAY_KINDS]),
        lt(span.startedAt, to),
        // A span lasts a day at most: one overlapping `from` started at most a day before it.
        or(isNull(span.endedAt), and(sql`${span.endedAt} > ${from}`, gte(span.startedAt, from - DAY_MS))),
      ),
    );
  return rows.map((row) => ({ ...row, start: Number(row.start), end: row.end === null ? null : Number(row.end) }));
}
