import { MONITOR_PATHS, WIDGET_ANSWERS, WIDGET_KEYS, type WidgetKey } from '@opsdeck/contract/monitor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedWithoutAuthority } from '../../../test/access-table';
import { createStatus, createTask, type SpanSpec, spanRow } from '../../../test/activity';
import { startTestApp, type TestApp } from '../../../test/app';
import {
  createAgentKey,
  createCompany,
  createDepartment,
  createRole,
  createUser,
  type TestCompany,
} from '../../../test/factories';
import { queryString } from '../../../test/report-runs';
import { tokenWithEveryAuthority } from '../../../test/sign-in';
import { activitySpans } from '../../db/schema';
import { ensureMonthPartition } from '../../platform/partitions';
import { rebuildActivityRollups } from '../activity/rollups';
import { assignRole } from '../roles/queries';
import { createRollupWidgets } from './rollup-widgets';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Tuesday 10 March 2026, 00:00 UTC (Berlin is UTC+1 until the 29th). */
const BASE = Date.UTC(2026, 2, 10);
const BERLIN = 'Europe/Berlin';

let t: TestApp;
let company: TestCompany;
let token: string;
let p1: number;
let p1Email: string;
let p2: number;
let d1: number;
let d2: number;
let role: number;
let s1: number;
let s2: number;
let t1: number;
let t2: number;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  company = await createCompany(db, { name: 'Monitor North' });
  d1 = (await createDepartment(db, company, { name: 'Operations' })).id;
  d2 = (await createDepartment(db, company, { name: 'Night shift', parentId: d1 })).id;
  role = (await createRole(db, company, [], 'Clerks')).id;
  const first = await createUser(db, { company, departmentId: d1 });
  p1 = first.id;
  p1Email = first.email;
  p2 = (await createUser(db, { company, departmentId: d2 })).id;
  await createUser(db, { company, departmentId: d1, archived: true });
  await assignRole(db, p1, role);
  token = await tokenWithEveryAuthority(t, company);
  const operations = { tenantId: company.tenantId, departmentId: d1 };
  s1 = await createStatus(db, operations, 'Break', { color: '#ff0000' });
  s2 = await createStatus(db, operations, 'Working', { color: '#00ff00' });
  t1 = await createTask(db, operations, s2, 'Invoices');
  t2 = await createTask(db, operations, s2, 'Payroll');

  const spans: SpanSpec[] = [
    // P1 on the 10th, 08:00 to 12:00 UTC (09:00 to 13:00 in Berlin), idle 09:00 to 09:30.
    { userId: p1, kind: 'session', start: BASE + 8 * HOUR, end: BASE + 12 * HOUR },
    { userId: p1, kind: 'idle', start: BASE + 9 * HOUR, end: BASE + 9.5 * HOUR },
    { userId: p1, kind: 'app', application: 'Excel', start: BASE + 8 * HOUR, end: BASE + 10 * HOUR },
    { userId: p1, kind: 'app', application: 'Chrome', start: BASE + 10 * HOUR, end: BASE + 11 * HOUR },
    { userId: p1, kind: 'app', application: 'Excel', start: BASE + 11 * HOUR, end: BASE + 11 * HOUR + 20 * MINUTE },
    { userId: p1, kind: 'status', statusId: s1, start: BASE + 8 * HOUR, end: BASE + 9 * HOUR },
    { userId: p1, kind: 'status', statusId: s2, start: BASE + 9 * HOUR, end: BASE + 12 * HOUR },
    { userId: p1, kind: 'task', taskId: t1, start: BASE + 8.5 * HOUR, end: BASE + 9.75 * HOUR },
    // P2 across Berlin's midnight: 22:00 to 01:00 UTC (23:00 to 02:00 in Berlin).
    { userId: p2, kind: 'session', start: BASE + 22 * HOUR, end: BASE + 25 * HOUR },
    { userId: p2, kind: 'app', application: 'Slack', start: BASE + 22 * HOUR, end: BASE + 24.5 * HOUR },
    { userId: p2, kind: 'status', statusId: s1, start: BASE + 22 * HOUR, end: BASE + 23.5 * HOUR },
    { userId: p2, kind: 'task', taskId: t2, start: BASE + 22 * HOUR, end: BASE + 25 * HOUR },
    // P2 signed in on the 12th from 10:00 UTC, still open.
    { userId: p2, kind: 'session', start: BASE + 2 * DAY + 10 * HOUR, end: null },
    { userId: p2, kind: 'app', application: 'Excel', start: BASE + 2 * DAY + 10 * HOUR, end: null },
  ];
  await ensureMonthPartition(db, 'activity_spans', BASE);
  await db.insert(activitySpans).values(spans.map((span) => spanRow(company, span)));
  await rebuildActivityRollups(db);
});

afterAll(async () => {
  await t.close();
});

/** The range most tests read: the 10th 00:00 UTC to the 12th 11:00 UTC (the open spans count one hour). */
const RANGE = { from: BASE, to: BASE + 2 * DAY + 11 * HOUR - 1 };

const widget = <T = unknown>(
  key: string,
  query: Record<string, string | number | undefined>,
  as = token,
  tenantId?: string,
) =>
  t.call<T>(`/api${MONITOR_PATHS.widget(key as WidgetKey)}?${queryString(query)}`, {
    token: as,
    ...(tenantId ? { tenantId } : {}),
  });

const ok = async (key: string, query: Record<string, string | number | undefined>, as = token) => {
  const answer = await widget(key, query, as);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};

const hours = (entries: Record<number, [active: number, idle: number]>) =>
  Array.from({ length: 24 }, (_, hour) => ({
    hour,
    activeMs: entries[hour]?.[0] ?? 0,
    idleMs: entries[hour]?.[1] ?? 0,
  }));

describe('the rollup widgets over a hand-built week', () => {
  it('top_applications and application_frequency: the company, the open span up to `to`', async () => {
    expect(await ok('top_applications', { ...RANGE, tz: BERLIN })).toEqual([
      { application: 'Excel', durationMs: 2 * HOUR + 20 * MINUTE + HOUR },
      { application: 'Slack', durationMs: 2.5 * HOUR },
      { application: 'Chrome', durationMs: HOUR },
    ]);
    expect(await ok('application_frequency', { ...RANGE, tz: BERLIN })).toEqual([
      { application: 'Excel', count: 3 },
      { application: 'Chrome', count: 1 },
      { application: 'Slack', count: 1 },
    ]);
  });

  it('hourly_activity: hours of Berlin, active = session − idle', async () => {
    expect(await ok('hourly_activity', { ...RANGE, tz: BERLIN })).toEqual(
      hours({
        0: [HOUR, 0],
        1: [HOUR, 0],
        9: [HOUR, 0],
        10: [HOUR / 2, HOUR / 2],
        11: [2 * HOUR, 0],
        12: [HOUR, 0],
        23: [HOUR, 0],
      }),
    );
  });

  it('application_duration: per day of Berlin, the span across midnight split', async () => {
    const day = (date: string, excel: number, slack: number, chrome: number) => [
      { date, application: 'Excel', durationMs: excel },
      { date, application: 'Slack', durationMs: slack },
      { date, application: 'Chrome', durationMs: chrome },
    ];
    expect(await ok('application_duration', { ...RANGE, tz: BERLIN })).toEqual([
      ...day('2026-03-10', 2 * HOUR + 20 * MINUTE, HOUR, HOUR),
      ...day('2026-03-11', 0, 1.5 * HOUR, 0),
      ...day('2026-03-12', HOUR, 0, 0),
    ]);
  });

  it('top_statuses and status_summary', async () => {
    expect(await ok('top_statuses', RANGE)).toEqual([
      { statusId: s2, name: 'Working', color: '#00ff00', durationMs: 3 * HOUR },
      { statusId: s1, name: 'Break', color: '#ff0000', durationMs: 2.5 * HOUR },
    ]);
    expect(await ok('status_summary', RANGE)).toEqual([
      {
        statusId: s2,
        name: 'Working',
        color: '#00ff00',
        people: 1,
        count: 1,
        durationMs: 3 * HOUR,
        averageMs: 3 * HOUR,
      },
      {
        statusId: s1,
        name: 'Break',
        color: '#ff0000',
        people: 2,
        count: 2,
        durationMs: 2.5 * HOUR,
        averageMs: 1.25 * HOUR,
      },
    ]);
  });

  it('top_tasks and task_productivity (task ∩ session − idle)', async () => {
    expect(await ok('top_tasks', RANGE)).toEqual([
      { taskId: t2, name: 'Payroll', durationMs: 3 * HOUR },
      { taskId: t1, name: 'Invoices', durationMs: 1.25 * HOUR },
    ]);
    expect(await ok('task_productivity', RANGE)).toEqual([
      { taskId: t2, name: 'Payroll', activeMs: 3 * HOUR, idleMs: 0, productivity: 1 },
      { taskId: t1, name: 'Invoices', activeMs: 45 * MINUTE, idleMs: 30 * MINUTE, productivity: 0.6 },
    ]);
  });

  it('active_users: nobody online, two active, three not archived (the caller too)', async () => {
    expect(await ok('active_users', RANGE)).toEqual({ online: 0, active: 2, total: 3 });
    expect(await ok('active_users', { ...RANGE, department: d2 })).toEqual({ online: 0, active: 1, total: 1 });
    // Days later P2's session is still open: active up to now.
    expect(await ok('active_users', { from: BASE + 5 * DAY, to: BASE + 6 * DAY })).toEqual({
      online: 0,
      active: 1,
      total: 3,
    });
    expect(await ok('active_users', { from: BASE - 2 * DAY, to: BASE - DAY })).toEqual({
      online: 0,
      active: 0,
      total: 3,
    });
  });

  it('active_users online: the people whose agent key is connected now, in the filter', async () => {
    const db = t.database.db;
    const mine = await createAgentKey(db, company, { email: `  ${p1Email.toUpperCase()} ` });
    const nobody = await createAgentKey(db, company, { email: 'nobody@example.test' });
    const other = await createAgentKey(db, await createCompany(db), { email: p1Email });
    const widgets = createRollupWidgets({
      connectedAccounts: () => [mine.accountId, nobody.accountId, other.accountId],
    });
    const input = {
      db,
      scope: { kind: 'one', tenantId: company.tenantId } as const,
      from: RANGE.from,
      to: RANGE.to,
      tz: 'UTC',
      now: Date.now(),
    };
    expect(await widgets.active_users!({ ...input, people: null })).toEqual({ online: 1, active: 2, total: 3 });
    expect(await widgets.active_users!({ ...input, people: [p1] })).toEqual({ online: 1, active: 1, total: 1 });
    expect(await widgets.active_users!({ ...input, people: [p2] })).toEqual({ online: 0, active: 1, total: 1 });
    expect(await widgets.active_users!({ ...input, people: [] })).toEqual({ online: 0, active: 0, total: 0 });
  });

  it('clips to sub-bucket ends: 08:05 to 10:07 UTC', async () => {
    const range = { from: BASE + 8 * HOUR + 5 * MINUTE, to: BASE + 10 * HOUR + 7 * MINUTE - 1 };
    expect(await ok('top_applications', range)).toEqual([
      { application: 'Excel', durationMs: HOUR + 55 * MINUTE },
      { application: 'Chrome', durationMs: 7 * MINUTE },
    ]);
    expect(await ok('application_frequency', range)).toEqual([{ application: 'Chrome', count: 1 }]);
    expect(await ok('hourly_activity', range)).toEqual(
      hours({ 8: [55 * MINUTE, 0], 9: [30 * MINUTE, 30 * MINUTE], 10: [7 * MINUTE, 0] }),
    );
  });

  it('filters by person, by department (its sub-departments included) and by role', async () => {
    const p1Apps = [
      { application: 'Excel', durationMs: 2 * HOUR + 20 * MINUTE },
      { application: 'Chrome', durationMs: HOUR },
    ];
    expect(await ok('top_applications', { ...RANGE, user: p1 })).toEqual(p1Apps);
    expect(await ok('top_applications', { ...RANGE, role })).toEqual(p1Apps);
    expect(await ok('top_applications', { ...RANGE, department: d1 })).toEqual(await ok('top_applications', RANGE));
    expect(await ok('top_applications', { ...RANGE, department: d2 })).toEqual([
      { application: 'Slack', durationMs: 2.5 * HOUR },
      { application: 'Excel', durationMs: HOUR },
    ]);
    expect(await ok('status_summary', { ...RANGE, user: p2 })).toEqual([
      {
        statusId: s1,
        name: 'Break',
        color: '#ff0000',
        people: 1,
        count: 1,
        durationMs: 1.5 * HOUR,
        averageMs: 1.5 * HOUR,
      },
    ]);
    // A user in D2 but not of the role: nobody left.
    expect(await ok('top_applications', { ...RANGE, department: d2, role })).toEqual([]);
  });

  it('serves all sixteen keys through the route, each in its shape, with and without filters', async () => {
    for (const key of WIDGET_KEYS) {
      for (const query of [RANGE, { ...RANGE, department: d1, tz: BERLIN }]) {
        const body = await ok(key, query);
        expect(WIDGET_ANSWERS[key].safeParse(body).success, key).toBe(true);
      }
    }
  });

  it('refuses hostile queries with 400 or 404, never 500', async () => {
    const cases: [string, Record<string, string | number | undefined>, number, string][] = [
      ['top_applications', { from: RANGE.to, to: RANGE.from }, 400, 'ERROR_REPORT_RANGE_INVALID'],
      ['top_applications', { ...RANGE, tz: 'Mars/Olympus' }, 400, 'ERROR_REPORT_TIME_ZONE_INVALID'],
      ['top_applications', { ...RANGE, user: '99999999999999999999' }, 400, 'ERROR_USER_NOT_EXIST'],
      ['top_applications', { ...RANGE, department: 'x' }, 400, 'ERROR_DEPARTMENT_NOT_EXIST'],
      ['top_applications', { ...RANGE, role: 2_147_483_000 }, 404, 'ERROR_ROLE_NOT_EXIST'],
      ['top_applications', { from: 'x', to: RANGE.to }, 400, 'ERROR_REPORT_RANGE_INVALID'],
      ['no_such_widget', RANGE, 404, 'ERROR_WIDGET_NOT_EXIST'],
    ];
    for (const [key, query, status, error] of cases) {
      const answer = await widget<{ key: string }>(key, query);
      expect([key, query, answer.status, answer.body.key]).toEqual([key, query, status, error]);
    }
  });

  it('hides one company from another', async () => {
    const other = await createCompany(t.database.db, { name: 'Monitor South' });
    const outsider = await tokenWithEveryAuthority(t, other);
    expect(await ok('top_applications', RANGE, outsider)).toEqual([]);
    expect(await ok('active_users', RANGE, outsider)).toEqual({ online: 0, active: 0, total: 1 });
    for (const [filter, error] of [
      [{ user: p1 }, 'ERROR_USER_NOT_EXIST'],
      [{ department: d1 }, 'ERROR_DEPARTMENT_NOT_EXIST'],
      [{ role }, 'ERROR_ROLE_NOT_EXIST'],
    ] as const) {
      const answer = await widget<{ key: string }>('top_applications', { ...RANGE, ...filter }, outsider);
      expect([answer.status, answer.body.key]).toEqual([404, error]);
    }
  });

  it('needs ACCESS_MONITOR_REPORT_TAB', async () => {
    await expectRefusedWithoutAuthority(t, company, [
      {
        method: 'GET',
        path: `/api${MONITOR_PATHS.widget('top_applications')}?${queryString(RANGE)}`,
        authorities: ['ACCESS_MONITOR_REPORT_TAB'],
      },
    ]);
  });
});
