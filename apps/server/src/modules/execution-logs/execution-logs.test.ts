import { randomUUID } from 'node:crypto';
import type { ExecutionReport } from '@opsdeck/contract/live';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import {
  type AgentKeyPerson,
  createAgentKey,
  createCompany,
  createDepartment,
  createUser,
  createWorkflowRow,
  TEST_MAC,
  type TestCompany,
} from '../../../test/factories';
import { selectRows } from '../../db/client';
import { blobs, executionLastRuns, executionLogs, workflows, workflowVersions } from '../../db/schema';
import { EVERY_TENANT, oneTenant } from '../../platform/tenancy';
import { listLogs } from '../reports/queries';
import { insertExecutionLogs, lastExecutions } from './queries';
import { createExecutionLogsService, type ExecutionLogsService, splitFullName } from './service';

let t: TestApp;
let admin: string;
let service: ExecutionLogsService;
let company: TestCompany;
let other: TestCompany;
let department: { id: number };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  service = createExecutionLogsService({ db: t.database.db });
  company = await createCompany(t.database.db);
  other = await createCompany(t.database.db);
  department = await createDepartment(t.database.db, company, { name: 'Dispatch' });
});

afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

const createKey = (owner: TestCompany | null, person: AgentKeyPerson = {}) => createAgentKey(db(), owner, person);
const createWorkflow = (owner: TestCompany, name = 'Invoice intake', archived = false) =>
  createWorkflowRow(db(), owner, name, archived);

/** An hour ago: runs older than the retention (400 days) are acknowledged but not stored. */
const RECENT = Date.now() - 3_600_000;

const report = (workflowId: number, overrides: Partial<ExecutionReport> = {}): ExecutionReport => ({
  id: randomUUID(),
  workflowId,
  executionStart: Date.now() - 60_000,
  executionEnd: Date.now(),
  statusType: 'success',
  errorMessage: null,
  errorActivity: null,
  ...overrides,
});

const logOf = async (id: string) => (await db().select().from(executionLogs).where(eq(executionLogs.id, id)))[0];

describe('recording an execution report', () => {
  it("stores the run with the key's company and department, and the company's user with the key's e-mail as executor", async () => {
    const user = await createUser(db(), { company, email: 'Ada.Lovelace@Northwind.test' });
    const key = await createKey(company, {
      fullName: 'Someone Else',
      email: 'ada.lovelace@northwind.TEST',
      departmentId: department.id,
    });
    const workflowId = await createWorkflow(company);
    const sent = report(workflowId, { executionStart: RECENT, executionEnd: RECENT + 90_000 });
    const before = Date.now();

    expect(await service.record(key.agent, sent)).toMatchObject({ stored: true });
    const log = await logOf(sent.id);
    expect(log).toMatchObject({
      id: sent.id,
      tenantId: company.tenantId,
      companyId: company.id,
      companyName: company.name,
      departmentId: department.id,
      departmentName: 'Dispatch',
      accountId: key.accountId,
      executorUserId: user.id,
      executorFirstName: 'Test',
      emailAddress: 'Ada.Lovelace@Northwind.test',
      macAddress: TEST_MAC,
      workflowId,
      workflowName: 'Invoice intake',
      executionStart: RECENT,
      executionEnd: RECENT + 90_000,
      statusType: 'success',
      errorMessage: null,
      errorActivity: null,
    });
    expect(log!.executorLastName).toMatch(/^User /);
    expect(log!.receivedAt).toBeGreaterThanOrEqual(before);
  });

  it("names the executor after the key when no user of the company has its e-mail (a user of another company's does not count)", async () => {
    const stranger = await createUser(db(), { company: other });
    const workflowId = await createWorkflow(company);
    const cases: [string | null, string | null, string, string][] = [
      ['  Grace  Brewster Hopper ', stranger.email, 'Grace', 'Brewster Hopper'],
      ['Cher', 'cher@example.test', 'Cher', ''],
      [null, null, '', ''],
    ];
    for (const [fullName, email, first, last] of cases) {
      const key = await createKey(company, { fullName, email });
      const sent = report(workflowId);
      expect((await service.record(key.agent, sent)).stored).toBe(true);
      expect(await logOf(sent.id)).toMatchObject({
        executorUserId: null,
        executorFirstName: first,
        executorLastName: last,
        emailAddress: email,
        companyName: company.name,
        departmentId: null,
      });
    }
    expect(splitFullName('')).toEqual({ firstName: '', lastName: '' });
  });

  it('stores a report once: the same id again stores nothing and says so', async () => {
    const key = await createKey(company);
    const sent = report(await createWorkflow(company));
    expect(await service.record(key.agent, sent)).toMatchObject({ stored: true });
    expect(await service.record(key.agent, { ...sent, statusType: 'faulted', errorMessage: 'late copy' })).toEqual({
      stored: false,
    });
    const rows = await db().select().from(executionLogs).where(eq(executionLogs.id, sent.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ statusType: 'success', errorMessage: null });
  });

  it('lists a faulted run as an exception, in the range and scope asked, newest first', async () => {
    const fresh = await createCompany(db());
    const key = await createKey(fresh);
    const workflowId = await createWorkflow(fresh, 'Payroll');
    const base = RECENT - 86_400_000;
    const ok = report(workflowId, { executionStart: base, executionEnd: base + 10 });
    const failed = report(workflowId, {
      executionStart: base + 1_000,
      executionEnd: base + 2_000,
      statusType: 'faulted',
      errorMessage: 'Selector not found\u0000',
      errorActivity: 'Click',
    });
    const unknown = report(workflowId, {
      executionStart: base + 3_000,
      executionEnd: base + 3_000,
      statusType: 'unknown',
    });
    for (const sent of [ok, failed, unknown]) await service.record(key.agent, sent);
    const theirs = await createKey(other);
    await service.record(theirs.agent, report(await createWorkflow(other), { executionStart: base + 500 }));

    const list = (scope = oneTenant(fresh.tenantId), faultedOnly = false, from = base, to = base + 3_000, limit = 50) =>
      listLogs(db(), { scope, from, to, faultedOnly }, { direction: 'desc', limit });
    expect((await list()).map((log) => log.id)).toEqual([unknown.id, failed.id, ok.id]);
    expect(await list(oneTenant(fresh.tenantId), true)).toEqual([
      expect.objectContaining({
        id: failed.id,
        statusType: 'faulted',
        errorMessage: 'Selector not found',
        errorActivity: 'Click',
        workflowName: 'Payroll',
      }),
    ]);
    expect((await list(oneTenant(fresh.tenantId), false, base + 1, base + 2_999)).map((log) => log.id)).toEqual([
      failed.id,
    ]);
    expect((await list(EVERY_TENANT, false, base, base + 1_000)).map((log) => log.id)).toHaveLength(3);
    expect(await list(oneTenant(fresh.tenantId), false, base, base + 3_000, 1)).toHaveLength(1);
  });

  it("logs a run of an archived workflow, and refuses another company's workflow or an unknown one", async () => {
    const key = await createKey(company);
    const archived = report(await createWorkflow(company, 'Old intake', true));
    expect(await service.record(key.agent, archived)).toMatchObject({ stored: true });
    expect(await logOf(archived.id)).toMatchObject({ workflowName: 'Old intake' });

    const theirs = report(await createWorkflow(other));
    await expect(service.record(key.agent, theirs)).rejects.toMatchObject({
      statusCode: 404,
      key: 'ERROR_WORKFLOW_NOT_EXIST',
    });
    await expect(service.record(key.agent, report(2_000_000_000))).rejects.toMatchObject({
      key: 'ERROR_WORKFLOW_NOT_EXIST',
    });
    // A solo licence has no company, so no workflow is its own.
    const solo = await createKey(null);
    await expect(service.record(solo.agent, report(await createWorkflow(company)))).rejects.toMatchObject({
      key: 'ERROR_WORKFLOW_NOT_EXIST',
    });
    expect(await logOf(theirs.id)).toBeUndefined();
  });

  it('refuses a run that ends before it starts, and an agent whose key is not of its tenant', async () => {
    const key = await createKey(company);
    const workflowId = await createWorkflow(company);
    const backwards = report(workflowId, { executionStart: 2_000, executionEnd: 1_999 });
    await expect(service.record(key.agent, backwards)).rejects.toMatchObject({
      statusCode: 400,
      key: 'ERROR_GENERAL_INVALID_INPUT',
    });
    await expect(service.record({ ...key.agent, tenantId: other.tenantId }, report(workflowId))).rejects.toMatchObject({
      statusCode: 404,
      key: 'ERROR_ACCOUNT_NOT_EXIST',
    });
    await expect(service.record({ ...key.agent, accountId: 2_000_000_000 }, report(workflowId))).rejects.toMatchObject({
      key: 'ERROR_ACCOUNT_NOT_EXIST',
    });
    expect(await logOf(backwards.id)).toBeUndefined();
  });
});

/** Texts an agent might put in a report that an array literal must carry as they are. */
const HOSTILE_TEXTS: (string | null)[] = [
  null,
  '',
  'NULL',
  'null',
  'a,b,c',
  '{braces}',
  '{"a","b"}',
  'say "hi"',
  "it's",
  'back\\slash',
  'trailing\\',
  '\\"',
  ' spaced out ',
  'tab\tnew\nline\r',
  'ünïcödé ✓ 日本語 😀',
  '(1,2)',
  '$1',
  "'; drop table execution_logs; --",
  'x'.repeat(5000),
];

describe('storing a batch of reports', () => {
  it('stores every text as sent, whatever it holds, with many reports in one statement', async () => {
    const key = await createKey(company);
    const workflowId = await createWorkflow(company, 'Hostile, "quoted" \\ name {}');
    const sent = HOSTILE_TEXTS.map((text, index) =>
      report(workflowId, {
        executionStart: RECENT + index,
        executionEnd: RECENT + index + 1_000,
        statusType: 'faulted',
        errorMessage: text,
        errorActivity: HOSTILE_TEXTS[HOSTILE_TEXTS.length - 1 - index] ?? null,
      }),
    );
    // Made in one turn of the event loop: one batch, one statement.
    const outcomes = await Promise.all(
      sent.map((one) => service.record({ ...key.agent, hostname: 'host "1", \\ {x}' }, one)),
    );
    expect(outcomes.every((outcome) => outcome.stored)).toBe(true);
    for (const one of sent) {
      expect(await logOf(one.id)).toMatchObject({
        errorMessage: one.errorMessage,
        errorActivity: one.errorActivity,
        hostname: 'host "1", \\ {x}',
        workflowName: 'Hostile, "quoted" \\ name {}',
        executionStart: one.executionStart,
        executionEnd: one.executionEnd,
      });
    }
  });

  it('stores rows given straight to insertExecutionLogs, nulls and all, and answers only those it stored', async () => {
    const workflowId = await createWorkflow(company);
    const row = {
      id: randomUUID(),
      tenantId: null,
      companyId: null,
      companyName: null,
      departmentId: null,
      departmentName: null,
      accountId: null,
      executorUserId: null,
      executorFirstName: '',
      executorLastName: '',
      emailAddress: null,
      macAddress: 'AA-BB',
      hostname: null,
      workflowId,
      workflowName: 'w',
      workflowVersion: null,
      executionStart: RECENT,
      executionEnd: RECENT,
      statusType: 'unknown' as const,
      errorMessage: null,
      errorActivity: null,
    };
    const again = { ...row, id: randomUUID() };
    expect(await insertExecutionLogs(db(), [row, again])).toEqual(
      new Set([`${row.id}|${RECENT}`, `${again.id}|${RECENT}`]),
    );
    expect(await insertExecutionLogs(db(), [row])).toEqual(new Set());
    expect(await logOf(row.id)).toMatchObject({ tenantId: null, accountId: null, hostname: null, workflowId });
  });

  it("takes the workflow's version current when the run started (its first for a run before them all)", async () => {
    const workflowId = await createWorkflow(company, 'Versioned');
    const sha256 = randomUUID().replaceAll('-', '');
    await db()
      .insert(blobs)
      .values({ sha256, size: 1, content: Buffer.from('x') });
    const version = (number: number, createdAt: number) => ({
      workflowId,
      tenantId: company.tenantId,
      number,
      fileName: 'v.rax',
      size: 1,
      sha256,
      activityKeys: [],
      steps: 1,
      createdAt,
    });
    await db()
      .insert(workflowVersions)
      .values([version(1, RECENT - 10_000), version(2, RECENT), version(3, RECENT + 10_000)]);
    const key = await createKey(company);
    const runs = [RECENT - 20_000, RECENT - 1, RECENT, RECENT + 20_000].map((start) =>
      report(workflowId, { executionStart: start, executionEnd: start + 1 }),
    );
    await Promise.all(runs.map((run) => service.record(key.agent, run)));
    const versions = await Promise.all(runs.map(async (run) => (await logOf(run.id))?.workflowVersion));
    expect(versions).toEqual([1, 1, 2, 3]);
  });
});

describe("a key's last runs", () => {
  it('are kept with the logs, only ever later, and answered without the logs', async () => {
    const key = await createKey(company);
    const first = await createWorkflow(company, 'First');
    const second = await createWorkflow(company, 'Second');
    expect(await lastExecutions(db(), key.accountId)).toEqual(new Map());
    await Promise.all([
      service.record(key.agent, report(first, { executionStart: RECENT, executionEnd: RECENT + 5_000 })),
      service.record(key.agent, report(first, { executionStart: RECENT + 1_000, executionEnd: RECENT + 2_000 })),
      service.record(key.agent, report(second, { executionStart: RECENT, executionEnd: RECENT + 100 })),
    ]);
    expect(await lastExecutions(db(), key.accountId)).toEqual(
      new Map([
        [first, RECENT + 5_000],
        [second, RECENT + 100],
      ]),
    );
    // A run that ended earlier, reported later, leaves the last end as it was; a later one moves it.
    await service.record(key.agent, report(first, { executionStart: RECENT - 9_000, executionEnd: RECENT - 8_000 }));
    await service.record(key.agent, report(second, { executionStart: RECENT + 200, executionEnd: RECENT + 300 }));
    const expected = new Map([
      [first, RECENT + 5_000],
      [second, RECENT + 300],
    ]);
    expect(await lastExecutions(db(), key.accountId)).toEqual(expected);
    // Read from execution_last_runs: the logs gone (the retention), the answer stays.
    await db().delete(executionLogs).where(eq(executionLogs.accountId, key.accountId));
    expect(await lastExecutions(db(), key.accountId)).toEqual(expected);
    const rows = await db().select().from(executionLastRuns).where(eq(executionLastRuns.accountId, key.accountId));
    expect(rows).toHaveLength(2);
    // Another key's runs are not this key's.
    const otherKey = await createKey(company);
    await service.record(otherKey.agent, report(first, { executionStart: RECENT, executionEnd: RECENT + 50_000 }));
    expect(await lastExecutions(db(), key.accountId)).toEqual(expected);
    expect(await lastExecutions(db(), otherKey.accountId)).toEqual(new Map([[first, RECENT + 50_000]]));
    const left = await selectRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from execution_last_runs where account_id = ${otherKey.accountId}`,
    );
    expect(left).toEqual([{ n: 1 }]);
  });
});

describe('execution logs and deletions', () => {
  it('outlive their key and workflow (ids cleared), and go with their company', async () => {
    const doomed = await createCompany(db());
    const user = await createUser(db(), { company: doomed, email: `runner-${randomUUID()}@example.test` });
    const key = await createKey(doomed, { email: user.email });
    const workflowId = await createWorkflow(doomed, 'Month end');
    const kept = report(workflowId);
    await service.record(key.agent, kept);
    const survivor = await createKey(company);
    const elsewhere = report(await createWorkflow(company));
    await service.record(survivor.agent, elsewhere);

    // Workflows are archived, not deleted, except with their company: the log keeps the name.
    await db().delete(workflows).where(eq(workflows.id, workflowId));
    expect(await logOf(kept.id)).toMatchObject({
      workflowId: null,
      workflowName: 'Month end',
      accountId: key.accountId,
    });

    const deleteLicense = await t.call(`/api/license/company/${doomed.id}/license/${key.licenseId}`, {
      method: 'DELETE',
      token: admin,
    });
    expect(deleteLicense.status).toBe(200);
    expect(await logOf(kept.id)).toMatchObject({
      accountId: null,
      executorUserId: user.id,
      companyId: doomed.id,
      tenantId: doomed.tenantId,
    });

    expect(await t.call(`/api/company/${doomed.id}`, { method: 'DELETE', token: admin })).toMatchObject({
      status: 200,
    });
    expect(await logOf(kept.id)).toBeUndefined();
    expect(await logOf(elsewhere.id)).toMatchObject({ companyId: company.id });
  });
});
