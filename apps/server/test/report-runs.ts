import { randomUUID } from 'node:crypto';
import type { ExecutionReport, ExecutionStatus, QueuedWorkflow } from '@opsdeck/contract/live';
import type { Db } from '../src/db/client';
import {
  createExecutionLogsService,
  type ExecutingAgent,
  type ExecutionLogsService,
} from '../src/modules/execution-logs/service';
import type { EventBus } from '../src/platform/events';
import { ADMIN, startTestApp, type TestApp } from './app';
import { type AgentKeyPerson, createAgentKey, createCompany, createWorkflowRow, type TestCompany } from './factories';
import { tokenFor } from './sign-in';

/** Runs for the report tests, stored through the ingest service as agents' reports are. */

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** UTC midnight of today: the tests' runs are in the days before it (the ingest refuses runs ahead of now). */
export const TODAY = Date.now() - (Date.now() % DAY);

/**
 * The ingest service with a clock the test sets (`clock.now`): queued runs are counted at the
 * moment the server hears of them, so a test names that moment. Ten years of retention.
 */
export function testIngest(db: Db, events?: EventBus) {
  const clock = { now: Date.now() };
  const service: ExecutionLogsService = createExecutionLogsService({
    db,
    // The app's bus: what the ingest stores is announced as the app's own ingest announces it.
    ...(events ? { events } : {}),
    retentionDays: 3650,
    now: () => clock.now,
  });
  return { clock, service };
}

export type TestIngest = ReturnType<typeof testIngest>;

/** The report tests' app: started, the admin signed in (`admin`, a token), an ingest of its database. */
export async function startReportApp() {
  const t = await startTestApp();
  return {
    t,
    admin: await t.login(ADMIN.email, ADMIN.password),
    ingest: testIngest(t.database.db, t.app.services.events),
  };
}

/** A report call of the app `t()`: GET `/api` + `path` with its query, as `token` (in `tenantId` when given). */
export const reportCall =
  (t: () => TestApp) =>
  <T>(path: string, query: Record<string, string | number | undefined>, token: string, tenantId?: string) =>
    t().call<T>(`/api${path}?${queryString(query)}`, { token, ...(tenantId ? { tenantId } : {}) });

export type TestAgent = { company: TestCompany; agent: ExecutingAgent; accountId: number };

/** A company's key as a connected agent (its machine named by `macAddress` and `hostname`). */
export async function agentOf(
  db: Db,
  company: TestCompany,
  person: AgentKeyPerson = {},
  machine: { macAddress?: string; hostname?: string } = {},
): Promise<TestAgent> {
  const key = await createAgentKey(db, company, person);
  return {
    company,
    accountId: key.accountId,
    agent: { ...key.agent, ...machine, hostname: machine.hostname ?? 'agent-host' },
  };
}

/** A company with a key and named workflows, and a user holding the report authorities. */
export async function reportCompany(t: TestApp, workflowNames: readonly string[], name?: string) {
  const db = t.database.db;
  const company = await createCompany(db, name ? { name } : {});
  const agent = await agentOf(db, company);
  const workflows: number[] = [];
  for (const workflowName of workflowNames) workflows.push(await createWorkflowRow(db, company, workflowName));
  const token = await tokenFor(t, company, ['ACCESS_AGENT_REPORT_TAB', 'VIEW_ERROR_LOGS']);
  return { company, agent, workflows, token };
}

export type Run = {
  workflowId: number;
  start: number;
  end: number;
  status?: ExecutionStatus;
  errorMessage?: string | null;
  errorActivity?: string | null;
};

export const reportOf = (run: Run): ExecutionReport => ({
  id: randomUUID(),
  workflowId: run.workflowId,
  executionStart: run.start,
  executionEnd: run.end,
  statusType: run.status ?? 'success',
  errorMessage: run.errorMessage ?? null,
  errorActivity: run.errorActivity ?? null,
});

/** Stores runs as an agent's reports (together, as the ingest batches them); answers the reports. */
export async function storeRuns(service: ExecutionLogsService, agent: TestAgent, runs: readonly Run[]) {
  const reports = runs.map(reportOf);
  const results = await Promise.all(reports.map((report) => service.record(agent.agent, report)));
  const refused = results.filter((result) => !result.stored);
  if (refused.length) throw new Error(`${refused.length} of ${runs.length} runs not stored`);
  return reports;
}

/** An `/agent/queue` entry an agent announces. */
export const queueEntry = (id: number, workflowId: number): QueuedWorkflow => ({
  id,
  workflowId,
  name: 'queued',
  status: 'QUEUED',
  position: 1,
  executionStart: null,
});

/** A query string of defined values. */
export function queryString(params: Record<string, string | number | undefined>) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  return search.toString();
}

/**
 * The first instant (whole second) of a local date of `timeZone`, by bisection over what Intl
 * formats as that zone's date: independent of the server's own day arithmetic (reports/ranges.ts).
 */
export function localDayStart(date: string, timeZone: string): number {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  let low = Math.floor((Date.parse(`${date}T00:00:00Z`) - 16 * HOUR) / 1000);
  let high = Math.floor((Date.parse(`${date}T00:00:00Z`) + 16 * HOUR) / 1000);
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (format.format(mid * 1000) >= date) high = mid;
    else low = mid + 1;
  }
  return low * 1000;
}

/** The local date ('YYYY-MM-DD') of an instant in `timeZone`. */
export const localDateOf = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);

/** The local days of `timeZone` from the one holding `from` to the one holding `to`, with their bounds. */
export function localDays(from: number, to: number, timeZone: string) {
  const days: { date: string; start: number; end: number }[] = [];
  const last = localDateOf(to, timeZone);
  for (let date = localDateOf(from, timeZone); date <= last; date = nextDate(date)) {
    days.push({ date, start: localDayStart(date, timeZone), end: localDayStart(nextDate(date), timeZone) });
  }
  return days;
}

/** Milliseconds two half-open spans share. */
export const overlap = (from: number, to: number, otherFrom: number, otherTo: number) =>
  Math.max(0, Math.min(to, otherTo) - Math.max(from, otherFrom));

/** What total-hours should answer for these runs: each run's time inside each whole local day. */
export function expectedHours(runs: readonly Run[], from: number, to: number, timeZone: string) {
  return localDays(from, to, timeZone).map((day) => ({
    date: day.date,
    executionTime: runs.reduce((sum, run) => sum + overlap(run.start, run.end, day.start, day.end), 0),
  }));
}
