import type { WidgetAnswer } from '@opsdeck/contract/monitor';
import { DAY_MS } from '../activity/queries';
import { zonedDays } from '../reports/ranges';
import {
  appTimelinePeople,
  attendanceTotals,
  breakTotals,
  HOUR_MS,
  idleInSchedules,
  latestAppSpans,
  MINUTE_MS,
  namesOf,
  newestSessionEnds,
  newestStarts,
  openSpans,
  type RawSchedule,
  type RawSpan,
  readBreaks,
  readSchedules,
  readSpans,
  scheduleArrivals,
  signedInSchedules,
  statusesOf,
  taskNamesOf,
} from './span-queries';
import { dayIndexOf, type WidgetHandlers, type WidgetInput } from './widget-input';

/**
 * The widgets read from the spans themselves and the schedules (docs/monitor.md, "The widgets"):
 * login hours, attendance, utilization, breaks, the action and application timelines, alerts.
 * Every span is clipped to the range [from, to + 1); an open span counts up to `now`; spans
 * without a person never count; people are ordered by name, then id.
 */

/** A session starting this long before a schedule's start still counts for it (attendance). */
export const ATTENDANCE_EARLY_MS = 4 * HOUR_MS;
/** Arriving more than this after the schedule's start is late. */
export const LATE_GRACE_MS = 5 * MINUTE_MS;
/** Idle spans the action timeline shows: this long or longer. */
export const TIMELINE_IDLE_MS = 10 * MINUTE_MS;
/** An `idle_long` alert: this much idle time inside a schedule. */
export const ALERT_IDLE_MS = 30 * MINUTE_MS;
export const TIMELINE_LIMIT = 50;
export const ALERTS_LIMIT = 50;
export const APP_TIMELINE_PEOPLE = 20;
export const APP_TIMELINE_SPANS = 500;

type Interval = [number, number];

/** Sorted, disjoint, non-empty intervals covering the same time. */
function union(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter(([a, b]) => a < b).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: Interval[] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** The intersection of two unions. */
function intersect(left: readonly Interval[], right: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const a = Math.max(left[i]![0], right[j]![0]);
    const b = Math.min(left[i]![1], right[j]![1]);
    if (a < b) out.push([a, b]);
    if (left[i]![1] < right[j]![1]) i++;
    else j++;
  }
  return out;
}

const length = (intervals: readonly Interval[]) => intervals.reduce((sum, [a, b]) => sum + (b - a), 0);

/** A span's end: its own, or `now` while open (never before its start). */
const endOf = (span: RawSpan, now: number) => Math.max(span.start, span.end ?? now);

/** A span clipped to [from, to), or null when nothing of it is inside. */
function clip(span: RawSpan, from: number, to: number, now: number): Interval | null {
  const a = Math.max(span.start, from);
  const b = Math.min(endOf(span, now), to);
  return a < b ? [a, b] : null;
}

const byPerson = <T extends { userId: number }>(items: readonly T[]) => {
  const map = new Map<number, T[]>();
  for (const item of items) {
    const list = map.get(item.userId);
    if (list) list.push(item);
    else map.set(item.userId, [item]);
  }
  return map;
};

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: { name: string; userId: number }, b: { name: string; userId: number }) =>
  compareText(a.name, b.name) || a.userId - b.userId;
/** Newest first, then name, id and kind. */
const newestFirst = (
  a: { at: number; name: string; userId: number; kind: string },
  b: { at: number; name: string; userId: number; kind: string },
) => b.at - a.at || byName(a, b) || compareText(a.kind, b.kind);

const minutes = (ms: number) => Math.round(ms / MINUTE_MS);

/** The range's end, excluded. */
const rangeEnd = (input: WidgetInput) => input.to + 1;

/** One schedule's attendance: absent, or present with the first session's start and the time late (0 on time). */
export type ScheduleAttendance = RawSchedule & { arrival: number | null; lateMs: number };

/**
 * The schedules that start in the range and have ended by now, each with its attendance: the
 * sessions that count are those starting before the schedule ends and either starting at most
 * 4 hours before its start or still going on at its start; the first of them is the arrival.
 * None: absent. Arrival more than 5 minutes after the start: late by arrival − start.
 */
async function attendance(input: WidgetInput): Promise<ScheduleAttendance[]> {
  // Each schedule's arrival found by the database (span-queries.ts, `arrivals`): no session is sent over.
  const ended = await scheduleArrivals(input, input.from, input.to, ATTENDANCE_EARLY_MS);
  return ended.map((schedule) => {
    const lateMs =
      schedule.arrival !== null && schedule.arrival - schedule.start > LATE_GRACE_MS
        ? schedule.arrival - schedule.start
        : 0;
    return { ...schedule, lateMs };
  });
}

/** The breaks starting in the range over their threshold: their length (up to now), threshold and excess. */
async function breaksOver(input: WidgetInput) {
  return (await readBreaks(input, input.from, input.to, true)).map((span) => {
    const durationMs = endOf(span, input.now) - span.start;
    const thresholdMs = span.threshold * MINUTE_MS;
    return {
      span,
      status: { name: span.statusName, threshold: span.threshold },
      durationMs,
      thresholdMs,
      overMs: Math.max(0, durationMs - thresholdMs),
    };
  });
}

/** The first window of alerts read back from the range's end (doubled while too few are found). */
const ALERT_WINDOW_MS = 2 * DAY_MS;
/** Filters of this many people or fewer read their alerts over the whole range at once. */
const ALERT_FEW_PEOPLE = 20;
/** How long after its start a schedule, break or closed idle span can raise its alert, at most. */
const ALERT_REACH_MS = DAY_MS;

type Alert = {
  at: number;
  userId: number;
  name: string;
  kind: 'late' | 'absent' | 'break_over' | 'idle_long';
  message: string;
};

/**
 * The newest alerts (at most 50) of the schedules, breaks and idle spans that start in
 * [from, input.to], and of the open idle spans of the whole range.
 */
async function alertsFrom(input: WidgetInput, from: number): Promise<Alert[]> {
  const window = { ...input, from };
  const [schedules, breakList, longIdle, openIdle] = await Promise.all([
    attendance(window),
    breaksOver(window),
    newestStarts(input, 'idle', from, input.to, 10_000, ALERT_IDLE_MS),
    from > input.from ? openSpans(input, 'idle', input.from, from - 1) : [],
  ]);
  const idleList = [...longIdle, ...openIdle.filter((span) => input.now - span.start >= ALERT_IDLE_MS)];
  const alerts: Omit<Alert, 'name'>[] = [];
  for (const schedule of schedules) {
    if (schedule.arrival === null)
      alerts.push({
        at: schedule.start,
        userId: schedule.userId,
        kind: 'absent',
        message: 'Absent: no sign-in for the schedule',
      });
    else if (schedule.lateMs > 0)
      alerts.push({
        at: schedule.arrival,
        userId: schedule.userId,
        kind: 'late',
        message: `Late by ${minutes(schedule.lateMs)} min`,
      });
  }
  for (const item of breakList) {
    if (item.overMs <= 0) continue;
    alerts.push({
      at: item.span.start + item.thresholdMs,
      userId: item.span.userId,
      kind: 'break_over',
      message: `${item.status.name} over its ${item.status.threshold} min threshold by ${minutes(item.overMs)} min`,
    });
  }
  if (idleList.length > 0) {
    const idleFrom = Math.min(...idleList.map((span) => span.start));
    const idleTo = Math.max(...idleList.map((span) => endOf(span, input.now)));
    const scheduleOf = byPerson(
      await readSchedules({ ...input, people: [...new Set(idleList.map((span) => span.userId))] }, idleFrom, idleTo),
    );
    for (const span of idleList) {
      const inside = intersect(
        [[span.start, endOf(span, input.now)]],
        union((scheduleOf.get(span.userId) ?? []).map((schedule): Interval => [schedule.start, schedule.end])),
      );
      const insideMs = length(inside);
      if (insideMs < ALERT_IDLE_MS) continue;
      alerts.push({
        at: inside[0]![0],
        userId: span.userId,
        kind: 'idle_long',
        message: `Idle for ${minutes(insideMs)} min during the schedule`,
      });
    }
  }
  return newestNamed(input, alerts, ALERTS_LIMIT);
}

/** The rows with their person's full name ('' for a person removed since). */
async function named<T extends { userId: number }>(
  input: WidgetInput,
  rows: readonly T[],
): Promise<(T & { name: string })[]> {
  const names = await namesOf(
    input,
    rows.map((row) => row.userId),
  );
  return rows.map((row) => ({ ...row, name: names.get(row.userId) ?? '' }));
}

/** Events with their person's full name, newest first (then name, id, kind), at most `limit`. */
async function newestNamed<T extends { at: number; userId: number; kind: string }>(
  input: WidgetInput,
  events: readonly T[],
  limit: number,
): Promise<(T & { name: string })[]> {
  return (await named(input, events)).sort(newestFirst).slice(0, limit);
}

export const spanWidgets: WidgetHandlers = {
  async employee_login_hours(input) {
    const sessions = await readSpans(input, ['session'], input.from, rangeEnd(input));
    const names = await namesOf(
      input,
      sessions.map((span) => span.userId),
    );
    const days = zonedDays(input.from, input.to, input.tz);
    const dayOf = dayIndexOf(days);
    const rows: WidgetAnswer<'employee_login_hours'> = [];
    for (const [userId, all] of byPerson(sessions)) {
      // Each day looks only at the sessions that may reach into it, not at the person's month.
      const candidates = new Map<number, RawSpan[]>();
      for (const span of all) {
        for (let index = dayOf(span.start); index <= dayOf(endOf(span, input.now)); index += 1) {
          const list = candidates.get(index);
          if (list) list.push(span);
          else candidates.set(index, [span]);
        }
      }
      for (const [index, spans] of candidates) {
        const day = days[index]!;
        const from = Math.max(day.start, input.from);
        const to = Math.min(day.end, rangeEnd(input));
        const pieces = spans.flatMap((span) => {
          const piece = clip(span, from, to, input.now);
          // Still signed in: an open session that this day (and range) does not cut.
          return piece ? [{ piece, open: span.end === null && endOf(span, input.now) <= to }] : [];
        });
        if (pieces.length === 0) continue;
        const lastEnd = Math.max(...pieces.map(({ piece }) => piece[1]));
        const signedIn = pieces.some(({ piece, open }) => open && piece[1] === lastEnd);
        rows.push({
          userId,
          name: names.get(userId) ?? '',
          date: day.date,
          firstLogin: Math.min(...pieces.map(({ piece }) => piece[0])),
          lastLogout: signedIn ? null : lastEnd,
          loggedMs: length(union(pieces.map(({ piece }) => piece))),
        });
      }
    }
    return rows.sort((a, b) => byName(a, b) || compareText(a.date, b.date));
  },

  async attendance_and_tardiness(input) {
    // attendance()'s schedules counted and summed per person by the database.
    const totals = await attendanceTotals(input, input.from, input.to, ATTENDANCE_EARLY_MS, LATE_GRACE_MS);
    return (await named(input, totals))
      .sort(byName)
      .map(({ userId, name, scheduledDays, presentDays, lateDays, absentDays, lateMs }) => ({
        userId,
        name,
        scheduledDays,
        presentDays,
        lateDays,
        absentDays,
        lateMs,
      }));
  },

  async employee_utilization(input) {
    const end = rangeEnd(input);
    // Scheduled time counts up to now: a schedule's future cannot have been used yet.
    const scheduledTo = Math.min(end, input.now);
    const [times, idle] = await Promise.all([
      signedInSchedules(input, input.from, end, scheduledTo),
      idleInSchedules(input, input.from, end, scheduledTo),
    ]);
    const names = await namesOf(input, times.keys());
    const rows = [...times].map(([userId, { scheduledMs, signedInMs }]) => {
      const idleMs = Math.min(idle.get(userId) ?? 0, signedInMs);
      const activeMs = signedInMs - idleMs;
      return {
        userId,
        name: names.get(userId) ?? '',
        activeMs,
        idleMs,
        scheduledMs,
        utilization: scheduledMs > 0 ? activeMs / scheduledMs : null,
      };
    });
    return rows.sort(byName);
  },

  async break_adherence(input) {
    const totals = await breakTotals(input, input.from, input.to);
    return (await named(input, totals))
      .sort(byName)
      .map(({ userId, name, breaks, overThreshold, overMs }) => ({ userId, name, breaks, overThreshold, overMs }));
  },

  async action_timeline(input) {
    const [signIns, signOuts, statusSpans, taskSpans, idle] = await Promise.all([
      newestStarts(input, 'session', input.from, input.to, TIMELINE_LIMIT),
      newestSessionEnds(input, input.from, input.to, TIMELINE_LIMIT),
      newestStarts(input, 'status', input.from, input.to, TIMELINE_LIMIT),
      newestStarts(input, 'task', input.from, input.to, TIMELINE_LIMIT),
      newestStarts(input, 'idle', input.from, input.to, TIMELINE_LIMIT, TIMELINE_IDLE_MS),
    ]);
    const [statusNames, taskNames] = await Promise.all([
      statusesOf(
        input,
        statusSpans.flatMap((span) => span.statusId ?? []),
      ),
      taskNamesOf(
        input,
        taskSpans.flatMap((span) => span.taskId ?? []),
      ),
    ]);
    const events = [
      ...signIns.map((span) => ({ at: span.start, userId: span.userId, kind: 'sign_in', label: 'Signed in' })),
      ...signOuts.map((span) => ({ at: span.end!, userId: span.userId, kind: 'sign_out', label: 'Signed out' })),
      ...statusSpans.map((span) => ({
        at: span.start,
        userId: span.userId,
        kind: 'status',
        label: statusNames.get(span.statusId ?? -1)?.name ?? 'Unknown status',
      })),
      ...taskSpans.map((span) => ({
        at: span.start,
        userId: span.userId,
        kind: 'task',
        label: taskNames.get(span.taskId ?? -1) ?? 'Unknown task',
      })),
      ...idle.map((span) => ({
        at: span.start,
        userId: span.userId,
        kind: 'idle',
        label: `Idle for ${minutes(endOf(span, input.now) - span.start)} min${span.end === null ? ' so far' : ''}`,
      })),
    ];
    return newestNamed(input, events, TIMELINE_LIMIT);
  },

  async application_timeline(input) {
    const end = rangeEnd(input);
    const people = await appTimelinePeople(input, input.from, end, APP_TIMELINE_PEOPLE);
    const spans = await Promise.all(
      people.map((person) => latestAppSpans(input, person.id, input.from, end, APP_TIMELINE_SPANS)),
    );
    return people.map((person, index) => ({
      userId: person.id,
      name: person.name,
      spans: spans[index]!.flatMap((span) => {
        const piece = clip(span, input.from, end, input.now);
        return piece ? [{ application: span.application ?? '', start: piece[0], end: piece[1] }] : [];
      }).sort((a, b) => a.start - b.start || a.end - b.end || compareText(a.application, b.application)),
    }));
  },

  async alerts(input) {
    // Newest first: the alerts of what started in the range's last two days, then of a window
    // widened as far as the alerts found so far say 50 need (at least twice as far), until the
    // 50th newest is at least a day after the window's start. Nothing that started earlier can
    // pass it: a late arrival comes before its schedule ends (a day at most after its start), a
    // break goes over within its threshold (an hour at most), an idle span reaches a schedule
    // within the day it lasts (open idle spans, which may last longer, are read whatever their
    // start). A company's month is then read as a couple of days, not thirty. A few people's whole
    // range is read at once: it is small, and one read costs less than two.
    const end = rangeEnd(input);
    const few = input.people !== null && input.people.length <= ALERT_FEW_PEOPLE;
    let from = few ? input.from : Math.max(input.from, end - ALERT_WINDOW_MS);
    for (;;) {
      const alerts = await alertsFrom(input, from);
      const last = alerts[ALERTS_LIMIT - 1];
      if (from === input.from || (last && last.at >= from + ALERT_REACH_MS)) return alerts;
      const widen = Math.max(2, (2 * ALERTS_LIMIT) / Math.max(1, alerts.length));
      from = Math.max(input.from, end - Math.ceil(widen * (end - from)));
    }
  },
};
