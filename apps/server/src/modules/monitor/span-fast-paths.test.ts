import { seededRandom as random } from '@opsdeck/agent/random';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStatus, spanRow } from '../../../test/activity';
import { startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, createUser, type TestCompany } from '../../../test/factories';
import { activitySpans, schedules } from '../../db/schema';
import { ensureMonthPartition } from '../../platform/partitions';
import { EVERY_TENANT, oneTenant } from '../../platform/tenancy';
import { zonedDays } from '../reports/ranges';
import { newestSessionEnds } from './span-queries';
import { spanWidgets } from './span-widgets';
import type { WidgetInput } from './widget-input';

/**
 * The span widgets summed by the database (employee_utilization's unions of sessions and
 * schedules, break_adherence's totals), employee_login_hours' sessions looked up by day and the
 * alerts read back from the range's end in widening windows against the straightforward
 * computation from the raw rows,
 * on random data: sessions on two machines at once, overlapping and archived schedules, open spans,
 * ranges whose edges fall anywhere.
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 4, 4);
const NOW = BASE + 20 * DAY + 13 * HOUR + 12_345;

type Row = { user: number; start: number; end: number | null };

let t: TestApp;
let company: TestCompany;
let people: number[];
const sessions: Row[] = [];
const idles: Row[] = [];
type Shift = Row & { end: number; archived: boolean };
const shifts: Shift[] = [];
const breaks: (Row & { threshold: number })[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  company = await createCompany(db, { name: 'Monitor Random Spans' });
  const department = (await createDepartment(db, company, { name: 'Floor' })).id;
  people = [];
  for (let i = 0; i < 4; i += 1) people.push((await createUser(db, { company })).id);
  const status = (name: string, threshold: number) =>
    createStatus(db, { tenantId: company.tenantId, departmentId: department }, name, { threshold });
  const thresholds = new Map([
    [await status('Coffee', 10), 10],
    [await status('Lunch', 30), 30],
    [await status('Working', 0), 0],
  ]);
  const next = random(5);
  const spanRows: (typeof activitySpans.$inferInsert)[] = [];
  for (let day = 0; day < 21; day += 1) {
    for (const user of people) {
      const at = BASE + day * DAY + Math.floor(next() * 20 * HOUR);
      const end = at + 6 * HOUR + Math.floor(next() * 5 * HOUR);
      if (at > NOW) continue;
      shifts.push({ user, start: at, end, archived: next() < 0.1 });
      if (next() < 0.2) shifts.push({ user, start: at + 2 * HOUR, end: end + HOUR, archived: false });
      for (let machine = 0; machine < (next() < 0.3 ? 2 : 1); machine += 1) {
        const start = at - HOUR + Math.floor(next() * 3 * HOUR);
        const stop = start + Math.floor(next() * 9 * HOUR);
        sessions.push({ user, start, end: stop > NOW ? null : stop });
      }
      for (let i = 0; i < 3; i += 1) {
        const start = at + Math.floor(next() * 8 * HOUR);
        const stop = start + Math.floor(next() * 50 * MINUTE);
        idles.push({ user, start, end: stop > NOW ? null : stop });
      }
      for (const [statusId, threshold] of thresholds) {
        const start = at + Math.floor(next() * 8 * HOUR);
        const stop = start + Math.floor(next() * 50 * MINUTE);
        if (start > NOW) continue;
        if (threshold > 0) breaks.push({ user, start, end: stop > NOW ? null : stop, threshold });
        spanRows.push(row(user, 'status', start, stop > NOW ? null : stop, statusId));
      }
    }
  }
  for (const session of sessions) spanRows.push(row(session.user, 'session', session.start, session.end));
  for (const idle of idles) spanRows.push(row(idle.user, 'idle', idle.start, idle.end));
  await ensureMonthPartition(db, 'activity_spans', BASE);
  await ensureMonthPartition(db, 'activity_spans', BASE + 31 * DAY);
  for (let i = 0; i < spanRows.length; i += 500) await db.insert(activitySpans).values(spanRows.slice(i, i + 500));
  await db.insert(schedules).values(scheduleRows(company, shifts));

  function row(
    user: number,
    kind: 'session' | 'idle' | 'status',
    start: number,
    end: number | null,
    statusId?: number,
  ) {
    return spanRow(company, { userId: user, kind, start, end, statusId });
  }
}, 120_000);

/** The `schedules` rows of a company's shifts. */
const scheduleRows = (of: TestCompany, list: readonly Shift[]) =>
  list.map((shift) => ({
    tenantId: of.tenantId,
    userId: shift.user,
    scheduleStart: shift.start,
    scheduleEnd: shift.end,
    archived: shift.archived,
  }));

afterAll(async () => {
  await t.close();
});

type Interval = [number, number];
function union(intervals: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const [a, b] of intervals.filter(([a, b]) => a < b).sort((x, y) => x[0] - y[0] || x[1] - y[1])) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
const total = (intervals: Interval[]) => intervals.reduce((sum, [a, b]) => sum + b - a, 0);
function intersection(left: Interval[], right: Interval[]) {
  let sum = 0;
  for (const [a, b] of left) for (const [c, d] of right) sum += Math.max(0, Math.min(b, d) - Math.max(a, c));
  return sum;
}

/** employee_utilization as its definition says, from every row. */
function plainUtilization(
  from: number,
  to: number,
  who: readonly number[] | null,
  data: { shifts: Shift[]; sessions: Row[]; idles: Row[]; now: number } = { shifts, sessions, idles, now: NOW },
) {
  const { shifts, sessions, idles, now: NOW } = data;
  const end = to + 1;
  const scheduledTo = Math.min(end, NOW);
  const mine = <T extends { user: number }>(rows: T[]) => rows.filter((row) => !who || who.includes(row.user));
  const shiftsIn = mine(shifts).filter((s) => !s.archived && s.start < end && s.end > from);
  const sessionsIn = mine(sessions).filter(
    (s) => s.start < end && (s.end ?? NOW) > from && (s.end !== null || NOW > from),
  );
  const users = new Set([...shiftsIn.map((s) => s.user), ...sessionsIn.map((s) => s.user)]);
  return [...users].map((user) => {
    const ownShifts = shiftsIn.filter((s) => s.user === user);
    const scheduled = union(ownShifts.map((s): Interval => [Math.max(s.start, from), Math.min(s.end, scheduledTo)]));
    const signed = union(
      sessionsIn
        .filter((s) => s.user === user)
        .map((s): Interval => [Math.max(s.start, from), Math.min(Math.max(s.start, s.end ?? NOW), end)]),
    );
    const signedInMs = intersection(signed, scheduled);
    // Idle inside each schedule, summed (an agent reports idle only while signed in).
    let idle = 0;
    for (const shift of ownShifts) {
      for (const span of idles.filter((i) => i.user === user)) {
        if (span.start >= end) continue;
        idle += Math.max(
          0,
          Math.min(span.end ?? NOW, shift.end, scheduledTo) - Math.max(span.start, shift.start, from),
        );
      }
    }
    const idleMs = Math.min(idle, signedInMs);
    const scheduledMs = total(scheduled);
    return {
      userId: user,
      activeMs: signedInMs - idleMs,
      idleMs,
      scheduledMs,
      utilization: scheduledMs > 0 ? (signedInMs - idleMs) / scheduledMs : null,
    };
  });
}

function plainBreaks(from: number, to: number, who: readonly number[] | null) {
  const per = new Map<number, { breaks: number; overThreshold: number; overMs: number }>();
  for (const item of breaks) {
    if ((who && !who.includes(item.user)) || item.start < from || item.start > to) continue;
    const over = Math.max(0, Math.max(item.start, item.end ?? NOW) - item.start - item.threshold * MINUTE);
    const entry = per.get(item.user) ?? { breaks: 0, overThreshold: 0, overMs: 0 };
    entry.breaks += 1;
    entry.overThreshold += over > 0 ? 1 : 0;
    entry.overMs += over;
    per.set(item.user, entry);
  }
  return [...per].map(([userId, entry]) => ({ userId, ...entry }));
}

/** employee_login_hours as its definition says: every session against every day. */
function plainLoginHours(from: number, to: number, tz: string, who: readonly number[] | null) {
  const end = to + 1;
  const mine = sessions.filter(
    (s) => (!who || who.includes(s.user)) && s.start < end && (s.end ?? NOW) > from && (s.end !== null || NOW > from),
  );
  const rows: { userId: number; date: string; firstLogin: number; lastLogout: number | null; loggedMs: number }[] = [];
  for (const user of new Set(mine.map((s) => s.user))) {
    for (const day of zonedDays(from, to, tz)) {
      const a = Math.max(day.start, from);
      const b = Math.min(day.end, end);
      const pieces = mine
        .filter((s) => s.user === user)
        .flatMap((s) => {
          const sEnd = Math.max(s.start, s.end ?? NOW);
          const p: Interval = [Math.max(s.start, a), Math.min(sEnd, b)];
          return p[0] < p[1] ? [{ p, open: s.end === null && sEnd <= b }] : [];
        });
      if (pieces.length === 0) continue;
      const last = Math.max(...pieces.map(({ p }) => p[1]));
      rows.push({
        userId: user,
        date: day.date,
        firstLogin: Math.min(...pieces.map(({ p }) => p[0])),
        lastLogout: pieces.some(({ p, open }) => open && p[1] === last) ? null : last,
        loggedMs: total(union(pieces.map(({ p }) => p))),
      });
    }
  }
  return rows.sort((x, y) => x.userId - y.userId || (x.date < y.date ? -1 : 1));
}

/**
 * attendance_and_tardiness as its definition says, from every row: per ended schedule (not
 * archived) starting in [from, to], the first session starting before it ends and either at most
 * 4 hours before its start or still going on at its start.
 */
function plainAttendance(
  from: number,
  to: number,
  who: readonly number[] | null,
  data: { shifts: Shift[]; sessions: Row[]; now: number } = { shifts, sessions, now: NOW },
) {
  const per = new Map<
    number,
    { scheduledDays: number; presentDays: number; lateDays: number; absentDays: number; lateMs: number }
  >();
  for (const shift of data.shifts) {
    if (shift.archived || (who && !who.includes(shift.user))) continue;
    if (shift.start < from || shift.start > to || shift.end > data.now) continue;
    const arrivals = data.sessions
      .filter(
        (s) =>
          s.user === shift.user &&
          s.start < shift.end &&
          (s.start >= shift.start - 4 * HOUR || Math.max(s.start, s.end ?? data.now) > shift.start),
      )
      .map((s) => s.start);
    const arrival = arrivals.length > 0 ? Math.min(...arrivals) : null;
    const late = arrival !== null && arrival - shift.start > 5 * MINUTE ? arrival - shift.start : 0;
    const entry = per.get(shift.user) ?? { scheduledDays: 0, presentDays: 0, lateDays: 0, absentDays: 0, lateMs: 0 };
    entry.scheduledDays += 1;
    entry.presentDays += arrival === null ? 0 : 1;
    entry.lateDays += late > 0 ? 1 : 0;
    entry.absentDays += arrival === null ? 1 : 0;
    entry.lateMs += late;
    per.set(shift.user, entry);
  }
  return [...per].map(([userId, entry]) => ({ userId, ...entry }));
}

/** alerts as their definition says, from every row of the range: newest first, at most 50. */
function plainAlerts(from: number, to: number, who: readonly number[] | null) {
  const mine = (user: number) => !who || who.includes(user);
  const alerts: { at: number; userId: number; kind: string }[] = [];
  for (const shift of shifts) {
    if (shift.archived || !mine(shift.user) || shift.start < from || shift.start > to || shift.end > NOW) continue;
    const arrivals = sessions
      .filter(
        (s) =>
          s.user === shift.user &&
          s.start < shift.end &&
          (s.start >= shift.start - 4 * HOUR || Math.max(s.start, s.end ?? NOW) > shift.start),
      )
      .map((s) => s.start);
    if (arrivals.length === 0) alerts.push({ at: shift.start, userId: shift.user, kind: 'absent' });
    else if (Math.min(...arrivals) - shift.start > 5 * MINUTE)
      alerts.push({ at: Math.min(...arrivals), userId: shift.user, kind: 'late' });
  }
  for (const item of breaks) {
    if (!mine(item.user) || item.start < from || item.start > to) continue;
    if ((item.end ?? NOW) - item.start > item.threshold * MINUTE)
      alerts.push({ at: item.start + item.threshold * MINUTE, userId: item.user, kind: 'break_over' });
  }
  for (const idle of idles) {
    if (!mine(idle.user) || idle.start < from || idle.start > to) continue;
    const own = union(shifts.filter((s) => !s.archived && s.user === idle.user).map((s): Interval => [s.start, s.end]));
    const inside = own.flatMap(([a, b]): Interval[] => {
      const piece: Interval = [Math.max(a, idle.start), Math.min(b, idle.end ?? NOW)];
      return piece[0] < piece[1] ? [piece] : [];
    });
    if (total(inside) >= 30 * MINUTE) alerts.push({ at: inside[0]![0], userId: idle.user, kind: 'idle_long' });
  }
  return alerts.sort(newestAlertFirst).slice(0, 50);
}

const newestAlertFirst = (
  a: { at: number; userId: number; kind: string },
  b: { at: number; userId: number; kind: string },
) => b.at - a.at || a.userId - b.userId || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

const byUser = <T extends { userId: number }>(rows: T[]) => [...rows].sort((a, b) => a.userId - b.userId);
const withoutName = <T extends { name: string }>(rows: T[]) => rows.map(({ name: _name, ...rest }) => rest);

describe('the span widgets summed by the database equal the straightforward computation', () => {
  const next = random(11);
  const ranges: [number, number][] = [[BASE, NOW + DAY]];
  for (let i = 0; i < 8; i += 1) {
    const from = BASE + Math.floor(next() * 15 * DAY);
    ranges.push([from, from + Math.floor(next() * 7 * DAY)]);
  }
  it('employee_utilization, break_adherence, attendance, alerts, login hours and the newest session ends', async () => {
    for (const [from, to] of ranges) {
      for (const who of [null, [people[0]!], people.slice(1)]) {
        const input: WidgetInput = {
          db: t.database.db,
          scope: { kind: 'one', tenantId: company.tenantId },
          people: who,
          from,
          to,
          tz: 'UTC',
          now: NOW,
        };
        const label = `${new Date(from).toISOString()} → ${new Date(to).toISOString()} ${JSON.stringify(who)}`;
        expect(byUser(withoutName(await spanWidgets.employee_utilization!(input))), label).toEqual(
          byUser(plainUtilization(from, to, who)),
        );
        expect(byUser(withoutName(await spanWidgets.break_adherence!(input))), label).toEqual(
          byUser(plainBreaks(from, to, who)),
        );
        expect(byUser(withoutName(await spanWidgets.attendance_and_tardiness!(input))), `${label} attendance`).toEqual(
          byUser(plainAttendance(from, to, who)),
        );
        const alerts = (await spanWidgets.alerts!(input)).map(({ at, userId, kind }) => ({ at, userId, kind }));
        expect(alerts.sort(newestAlertFirst), `${label} alerts`).toEqual(plainAlerts(from, to, who));
        for (const limit of [3, 50]) {
          const newest = (await newestSessionEnds(input, from, to, limit)).map((s) => [s.userId, s.start, s.end]);
          const plain = sessions
            .filter((s) => (!who || who.includes(s.user)) && s.end !== null && s.end >= from && s.end <= to)
            .sort((x, y) => y.end! - x.end!)
            .slice(0, limit)
            .map((s) => [s.user, s.start, s.end]);
          expect(newest, `${label} newest ${limit} session ends`).toEqual(plain);
        }
        for (const tz of ['Asia/Kathmandu', 'America/New_York']) {
          const hours = withoutName(await spanWidgets.employee_login_hours!({ ...input, tz }));
          expect(
            hours.sort((x, y) => x.userId - y.userId || (x.date < y.date ? -1 : 1)),
            `${label} ${tz}`,
          ).toEqual(plainLoginHours(from, to, tz, who));
        }
      }
    }
  }, 120_000);
});

describe('alerts read back in widening windows', () => {
  it('an alert raised late by something that started before the first window still counts', async () => {
    const db = t.database.db;
    const other = await createCompany(db, { name: 'Monitor Alert Windows' });
    const department = (await createDepartment(db, other, { name: 'Desk' })).id;
    const person = (await createUser(db, { company: other })).id;
    const coffee = await createStatus(db, { tenantId: other.tenantId, departmentId: department }, 'Coffee', {
      threshold: 10,
    });
    const span = (kind: 'session' | 'status', start: number, end: number) =>
      spanRow(other, { userId: person, kind, start, end, statusId: kind === 'status' ? coffee : null });
    // The first window is [NOW - 2 days, NOW]. A schedule starting an hour before it, and an
    // arrival 23 hours into it: late, at NOW - 26 h. In the window: 40 breaks over their threshold
    // in the last hours, 15 more 36 hours back, so the window alone holds 55 alerts, the 50th of
    // them older than the late arrival.
    const shiftStart = NOW - 2 * DAY - HOUR;
    await db
      .insert(schedules)
      .values({ tenantId: other.tenantId, userId: person, scheduleStart: shiftStart, scheduleEnd: shiftStart + DAY });
    const rows = [span('session', shiftStart + 23 * HOUR, shiftStart + 23 * HOUR + 30 * MINUTE)];
    for (let i = 0; i < 40; i += 1)
      rows.push(span('status', NOW - 5 * HOUR + i * 5 * MINUTE, NOW - 5 * HOUR + i * 5 * MINUTE + 11 * MINUTE));
    for (let i = 0; i < 15; i += 1)
      rows.push(span('status', NOW - 36 * HOUR + i * MINUTE, NOW - 36 * HOUR + i * MINUTE + 12 * MINUTE));
    await db.insert(activitySpans).values(rows);
    const alerts = await spanWidgets.alerts!({
      db,
      scope: { kind: 'one', tenantId: other.tenantId },
      people: null,
      from: NOW - 10 * DAY,
      to: NOW,
      tz: 'UTC',
      now: NOW,
    });
    expect(alerts).toHaveLength(50);
    expect(alerts.filter((alert) => alert.kind === 'late').map((alert) => alert.at)).toEqual([shiftStart + 23 * HOUR]);
    expect(alerts.map((alert) => alert.at)).toEqual([...alerts.map((alert) => alert.at)].sort((a, b) => b - a));
  });
});

describe('attendance (and utilization) at the edges of their rules', () => {
  it('the 4 hours before, a session still going on at the start, an open session days old, the end excluded', async () => {
    const db = t.database.db;
    const other = await createCompany(db, { name: 'Monitor Attendance Edges' });
    const who: number[] = [];
    for (let i = 0; i < 7; i += 1) who.push((await createUser(db, { company: other })).id);
    const [p, q, r, u, v, w, x] = who as [number, number, number, number, number, number, number];
    const T = NOW - 3 * DAY;
    const edgeShifts: Shift[] = [];
    const edgeSessions: Row[] = [];
    const shift = (user: number, start: number, end: number, archived = false) =>
      edgeShifts.push({ user, start, end, archived });
    const session = (user: number, start: number, end: number | null) => edgeSessions.push({ user, start, end });
    for (const user of who) shift(user, T, T + 8 * HOUR);
    // Still going on at the start, having started just over 4 hours before it: the arrival.
    session(p, T - 4 * HOUR - 1, T + 1);
    session(p, T - HOUR, T + HOUR);
    // Ending right at the start (not going on then), then 10 minutes late.
    session(q, T - 4 * HOUR - 1, T);
    session(q, T + 10 * MINUTE, T + 2 * HOUR);
    // Exactly 4 hours before, lasting nothing.
    session(r, T - 4 * HOUR, T - 4 * HOUR);
    // Open for days: going on at the start of every schedule since.
    session(u, T - 3 * DAY, null);
    shift(u, T + DAY, T + DAY + 8 * HOUR);
    shift(u, T + 2 * DAY, T + 2 * DAY + 8 * HOUR, true);
    // The schedule's end is excluded; its last millisecond is not.
    session(v, T + 8 * HOUR, T + 9 * HOUR);
    shift(v, T + DAY, T + DAY + 8 * HOUR);
    session(v, T + DAY + 8 * HOUR - 1, T + DAY + 9 * HOUR);
    // Ended before the start but started within the 4 hours: counts; a schedule not yet ended does not.
    session(w, T - 30 * MINUTE, T - 10 * MINUTE);
    shift(w, NOW - HOUR, NOW + HOUR);
    session(w, NOW - 2 * HOUR, null);
    // x: no session at all, two overlapping schedules, and one still to come (no scheduled time yet).
    shift(x, T + 2 * HOUR, T + 6 * HOUR);
    shift(x, NOW + HOUR, NOW + 3 * HOUR);
    // q: a schedule of 40 hours (longer than a shift may be), idle on its second and third UTC days.
    shift(q, T + DAY, T + DAY + 40 * HOUR);
    const edgeIdles: Row[] = [
      { user: p, start: T - 10 * MINUTE, end: T + 20 * MINUTE },
      { user: w, start: NOW - 90 * MINUTE, end: null },
      { user: q, start: T + DAY + 35 * HOUR, end: T + DAY + 36 * HOUR },
      { user: q, start: T + DAY + 38 * HOUR, end: T + DAY + 41 * HOUR },
    ];
    await ensureMonthPartition(db, 'activity_spans', T - 3 * DAY);
    await db
      .insert(activitySpans)
      .values(
        [
          ...edgeSessions.map((s) => ({ ...s, kind: 'session' as const })),
          ...edgeIdles.map((s) => ({ ...s, kind: 'idle' as const })),
        ].map((s) => spanRow(other, { ...s, userId: s.user })),
      );
    await db.insert(schedules).values(scheduleRows(other, edgeShifts));
    const data = { shifts: edgeShifts, sessions: edgeSessions, now: NOW };
    for (const [from, to] of [
      [T - DAY, NOW],
      [T, T],
      [T + 1, NOW],
      [T - 5 * DAY, NOW + DAY],
    ] as const) {
      for (const people of [null, [p, u], [x]]) {
        const input: WidgetInput = { db, scope: oneTenant(other.tenantId), people, from, to, tz: 'UTC', now: NOW };
        const answer = await spanWidgets.attendance_and_tardiness!(input);
        expect(byUser(withoutName(answer)), `${from} → ${to} ${JSON.stringify(people)}`).toEqual(
          byUser(plainAttendance(from, to, people, data)),
        );
        const utilization = await spanWidgets.employee_utilization!(input);
        expect(byUser(withoutName(utilization)), `${from} → ${to} ${JSON.stringify(people)} utilization`).toEqual(
          byUser(plainUtilization(from, to, people, { ...data, idles: edgeIdles })),
        );
      }
    }
    // An admin without X-Tenant-Id (every company), its filter naming this company's people.
    const every = { db, scope: EVERY_TENANT, people: who, from: T - DAY, to: NOW, tz: 'UTC', now: NOW };
    expect(byUser(withoutName(await spanWidgets.attendance_and_tardiness!(every)))).toEqual(
      byUser(plainAttendance(T - DAY, NOW, who, data)),
    );
    expect(byUser(withoutName(await spanWidgets.employee_utilization!(every)))).toEqual(
      byUser(plainUtilization(T - DAY, NOW, who, { ...data, idles: edgeIdles })),
    );
    const all = await spanWidgets.attendance_and_tardiness!({
      db,
      scope: { kind: 'one', tenantId: other.tenantId },
      people: null,
      from: T - DAY,
      to: NOW,
      tz: 'UTC',
      now: NOW,
    });
    const row = (user: number) => all.find((entry) => entry.userId === user);
    expect(row(p)).toMatchObject({ scheduledDays: 1, presentDays: 1, lateDays: 0 });
    expect(row(q)).toMatchObject({ scheduledDays: 2, absentDays: 1, lateDays: 1, lateMs: 10 * MINUTE });
    expect(row(r)).toMatchObject({ scheduledDays: 1, presentDays: 1, lateDays: 0 });
    expect(row(u)).toMatchObject({ scheduledDays: 2, presentDays: 2, lateDays: 0 });
    expect(row(v)).toMatchObject({ scheduledDays: 2, presentDays: 1, absentDays: 1, lateMs: 8 * HOUR - 1 });
    expect(row(w)).toMatchObject({ scheduledDays: 1, presentDays: 1, lateDays: 0 });
    expect(row(x)).toMatchObject({ scheduledDays: 2, presentDays: 0, absentDays: 2 });
  });
});
