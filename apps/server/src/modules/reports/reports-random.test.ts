import type { ExecutionReport, ExecutionStatus } from '@opsdeck/contract/live';
import type { Page } from '@opsdeck/contract/paging';
import {
  type ExecutionLog,
  type ExecutionTimeEntry,
  LOG_CSV_COLUMNS,
  type Metrics,
  REPORT_PATHS,
  type UseCount,
} from '@opsdeck/contract/reports';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { csvObjects } from '../../../test/csv';
import { createWorkflowRow } from '../../../test/factories';
import {
  DAY,
  expectedHours,
  HOUR,
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
import { selectRows } from '../../db/client';
import { BUCKET_MS } from '../execution-logs/queries';

/**
 * The rollup reads against the truth: a few thousand random runs and queued runs of two companies,
 * then random ranges (unaligned to the millisecond, or on bucket and day boundaries) asked of
 * every call and compared with the same answer computed from the runs themselves.
 */

let t: TestApp;
let admin: string;
type Tenant = Awaited<ReturnType<typeof reportCompany>> & {
  names: Map<number, string>;
  runs: (Run & { id: string; status: ExecutionStatus; errorMessage: string | null })[];
  queued: { workflowId: number; at: number }[];
};
const tenants: Tenant[] = [];

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}
const rnd = random(16);
const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)]!;

const WINDOW_FROM = TODAY - 9 * DAY;
const WINDOW_TO = TODAY - 2 * DAY;
const STATUSES: ExecutionStatus[] = ['success', 'success', 'faulted', 'unknown'];
const MESSAGES = [null, null, 'Timeout, retrying', 'He said "no"', '=1+2', 'two\r\nlines', '-1 items', '@once', 'ok'];

/** A time in the window, now and then on a bucket or day boundary, or a millisecond off one. */
function randomTime(from: number, to: number) {
  const at = from + Math.floor(rnd() * (to - from));
  const roll = rnd();
  if (roll < 0.1) return at - (at % BUCKET_MS);
  if (roll < 0.15) return at - (at % DAY) - 1;
  if (roll < 0.2) return at - (at % DAY);
  return at;
}

beforeAll(async () => {
  let ingest: TestIngest;
  ({ t, admin, ingest } = await startReportApp());
  for (const [index, count] of [1_400, 700].entries()) {
    const tenant = await reportCompany(t, [`Alpha ${index}`, `Beta ${index}`]);
    const archived = await createWorkflowRow(t.database.db, tenant.company, `Gamma ${index}`, true);
    const workflows = [...tenant.workflows, archived];
    const names = new Map(workflows.map((id, i) => [id, [`Alpha ${index}`, `Beta ${index}`, `Gamma ${index}`][i]!]));
    const runs: Run[] = [];
    for (let i = 0; i < count; i += 1) {
      const start = randomTime(WINDOW_FROM, WINDOW_TO);
      const length = pick([
        0,
        1,
        Math.floor(rnd() * MINUTE),
        Math.floor(rnd() * 2 * HOUR),
        Math.floor(rnd() * 30 * HOUR),
      ]);
      const status = pick(STATUSES);
      runs.push({
        workflowId: pick(workflows),
        start,
        end: start + length,
        status,
        errorMessage: status === 'faulted' ? pick(MESSAGES) : null,
      });
    }
    const reports: ExecutionReport[] = [];
    for (let i = 0; i < runs.length; i += 250)
      reports.push(...(await storeRuns(ingest.service, tenant.agent, runs.slice(i, i + 250))));
    const queued: Tenant['queued'] = [];
    for (let entry = 1; entry <= 120; entry += 1) {
      const at = randomTime(WINDOW_FROM, WINDOW_TO);
      const workflowId = pick(workflows);
      ingest.clock.now = at;
      await ingest.service.recordQueue(tenant.agent.agent, {
        added: [queueEntry(entry, workflowId)],
        updated: [],
        removed: [],
      });
      queued.push({ workflowId, at });
    }
    ingest.clock.now = Date.now();
    tenants.push({
      ...tenant,
      workflows,
      names,
      queued,
      runs: runs.map((run, i) => ({
        ...run,
        id: reports[i]!.id,
        status: run.status!,
        errorMessage: run.errorMessage ?? null,
      })),
    });
  }
}, 120_000);

afterAll(async () => {
  await t.close();
});

const get = reportCall(() => t);

/** A random range: from a millisecond to eight days, ends anywhere or on boundaries. */
function randomRange() {
  const from = randomTime(WINDOW_FROM - DAY, WINDOW_TO);
  const length = pick([
    0,
    1,
    Math.floor(rnd() * BUCKET_MS),
    Math.floor(rnd() * 3 * HOUR),
    Math.floor(rnd() * 2 * DAY),
    Math.floor(rnd() * 8 * DAY),
  ]);
  const roll = rnd();
  // An aligned end: the last millisecond before a bucket or day boundary.
  const to = roll < 0.2 ? Math.max(from, from + length - ((from + length) % BUCKET_MS) - 1) : from + length;
  return { from, to };
}

function truth(tenant: Tenant, from: number, to: number) {
  const inRange = tenant.runs.filter((run) => run.start >= from && run.start <= to);
  const count = (status: ExecutionStatus) => inRange.filter((run) => run.status === status).length;
  const uses = new Map<number, number>();
  for (const run of inRange) uses.set(run.workflowId, (uses.get(run.workflowId) ?? 0) + 1);
  return {
    inRange,
    metrics: {
      completedWorkflowCount: count('success'),
      failedWorkflowCount: count('faulted'),
      scheduledWorkflowCount: tenant.queued.filter((entry) => entry.at >= from && entry.at <= to).length,
    },
    useCounts: [...uses.entries()]
      .map(([id, useCount]) => ({ workflowName: tenant.names.get(id)!, useCount }))
      .sort((a, b) => b.useCount - a.useCount || a.workflowName.localeCompare(b.workflowName)),
  };
}

describe('the report calls against the runs themselves', () => {
  it('answer every call exactly for random ranges', async () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu'];
    for (let i = 0; i < 30; i += 1) {
      const { from, to } = randomRange();
      const tenant = tenants[i % tenants.length]!;
      const expected = truth(tenant, from, to);
      const label = `range ${i}: ${from}..${to}`;
      const metrics = await get<Metrics>(REPORT_PATHS.metrics, { from, to }, tenant.token);
      expect(metrics.body, label).toEqual(expected.metrics);
      const uses = await get<UseCount[]>(REPORT_PATHS.useCounts, { from, to, limit: 1000 }, tenant.token);
      expect(uses.body, label).toEqual(expected.useCounts);
      const tz = zones[i % zones.length]!;
      const hours = await get<ExecutionTimeEntry[]>(REPORT_PATHS.totalHours, { from, to, tz }, tenant.token);
      expect(hours.body, `${label} ${tz}`).toEqual(expectedHours(tenant.runs, from, to, tz));
      const logs = await get<Page<ExecutionLog>>(REPORT_PATHS.logs, { from, to, page: 1, size: 5 }, tenant.token);
      expect(logs.body.total, label).toBe(expected.inRange.length);
      expect(
        logs.body.items.map((row) => row.id),
        label,
      ).toEqual(
        [...expected.inRange]
          .sort((a, b) => b.start - a.start || (a.id < b.id ? 1 : -1))
          .slice(0, 5)
          .map((run) => run.id),
      );
      const exceptions = await get<Page<ExecutionLog>>(REPORT_PATHS.exceptions, { from, to, page: 1 }, tenant.token);
      expect(exceptions.body.total, label).toBe(expected.metrics.failedWorkflowCount);
      // With a search, the total is counted over the rows: the same rule.
      const name = tenant.names.get(tenant.workflows[0]!)!;
      const searched = await get<Page<ExecutionLog>>(
        REPORT_PATHS.exceptions,
        { from, to, page: 1, search: name },
        tenant.token,
      );
      expect(searched.body.total, label).toBe(
        expected.inRange.filter((run) => run.status === 'faulted' && run.workflowId === tenant.workflows[0]).length,
      );
    }
  });

  it('answer an admin of every company as a plain count of the raw rows does', async () => {
    for (let i = 0; i < 8; i += 1) {
      const { from, to } = randomRange();
      const [row] = await selectRows<{ succeeded: number; faulted: number; queued: number; total: number }>(
        t.database.db,
        sql`select
          (select count(*) from execution_logs where status_type = 'success' and execution_start between ${from} and ${to})::int as succeeded,
          (select count(*) from execution_logs where status_type = 'faulted' and execution_start between ${from} and ${to})::int as faulted,
          (select count(*) from queued_runs where queued_at between ${from} and ${to})::int as queued,
          (select count(*) from execution_logs where execution_start between ${from} and ${to})::int as total`,
      );
      expect((await get<Metrics>(REPORT_PATHS.metrics, { from, to }, admin)).body).toEqual({
        completedWorkflowCount: row!.succeeded,
        failedWorkflowCount: row!.faulted,
        scheduledWorkflowCount: row!.queued,
      });
      const logs = await get<Page<ExecutionLog>>(REPORT_PATHS.logs, { from, to, page: 1 }, admin);
      expect(logs.body.total).toBe(row!.total);
    }
  });

  it('exports every run of a range as CSV, over several batches, the same rows as the pages', async () => {
    const tenant = tenants[0]!;
    const from = WINDOW_FROM;
    const to = WINDOW_TO;
    const result = await get<string>(REPORT_PATHS.logs, { from, to, format: 'csv' }, tenant.token);
    expect(result.status).toBe(200);
    const records = csvObjects(new TextDecoder().decode(result.bytes));
    expect(records.length).toBe(tenant.runs.filter((run) => run.start >= from && run.start <= to).length);
    expect(records.length).toBeGreaterThan(1_000);
    const pages: ExecutionLog[] = [];
    for (let page = 1; pages.length < records.length; page += 1) {
      const next = await get<Page<ExecutionLog>>(REPORT_PATHS.logs, { from, to, page, size: 100 }, tenant.token);
      expect(next.body.items.length).toBeGreaterThan(0);
      pages.push(...next.body.items);
    }
    const neutral = (text: string | null) => (text === null ? '' : /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    expect(records).toEqual(
      pages.map((row) => ({
        id: row.id,
        executionStart: new Date(row.executionStart).toISOString(),
        executionEnd: new Date(row.executionEnd).toISOString(),
        runtimeSeconds: String((row.executionEnd - row.executionStart) / 1000),
        statusType: row.statusType,
        workflowName: row.workflowName,
        workflowVersion: row.workflowVersion === null ? '' : String(row.workflowVersion),
        errorMessage: neutral(row.errorMessage),
        errorActivity: neutral(row.errorActivity),
        executedByFirstName: row.executedBy.firstName,
        executedByLastName: row.executedBy.lastName,
        emailAddress: row.emailAddress ?? '',
        macAddress: row.macAddress,
        hostname: row.hostname ?? '',
        companyName: row.companyName ?? '',
        departmentName: row.departmentName ?? '',
      })),
    );
    expect(Object.keys(records[0]!)).toEqual([...LOG_CSV_COLUMNS]);
    // The tricky messages made it through intact.
    expect(records.some((record) => record.errorMessage === 'two\r\nlines')).toBe(true);
    expect(records.some((record) => record.errorMessage === "'=1+2")).toBe(true);
  });
});
