import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WIDGET_ANSWERS, type WidgetKey } from '@opsdeck/contract/monitor';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStatus, createTask, type SpanSpec, spanRow } from '../../../test/activity';
import { openTestDatabase } from '../../../test/database';
import { createCompany, createDepartment, createUser, type TestCompany } from '../../../test/factories';
import { prepareData } from '../../boot';
import { loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { activitySpans, schedules, users } from '../../db/schema';
import { ensureMonthPartition } from '../../platform/partitions';
import { EVERY_TENANT, oneTenant } from '../../platform/tenancy';
import { spanWidgets } from './span-widgets';
import type { WidgetInput } from './widget-input';

/**
 * The span widgets on a hand-built week in Europe/Berlin (UTC+1 in November 2026): Monday 2 to
 * Wednesday 4 November, now Wednesday 20:00. Alice: three schedules (on time, 12 minutes late,
 * on time), a lunch 15 minutes over its 30-minute threshold, 40 minutes idle inside Monday's
 * schedule. Bob: on time Monday in a session that runs past midnight, absent Tuesday, signed in
 * (open) Wednesday evening without a schedule, idle 40 minutes then. Carol, of another company,
 * and a key without a person do the same hours and never count.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Berlin wall clock of November 2026 (UTC+1) as epoch ms. */
const B = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour - 1, minute);

const FROM = B(2, 0);
const TO = B(5, 0) - 1;
const NOW = B(4, 20);
const TZ = 'Europe/Berlin';

let database: Database;
let dataDir: string;
let acme: TestCompany;
let other: TestCompany;
let alice: number;
let bob: number;
let carol: number;
let lunch: number;
let working: number;
let invoices: number;

const db = () => database.db;

async function person(company: TestCompany, firstName: string, lastName: string) {
  const user = await createUser(db(), { company });
  await db().update(users).set({ firstName, lastName }).where(eq(users.id, user.id));
  return user.id;
}

type SpanSeed = SpanSpec & { tenant?: TestCompany };

async function spans(seeds: SpanSeed[]) {
  await db()
    .insert(activitySpans)
    .values(seeds.map((seed) => spanRow(seed.tenant ?? acme, seed)));
}

async function schedule(userId: number, start: number, end: number, tenant = acme) {
  await db().insert(schedules).values({ tenantId: tenant.tenantId, userId, scheduleStart: start, scheduleEnd: end });
}

const input = (overrides: Partial<WidgetInput> = {}): WidgetInput => ({
  db: db(),
  scope: oneTenant(acme.tenantId),
  people: null,
  from: FROM,
  to: TO,
  tz: TZ,
  now: NOW,
  ...overrides,
});

/** Runs a widget and checks its answer against the contract's shape. */
async function run<K extends WidgetKey>(key: K, overrides: Partial<WidgetInput> = {}) {
  const handler = spanWidgets[key];
  if (!handler) throw new Error(`no handler for ${key}`);
  const answer = await handler(input(overrides));
  expect(WIDGET_ANSWERS[key].parse(answer)).toEqual(answer);
  return answer;
}

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-test-'));
  await prepareData(database, loadConfig({ DATA_DIR: dataDir, DEMO: '0' }));
  await ensureMonthPartition(db(), 'activity_spans', B(2, 0));
  acme = await createCompany(db());
  other = await createCompany(db());
  const department = await createDepartment(db(), acme);
  const otherDepartment = await createDepartment(db(), other);
  alice = await person(acme, 'Alice', 'Archer');
  bob = await person(acme, 'Bob', 'Baker');
  carol = await person(other, 'Aaron', 'Other');
  const acmeDepartment = { tenantId: acme.tenantId, departmentId: department.id };
  lunch = await createStatus(db(), acmeDepartment, 'Lunch', { threshold: 30 });
  working = await createStatus(db(), acmeDepartment, 'Working');
  const otherLunch = await createStatus(db(), { tenantId: other.tenantId, departmentId: otherDepartment.id }, 'Lunch', {
    threshold: 10,
  });
  invoices = await createTask(db(), acmeDepartment, working, 'Invoices');

  for (const day of [2, 3, 4]) await schedule(alice, B(day, 9), B(day, 17));
  for (const day of [2, 3, 5]) await schedule(bob, B(day, 9), B(day, 17));
  await schedule(carol, B(2, 9), B(2, 17), other);
  // An archived schedule never counts.
  await db()
    .insert(schedules)
    .values({ tenantId: acme.tenantId, userId: bob, scheduleStart: B(4, 9), scheduleEnd: B(4, 17), archived: true });

  await spans([
    // Alice
    { userId: alice, kind: 'session', start: B(2, 8, 50), end: B(2, 17, 10) },
    { userId: alice, kind: 'session', start: B(3, 9, 12), end: B(3, 17) },
    { userId: alice, kind: 'session', start: B(4, 8, 58), end: B(4, 17, 5) },
    { userId: alice, kind: 'status', start: B(2, 9), end: B(2, 12), statusId: working },
    { userId: alice, kind: 'status', start: B(2, 12), end: B(2, 12, 45), statusId: lunch },
    { userId: alice, kind: 'status', start: B(3, 12), end: B(3, 12, 20), statusId: lunch },
    { userId: alice, kind: 'task', start: B(2, 9, 30), end: B(2, 11), taskId: invoices },
    { userId: alice, kind: 'idle', start: B(2, 14), end: B(2, 14, 40) },
    { userId: alice, kind: 'idle', start: B(3, 10), end: B(3, 10, 5) },
    { userId: alice, kind: 'app', start: B(2, 9), end: B(2, 10), application: 'Excel' },
    { userId: alice, kind: 'app', start: B(2, 10), end: B(2, 11), application: 'Outlook' },
    // Bob
    { userId: bob, kind: 'session', start: B(2, 9, 3), end: B(3, 1, 30) },
    { userId: bob, kind: 'session', start: B(4, 19), end: null },
    { userId: bob, kind: 'status', start: B(2, 12), end: B(2, 12, 30), statusId: lunch },
    { userId: bob, kind: 'idle', start: B(4, 19, 10), end: B(4, 19, 50) },
    { userId: bob, kind: 'app', start: B(1, 23, 30), end: B(2, 0, 30), application: 'Terminal' },
    { userId: bob, kind: 'app', start: B(4, 19), end: null, application: 'Chrome' },
    // No person: counts for no one.
    { userId: null, kind: 'session', start: B(2, 9), end: B(2, 10) },
    { userId: null, kind: 'status', start: B(2, 12), end: B(2, 13), statusId: lunch },
    { userId: null, kind: 'app', start: B(2, 9), end: B(2, 10), application: 'Excel' },
    // Another company.
    { userId: carol, kind: 'session', start: B(2, 9, 30), end: B(2, 17), tenant: other },
    { userId: carol, kind: 'status', start: B(2, 12), end: B(2, 13), statusId: otherLunch, tenant: other },
    { userId: carol, kind: 'idle', start: B(2, 10), end: B(2, 11), tenant: other },
    { userId: carol, kind: 'app', start: B(2, 9), end: B(2, 10), application: 'Slack', tenant: other },
  ]);
});

afterAll(async () => {
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('span widgets', () => {
  it('employee_login_hours: per person and Berlin day, a session across midnight split, an open one signed in', async () => {
    expect(await run('employee_login_hours')).toEqual([
      {
        userId: alice,
        name: 'Alice Archer',
        date: '2026-11-02',
        firstLogin: B(2, 8, 50),
        lastLogout: B(2, 17, 10),
        loggedMs: 500 * MIN,
      },
      {
        userId: alice,
        name: 'Alice Archer',
        date: '2026-11-03',
        firstLogin: B(3, 9, 12),
        lastLogout: B(3, 17),
        loggedMs: 468 * MIN,
      },
      {
        userId: alice,
        name: 'Alice Archer',
        date: '2026-11-04',
        firstLogin: B(4, 8, 58),
        lastLogout: B(4, 17, 5),
        loggedMs: 487 * MIN,
      },
      // 09:03 to midnight, then midnight to 01:30.
      {
        userId: bob,
        name: 'Bob Baker',
        date: '2026-11-02',
        firstLogin: B(2, 9, 3),
        lastLogout: B(3, 0),
        loggedMs: 897 * MIN,
      },
      {
        userId: bob,
        name: 'Bob Baker',
        date: '2026-11-03',
        firstLogin: B(3, 0),
        lastLogout: B(3, 1, 30),
        loggedMs: 90 * MIN,
      },
      {
        userId: bob,
        name: 'Bob Baker',
        date: '2026-11-04',
        firstLogin: B(4, 19),
        lastLogout: null,
        loggedMs: 60 * MIN,
      },
    ]);
  });

  it('employee_login_hours in UTC: the midnight session is one day', async () => {
    const rows = await run('employee_login_hours', { tz: 'UTC', people: [bob] });
    // Bob's first session, 08:03 to 00:30 UTC: Monday 08:03–24:00 and Tuesday 00:00–00:30 UTC.
    expect(rows.map((row) => [row.date, row.loggedMs])).toEqual([
      ['2026-11-02', 957 * MIN],
      ['2026-11-03', 30 * MIN],
      ['2026-11-04', 60 * MIN],
    ]);
  });

  it('attendance_and_tardiness: ended schedules only, late over 5 minutes, absent without a session', async () => {
    expect(await run('attendance_and_tardiness')).toEqual([
      {
        userId: alice,
        name: 'Alice Archer',
        scheduledDays: 3,
        presentDays: 3,
        lateDays: 1,
        absentDays: 0,
        lateMs: 12 * MIN,
      },
      { userId: bob, name: 'Bob Baker', scheduledDays: 2, presentDays: 1, lateDays: 0, absentDays: 1, lateMs: 0 },
    ]);
    // Wednesday's schedule has not ended at 16:00.
    const early = await run('attendance_and_tardiness', { now: B(4, 16), people: [alice] });
    expect(early).toEqual([
      {
        userId: alice,
        name: 'Alice Archer',
        scheduledDays: 2,
        presentDays: 2,
        lateDays: 1,
        absentDays: 0,
        lateMs: 12 * MIN,
      },
    ]);
  });

  it('employee_utilization: active and idle time inside the schedules', async () => {
    expect(await run('employee_utilization')).toEqual([
      {
        userId: alice,
        name: 'Alice Archer',
        activeMs: 1383 * MIN,
        idleMs: 45 * MIN,
        scheduledMs: 24 * HOUR,
        utilization: 1383 / 1440,
      },
      {
        userId: bob,
        name: 'Bob Baker',
        activeMs: 477 * MIN,
        idleMs: 0,
        scheduledMs: 16 * HOUR,
        utilization: 477 / 960,
      },
    ]);
    // Without a schedule in the range: null.
    expect(await run('employee_utilization', { from: B(4, 18), people: [bob] })).toEqual([
      { userId: bob, name: 'Bob Baker', activeMs: 0, idleMs: 0, scheduledMs: 0, utilization: null },
    ]);
  });

  it('break_adherence: status spans with a threshold, over it when longer', async () => {
    expect(await run('break_adherence')).toEqual([
      { userId: alice, name: 'Alice Archer', breaks: 2, overThreshold: 1, overMs: 15 * MIN },
      { userId: bob, name: 'Bob Baker', breaks: 1, overThreshold: 0, overMs: 0 },
    ]);
  });

  it('action_timeline: newest first, ties by name', async () => {
    const rows = await run('action_timeline');
    expect(rows.map((row) => [row.at, row.name, row.kind, row.label])).toEqual([
      [B(4, 19, 10), 'Bob Baker', 'idle', 'Idle for 40 min'],
      [B(4, 19), 'Bob Baker', 'sign_in', 'Signed in'],
      [B(4, 17, 5), 'Alice Archer', 'sign_out', 'Signed out'],
      [B(4, 8, 58), 'Alice Archer', 'sign_in', 'Signed in'],
      [B(3, 17), 'Alice Archer', 'sign_out', 'Signed out'],
      [B(3, 12), 'Alice Archer', 'status', 'Lunch'],
      [B(3, 9, 12), 'Alice Archer', 'sign_in', 'Signed in'],
      [B(3, 1, 30), 'Bob Baker', 'sign_out', 'Signed out'],
      [B(2, 17, 10), 'Alice Archer', 'sign_out', 'Signed out'],
      [B(2, 14), 'Alice Archer', 'idle', 'Idle for 40 min'],
      [B(2, 12), 'Alice Archer', 'status', 'Lunch'],
      [B(2, 12), 'Bob Baker', 'status', 'Lunch'],
      [B(2, 9, 30), 'Alice Archer', 'task', 'Invoices'],
      [B(2, 9, 3), 'Bob Baker', 'sign_in', 'Signed in'],
      [B(2, 9), 'Alice Archer', 'status', 'Working'],
      [B(2, 8, 50), 'Alice Archer', 'sign_in', 'Signed in'],
    ]);
    expect(rows.every((row) => row.userId === (row.name === 'Bob Baker' ? bob : alice))).toBe(true);
  });

  it('application_timeline: clipped to the range, open spans up to now', async () => {
    expect(await run('application_timeline')).toEqual([
      {
        userId: alice,
        name: 'Alice Archer',
        spans: [
          { application: 'Excel', start: B(2, 9), end: B(2, 10) },
          { application: 'Outlook', start: B(2, 10), end: B(2, 11) },
        ],
      },
      {
        userId: bob,
        name: 'Bob Baker',
        spans: [
          { application: 'Terminal', start: FROM, end: B(2, 0, 30) },
          { application: 'Chrome', start: B(4, 19), end: NOW },
        ],
      },
    ]);
  });

  it('alerts: late, absent, a break over, a long idle inside a schedule (not outside)', async () => {
    expect(await run('alerts')).toEqual([
      { at: B(3, 9, 12), userId: alice, name: 'Alice Archer', kind: 'late', message: 'Late by 12 min' },
      { at: B(3, 9), userId: bob, name: 'Bob Baker', kind: 'absent', message: 'Absent: no sign-in for the schedule' },
      {
        at: B(2, 14),
        userId: alice,
        name: 'Alice Archer',
        kind: 'idle_long',
        message: 'Idle for 40 min during the schedule',
      },
      {
        at: B(2, 12, 30),
        userId: alice,
        name: 'Alice Archer',
        kind: 'break_over',
        message: 'Lunch over its 30 min threshold by 15 min',
      },
    ]);
  });

  it('people: only those listed; an empty list answers nothing', async () => {
    expect((await run('attendance_and_tardiness', { people: [bob] })).map((row) => row.userId)).toEqual([bob]);
    expect((await run('alerts', { people: [bob] })).map((row) => row.kind)).toEqual(['absent']);
    expect((await run('application_timeline', { people: [alice] })).map((row) => row.userId)).toEqual([alice]);
    expect((await run('action_timeline', { people: [bob] })).length).toBe(5);
    for (const key of [
      'employee_login_hours',
      'attendance_and_tardiness',
      'employee_utilization',
      'break_adherence',
      'action_timeline',
      'application_timeline',
      'alerts',
    ] as const) {
      expect(await run(key, { people: [] })).toEqual([]);
    }
  });

  it('every company: another company counts only in a scope that holds it', async () => {
    const rows = await run('employee_login_hours', { scope: EVERY_TENANT });
    expect(rows[0]).toEqual({
      userId: carol,
      name: 'Aaron Other',
      date: '2026-11-02',
      firstLogin: B(2, 9, 30),
      lastLogout: B(2, 17),
      loggedMs: 450 * MIN,
    });
    expect(await run('employee_login_hours', { scope: oneTenant(other.tenantId) })).toEqual([rows[0]]);
  });
});
