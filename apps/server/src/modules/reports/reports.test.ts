import type {
  ExecutionException,
  ExecutionLog,
  ExecutionTimeEntry,
  Metrics,
  UseCount,
} from '@opsdeck/contract/reports';
import { REPORT_PATHS } from '@opsdeck/contract/reports';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectRefusedWithoutAuthority } from '../../../test/access-table';
import type { TestApp } from '../../../test/app';
import { createCompany, createWorkflowRow } from '../../../test/factories';
import {
  agentOf,
  DAY,
  expectedHours,
  HOUR,
  localDateOf,
  localDayStart,
  localDays,
  MINUTE,
  queueEntry,
  type Run,
  reportCall,
  reportCompany,
  startReportApp,
  storeRuns,
  type TestIngest,
  TODAY,
} from '../../../test/report-runs';
import { tokenWithEveryAuthority } from '../../../test/sign-in';
import { workflows } from '../../db/schema';

type ErrorBody = { key: string; fields?: Record<string, string> };

let t: TestApp;
let admin: string;
let ingest: TestIngest;
/** The company most tests read, its runs in the day `DAY_ONE`. */
let north: Awaited<ReturnType<typeof reportCompany>>;
let south: Awaited<ReturnType<typeof reportCompany>>;

const DAY_ONE = TODAY - 20 * DAY;

beforeAll(async () => {
  ({ t, admin, ingest } = await startReportApp());
  north = await reportCompany(t, ['Invoice intake', 'Payroll run'], 'North Reports');
  south = await reportCompany(t, ['South flow'], 'South Reports');
});

afterAll(async () => {
  await t.close();
});

const call = reportCall(() => t);

const metrics = (from: number, to: number, token = north.token, tenantId?: string) =>
  call<Metrics>(REPORT_PATHS.metrics, { from, to }, token, tenantId);

describe('the report calls over one day', () => {
  let archivedWorkflow: number;
  const runs: Run[] = [];

  beforeAll(async () => {
    archivedWorkflow = await createWorkflowRow(t.database.db, north.company, 'Old export', true);
    const [invoices, payroll] = north.workflows as [number, number];
    runs.push(
      { workflowId: invoices, start: DAY_ONE + 10 * HOUR, end: DAY_ONE + 10.5 * HOUR },
      {
        workflowId: payroll,
        start: DAY_ONE + 10 * HOUR + 5 * MINUTE,
        end: DAY_ONE + 10 * HOUR + 6 * MINUTE,
        status: 'faulted',
        errorMessage: 'Timeout, "page"',
        errorActivity: 'Open browser',
      },
      { workflowId: invoices, start: DAY_ONE + 11 * HOUR, end: DAY_ONE + 11 * HOUR + 1_234, status: 'unknown' },
      { workflowId: archivedWorkflow, start: DAY_ONE + 12 * HOUR, end: DAY_ONE + 12 * HOUR, status: 'faulted' },
      // Started the day before, ended inside: not a run of the day, but 30 of its minutes are.
      { workflowId: invoices, start: DAY_ONE - 30 * MINUTE, end: DAY_ONE + 30 * MINUTE, status: 'faulted' },
    );
    await storeRuns(ingest.service, north.agent, runs);
    // Another company's run that day: never in north's answers.
    await storeRuns(ingest.service, south.agent, [
      { workflowId: south.workflows[0]!, start: DAY_ONE + 9 * HOUR, end: DAY_ONE + 13 * HOUR, status: 'faulted' },
    ]);
  });

  const dayEnd = DAY_ONE + DAY - 1;

  it('metrics: the runs that started in the range by outcome', async () => {
    const result = await metrics(DAY_ONE, dayEnd);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ completedWorkflowCount: 1, failedWorkflowCount: 2, scheduledWorkflowCount: 0 });
  });

  it('use counts: runs per workflow of every outcome, most first, ties by name, current names, archived too', async () => {
    const result = await call<UseCount[]>(REPORT_PATHS.useCounts, { from: DAY_ONE, to: dayEnd }, north.token);
    expect(result.status).toBe(200);
    expect(result.body).toEqual([
      { workflowName: 'Invoice intake', useCount: 2 },
      { workflowName: 'Old export', useCount: 1 },
      { workflowName: 'Payroll run', useCount: 1 },
    ]);
    const top = await call<UseCount[]>(REPORT_PATHS.useCounts, { from: DAY_ONE, to: dayEnd, limit: 2 }, north.token);
    expect(top.body.map((row) => row.workflowName)).toEqual(['Invoice intake', 'Old export']);
    // The workflow's name now, not the one it had when it ran.
    const rename = (name: string) =>
      t.database.db.update(workflows).set({ name }).where(eq(workflows.id, north.workflows[1]!));
    await rename('Payroll (renamed)');
    const renamed = await call<UseCount[]>(REPORT_PATHS.useCounts, { from: DAY_ONE, to: dayEnd }, north.token);
    expect(renamed.body.map((row) => row.workflowName)).toContain('Payroll (renamed)');
    await rename('Payroll run');
  });

  it('total hours: each whole day of the zone, from the day of `from` to the day of `to`, empty days as zero', async () => {
    // from and to inside their days: the days are whole all the same.
    const from = DAY_ONE - DAY + 23 * HOUR;
    const to = DAY_ONE + DAY + 1;
    const result = await call<ExecutionTimeEntry[]>(REPORT_PATHS.totalHours, { from, to }, north.token);
    expect(result.status).toBe(200);
    const dates = [DAY_ONE - DAY, DAY_ONE, DAY_ONE + DAY].map((day) => new Date(day).toISOString().slice(0, 10));
    expect(result.body).toEqual([
      { date: dates[0], executionTime: 30 * MINUTE },
      { date: dates[1], executionTime: 30 * MINUTE + 30 * MINUTE + MINUTE + 1_234 },
      { date: dates[2], executionTime: 0 },
    ]);
    expect(result.body).toEqual(expectedHours(runs, from, to, 'UTC'));
  });

  it('exceptions: the faulted runs that started in the range, newest first, with what the details need', async () => {
    const result = await call<ExecutionException[]>(
      REPORT_PATHS.exceptions,
      { from: DAY_ONE, to: dayEnd },
      north.token,
    );
    expect(result.status).toBe(200);
    expect(result.body.map((row) => row.workflowName)).toEqual(['Old export', 'Payroll run']);
    expect(result.body[1]).toEqual({
      id: expect.any(String),
      executionStart: DAY_ONE + 10 * HOUR + 5 * MINUTE,
      workflowId: north.workflows[1],
      workflowName: 'Payroll run',
      workflowVersion: null,
      errorMessage: 'Timeout, "page"',
      errorActivity: 'Open browser',
      executedBy: { id: null, firstName: 'Amara', lastName: 'Okoye' },
      emailAddress: null,
      macAddress: north.agent.agent.macAddress,
      hostname: 'agent-host',
    });
  });

  it('logs: every run that started in the range, with end, status, company and department', async () => {
    const result = await call<ExecutionLog[]>(REPORT_PATHS.logs, { from: DAY_ONE, to: dayEnd }, north.token);
    expect(result.status).toBe(200);
    expect(result.body.map((row) => [row.statusType, row.executionStart])).toEqual([
      ['faulted', DAY_ONE + 12 * HOUR],
      ['unknown', DAY_ONE + 11 * HOUR],
      ['faulted', DAY_ONE + 10 * HOUR + 5 * MINUTE],
      ['success', DAY_ONE + 10 * HOUR],
    ]);
    expect(result.body[1]).toMatchObject({
      executionEnd: DAY_ONE + 11 * HOUR + 1_234,
      companyName: 'North Reports',
      departmentName: null,
    });
  });

  it('counts from = to, and ranges cut at the millisecond', async () => {
    const start = DAY_ONE + 10 * HOUR + 5 * MINUTE;
    expect((await metrics(start, start)).body).toMatchObject({ failedWorkflowCount: 1 });
    expect((await metrics(start + 1, start + 1)).body).toMatchObject({ failedWorkflowCount: 0 });
    expect((await metrics(start - 1, start - 1)).body).toMatchObject({ failedWorkflowCount: 0 });
    // 09:59:59.999 to 10:05:00.000: the success at 10:00 and the fault at 10:05, both ends included.
    expect((await metrics(DAY_ONE + 10 * HOUR - 1, start)).body).toEqual({
      completedWorkflowCount: 1,
      failedWorkflowCount: 1,
      scheduledWorkflowCount: 0,
    });
    expect((await metrics(DAY_ONE + 10 * HOUR + 1, start - 1)).body).toMatchObject({
      completedWorkflowCount: 0,
      failedWorkflowCount: 0,
    });
    // The run that started the day before counts there.
    expect((await metrics(DAY_ONE - DAY, DAY_ONE - 1)).body).toMatchObject({ failedWorkflowCount: 1 });
  });

  it('admins read every company, or the one X-Tenant-Id names', async () => {
    const every = await metrics(DAY_ONE, dayEnd, admin);
    expect(every.body.failedWorkflowCount).toBeGreaterThanOrEqual(3);
    expect((await metrics(DAY_ONE, dayEnd, admin, south.company.tenantId)).body).toEqual({
      completedWorkflowCount: 0,
      failedWorkflowCount: 1,
      scheduledWorkflowCount: 0,
    });
    const named = await call<ExecutionLog[]>(
      REPORT_PATHS.logs,
      { from: DAY_ONE, to: dayEnd },
      admin,
      north.company.tenantId,
    );
    expect(named.body).toHaveLength(4);
  });
});

describe('resent reports and queued runs', () => {
  it('counts a report sent twice once, in every call', async () => {
    const day = TODAY - 19 * DAY;
    const [report] = await storeRuns(ingest.service, north.agent, [
      { workflowId: north.workflows[0]!, start: day + HOUR, end: day + 2 * HOUR, status: 'faulted' },
    ]);
    expect(await ingest.service.record(north.agent.agent, report!)).toMatchObject({ stored: false });
    expect((await metrics(day, day + DAY - 1)).body).toMatchObject({ failedWorkflowCount: 1 });
    const hours = await call<ExecutionTimeEntry[]>(REPORT_PATHS.totalHours, { from: day, to: day }, north.token);
    expect(hours.body).toEqual([{ date: localDateOf(day, 'UTC'), executionTime: HOUR }]);
    const list = await call<{ total: number }>(
      REPORT_PATHS.exceptions,
      { from: day, to: day + DAY - 1, page: 1 },
      north.token,
    );
    expect(list.body.total).toBe(1);
  });

  it('shows a run stored after a page was read: the kept page goes with the run, for the company and for every company', async () => {
    const day = TODAY - 18 * DAY;
    const range = { from: day, to: day + DAY - 1, page: 1 };
    type Listed = { total: number; items: { id: string }[] };
    const read = async (token: string) => (await call<Listed>(REPORT_PATHS.logs, range, token)).body;
    const [first] = await storeRuns(ingest.service, north.agent, [
      { workflowId: north.workflows[0]!, start: day + HOUR, end: day + 2 * HOUR, status: 'success' },
    ]);
    expect((await read(north.token)).items.map((row) => row.id)).toEqual([first!.id]);
    expect((await read(admin)).items.map((row) => row.id)).toEqual([first!.id]);
    // Read again from the kept page, then a run of each company: each page that holds it shows it.
    expect((await read(north.token)).total).toBe(1);
    const [second] = await storeRuns(ingest.service, north.agent, [
      { workflowId: north.workflows[0]!, start: day + 3 * HOUR, end: day + 4 * HOUR, status: 'faulted' },
    ]);
    const [third] = await storeRuns(ingest.service, south.agent, [
      { workflowId: south.workflows[0]!, start: day + 5 * HOUR, end: day + 6 * HOUR, status: 'success' },
    ]);
    expect(await read(north.token)).toMatchObject({ total: 2, items: [{ id: second!.id }, { id: first!.id }] });
    expect(await read(admin)).toMatchObject({
      total: 3,
      items: [{ id: third!.id }, { id: second!.id }, { id: first!.id }],
    });
  });

  it('counts runs queued when the server hears of them, an entry announced twice while open once', async () => {
    const agent = await agentOf(t.database.db, north.company);
    const [invoices, payroll] = north.workflows as [number, number];
    const at = TODAY - 18 * DAY + 7 * HOUR + 3 * MINUTE + 17_345;
    ingest.clock.now = at;
    const added = [queueEntry(1, invoices), queueEntry(2, payroll)];
    expect(await ingest.service.recordQueue(agent.agent, { added, updated: [], removed: [] })).toEqual({ queued: 2 });
    // Announced again after a reconnection: still open, not counted again.
    ingest.clock.now = at + 1;
    expect(await ingest.service.recordQueue(agent.agent, { added, updated: [], removed: [] })).toEqual({ queued: 0 });
    // Removed, then queued again later: a new run.
    ingest.clock.now = at + 2 * HOUR;
    await ingest.service.recordQueue(agent.agent, { added: [], updated: [], removed: [1] });
    expect(await ingest.service.recordQueue(agent.agent, { added: [added[0]!], updated: [], removed: [] })).toEqual({
      queued: 1,
    });
    ingest.clock.now = Date.now();

    expect((await metrics(at, at)).body).toEqual({
      completedWorkflowCount: 0,
      failedWorkflowCount: 0,
      scheduledWorkflowCount: 2,
    });
    expect((await metrics(at + 1, at + 2 * HOUR - 1)).body.scheduledWorkflowCount).toBe(0);
    expect((await metrics(at - DAY, at + DAY)).body.scheduledWorkflowCount).toBe(3);
    expect((await metrics(at + 2 * HOUR, at + 2 * HOUR)).body.scheduledWorkflowCount).toBe(1);
    // Queued runs are not uses.
    expect((await call<UseCount[]>(REPORT_PATHS.useCounts, { from: at, to: at }, north.token)).body).toEqual([]);
  });
});

describe('executed time per day of a time zone', () => {
  /** The latest day of `timeZone` before the last few days that is `hours` long. */
  function lastDayOfLength(timeZone: string, hours: number) {
    for (let back = 5; back < 380; back += 1) {
      const date = localDateOf(TODAY - back * DAY, timeZone);
      const [day] = localDays(localDayStart(date, timeZone), localDayStart(date, timeZone), timeZone);
      if (day!.end - day!.start === hours * HOUR) return day!;
    }
    throw new Error(`no ${hours}-hour day in ${timeZone} in the last year`);
  }

  const cases = [
    ['Europe/Berlin', 23],
    ['Europe/Berlin', 25],
    ['America/New_York', 23],
    ['America/New_York', 25],
  ] as const;

  it.each(cases)('answers a month of %s across its %i-hour day, day by day', async (timeZone, hours) => {
    const company = await reportCompany(t, ['Clock change']);
    const day = lastDayOfLength(timeZone, hours);
    const workflowId = company.workflows[0]!;
    const runs: Run[] = [
      // The whole day, and a run over the midnight that starts it.
      { workflowId, start: day.start, end: day.end },
      { workflowId, start: day.start - 30 * MINUTE, end: day.start + 45 * MINUTE },
      // Over the next midnight, at odd milliseconds.
      { workflowId, start: day.end - 17 * MINUTE - 333, end: day.end + 2 * HOUR + 7 },
    ];
    await storeRuns(ingest.service, company.agent, runs);
    const month = day.date.slice(0, 7);
    const from = localDayStart(`${month}-01`, timeZone);
    const nextMonth = new Date(Date.parse(`${month}-01T00:00:00Z`) + 32 * DAY).toISOString().slice(0, 7);
    const to = localDayStart(`${nextMonth}-01`, timeZone) - 1;
    const result = await call<ExecutionTimeEntry[]>(REPORT_PATHS.totalHours, { from, to, tz: timeZone }, company.token);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(expectedHours(runs, from, to, timeZone));
    expect(result.body[0]!.date).toBe(`${month}-01`);
    expect(result.body.find((entry) => entry.date === day.date)).toEqual({
      date: day.date,
      executionTime: hours * HOUR + 45 * MINUTE + 17 * MINUTE + 333,
    });
  });

  it('puts the day boundaries of a +05:45 zone (Asia/Kathmandu) at 18:15 UTC', async () => {
    const company = await reportCompany(t, ['Himalaya']);
    const day = TODAY - 15 * DAY;
    const runs: Run[] = [
      // 23:45 to 00:15 in Kathmandu: 15 minutes to each day.
      { workflowId: company.workflows[0]!, start: day + 18 * HOUR, end: day + 18.5 * HOUR },
      {
        workflowId: company.workflows[0]!,
        start: day + 18 * HOUR + 15 * MINUTE - 1,
        end: day + 18 * HOUR + 15 * MINUTE + 1,
      },
    ];
    await storeRuns(ingest.service, company.agent, runs);
    const result = await call<ExecutionTimeEntry[]>(
      REPORT_PATHS.totalHours,
      { from: day + 12 * HOUR, to: day + 20 * HOUR, tz: 'Asia/Kathmandu' },
      company.token,
    );
    expect(result.body).toEqual([
      { date: localDateOf(day + 12 * HOUR, 'Asia/Kathmandu'), executionTime: 15 * MINUTE + 1 },
      { date: localDateOf(day + 20 * HOUR, 'Asia/Kathmandu'), executionTime: 15 * MINUTE + 1 },
    ]);
    // In UTC the same runs are all in one day.
    const utc = await call<ExecutionTimeEntry[]>(REPORT_PATHS.totalHours, { from: day, to: day }, company.token);
    expect(utc.body).toEqual([{ date: localDateOf(day, 'UTC'), executionTime: 30 * MINUTE + 2 }]);
  });
});

describe('authorities and tenants', () => {
  const range = `from=${DAY_ONE}&to=${DAY_ONE + DAY - 1}`;
  const endpoints: Endpoint[] = [
    { method: 'GET', path: `/api${REPORT_PATHS.metrics}?${range}`, authorities: ['ACCESS_AGENT_REPORT_TAB'] },
    { method: 'GET', path: `/api${REPORT_PATHS.useCounts}?${range}`, authorities: ['ACCESS_AGENT_REPORT_TAB'] },
    { method: 'GET', path: `/api${REPORT_PATHS.totalHours}?${range}`, authorities: ['ACCESS_AGENT_REPORT_TAB'] },
    {
      method: 'GET',
      path: `/api${REPORT_PATHS.exceptions}?${range}`,
      authorities: ['VIEW_ERROR_LOGS', 'ACCESS_AGENT_REPORT_TAB'],
    },
    { method: 'GET', path: `/api${REPORT_PATHS.logs}?${range}`, authorities: ['VIEW_ERROR_LOGS'] },
    { method: 'GET', path: `/api${REPORT_PATHS.logs}?${range}&format=csv`, authorities: ['VIEW_ERROR_LOGS'] },
  ];

  it('refuses a caller without the authority (403)', async () => {
    await expectRefusedWithoutAuthority(t, north.company, endpoints);
  });

  it('answers a user of another company with nothing of this one, and 403 when they name it', async () => {
    const outsider = await tokenWithEveryAuthority(t, await createCompany(t.database.db));
    const answers: Record<string, unknown> = {};
    const spoofed: Record<string, number> = {};
    for (const endpoint of endpoints) {
      const plain = await t.call(endpoint.path, { token: outsider });
      expect(plain.status, endpoint.path).toBe(200);
      answers[endpoint.path] = plain.body;
      spoofed[endpoint.path] = (
        await t.call(endpoint.path, { token: outsider, tenantId: north.company.tenantId })
      ).status;
    }
    expect(Object.values(spoofed)).toEqual(endpoints.map(() => 403));
    expect(Object.values(answers)).toEqual([
      { completedWorkflowCount: 0, failedWorkflowCount: 0, scheduledWorkflowCount: 0 },
      [],
      [{ date: localDateOf(DAY_ONE, 'UTC'), executionTime: 0 }],
      [],
      [],
      // The CSV: its header row only.
      expect.stringMatching(/^id,executionStart,executionEnd,[^\r\n]*\r\n$/),
    ]);
    // The same calls as north's own user do see north's runs.
    expect((await metrics(DAY_ONE, DAY_ONE + DAY - 1)).body.failedWorkflowCount).toBe(2);
  });
});

describe('hostile queries', () => {
  const from = DAY_ONE;
  const to = DAY_ONE + DAY - 1;
  const cases: [string, Record<string, string | number>, string][] = [
    [REPORT_PATHS.metrics, { to }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.metrics, { from }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.metrics, { from: 'yesterday', to }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.metrics, { from: '', to }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.metrics, { from: -1, to }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.metrics, { from: 1.5, to }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.metrics, { from: '1e400', to }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.metrics, { from: to, to: from }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.metrics, { from, to: '8640000000000001' }, 'ERROR_REPORT_RANGE_INVALID'],
    [REPORT_PATHS.useCounts, { from, to, limit: 0 }, 'ERROR_REPORT_LIMIT_INVALID'],
    [REPORT_PATHS.useCounts, { from, to, limit: 1001 }, 'ERROR_REPORT_LIMIT_INVALID'],
    [REPORT_PATHS.useCounts, { from, to, limit: 'all' }, 'ERROR_REPORT_LIMIT_INVALID'],
    [REPORT_PATHS.totalHours, { from, to, tz: 'Mars/Olympus_Mons' }, 'ERROR_REPORT_TIME_ZONE_INVALID'],
    [REPORT_PATHS.totalHours, { from, to, tz: '+05:45' }, 'ERROR_REPORT_TIME_ZONE_INVALID'],
    [REPORT_PATHS.totalHours, { from, to, tz: 'x'.repeat(100) }, 'ERROR_REPORT_TIME_ZONE_INVALID'],
    [REPORT_PATHS.totalHours, { from, to: from + 366 * DAY }, 'ERROR_REPORT_RANGE_TOO_LONG'],
    [REPORT_PATHS.exceptions, { from, to, limit: 0 }, 'ERROR_REPORT_LIMIT_INVALID'],
    [REPORT_PATHS.exceptions, { from, to, limit: 1001 }, 'ERROR_REPORT_LIMIT_INVALID'],
    [REPORT_PATHS.exceptions, { from, to, page: 0 }, 'ERROR_GENERAL_INVALID_INPUT'],
    [REPORT_PATHS.exceptions, { from, to, page: 1, size: 101 }, 'ERROR_GENERAL_INVALID_INPUT'],
    [REPORT_PATHS.exceptions, { from, to, search: 'x'.repeat(256) }, 'ERROR_GENERAL_INVALID_INPUT'],
    [REPORT_PATHS.logs, { from, to, sort: 'workflowName,asc' }, 'ERROR_GENERAL_INVALID_INPUT'],
    [REPORT_PATHS.logs, { from, to, format: 'xlsx' }, 'ERROR_GENERAL_INVALID_INPUT'],
    [REPORT_PATHS.logs, { from, to, search: 'x', tz: 'Nowhere/Land' }, 'ERROR_REPORT_TIME_ZONE_INVALID'],
    [REPORT_PATHS.logs, { from, to, search: 'nul\u0000byte' }, 'ERROR_GENERAL_INVALID_INPUT'],
  ];

  it.each(cases)('%s %o answers 400 %s', async (path, query, key) => {
    const result = await call<ErrorBody>(path, query, north.token);
    expect(result.status).toBe(400);
    expect(result.body.key).toBe(key);
  });

  it('takes the widest ranges and odd searches without failing', async () => {
    const widest = { from: 0, to: 8_640_000_000_000_000 };
    expect((await metrics(widest.from, widest.to)).status).toBe(200);
    expect((await call(REPORT_PATHS.useCounts, widest, north.token)).status).toBe(200);
    expect(
      (
        await call(
          REPORT_PATHS.totalHours,
          { from: widest.to - DAY, to: widest.to, tz: 'Pacific/Kiritimati' },
          north.token,
        )
      ).status,
    ).toBe(200);
    expect((await call(REPORT_PATHS.totalHours, { from: 0, to: 0, tz: 'Pacific/Pago_Pago' }, north.token)).status).toBe(
      200,
    );
    for (const search of ['%', '_', '\\', "'; drop table execution_logs; --", 'ü', '2024/']) {
      for (const path of [REPORT_PATHS.exceptions, REPORT_PATHS.logs]) {
        const result = await call<unknown[]>(path, { ...widest, search, page: 2_147_483_647 }, north.token);
        expect(result.status, `${path} ${search}`).toBe(200);
      }
    }
  });
});
