import { randomUUID } from 'node:crypto';
import { type AgentCommand, type AgentWorkflow, DESTINATIONS, type LiveRefusal } from '@opsdeck/contract/live';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../../test/app';
import { agentArrival, agentHeaders, consoleHeaders } from '../../../test/live';
import { type LiveTenant, liveSuite, newMac } from '../../../test/live-tenants';
import type { Executor } from '../../db/client';
import { workflows } from '../../db/schema';
import { asProvider, EVERY_TENANT, inTenant, type TenantScope } from '../../platform/tenancy';
import { runnableWorkflows } from './queries';

// The suite shares one module registry between files (vitest.config.ts, `isolate: false`): a
// module another file imported first would stay the real one. So this file starts from an empty
// registry (its imports, mocks included, are evaluated afresh), and leaves one behind it.
vi.hoisted(() => vi.resetModules());

// The mutation of docs/tenancy.md's wall, on the live channel: two reads lose their company, as a
// forgotten scope would. The workflows an agent may run are read by every company's rows
// (events/queries.ts, `runnableWorkflows`), and the workflow a console's command names is looked up
// by id alone (workflows/queries.ts, `findWorkflow`). Only the database's wall is left between the
// companies: an agent's and a console's frames run in their company's scope.
vi.mock('./queries', async (importOriginal) => {
  const original = await importOriginal<typeof import('./queries')>();
  return {
    ...original,
    runnableWorkflows: (db: Executor, _tenantId: string, ids?: readonly number[]) =>
      db
        .select({ id: workflows.id, name: workflows.name })
        .from(workflows)
        .where(and(eq(workflows.archived, false), ids ? inArray(workflows.id, [...ids]) : undefined))
        .orderBy(asc(workflows.name), asc(workflows.id)),
  };
});
vi.mock('../workflows/queries', async (importOriginal) => {
  const original = await importOriginal<typeof import('../workflows/queries')>();
  return {
    ...original,
    findWorkflow: (db: Executor, _scope: TenantScope, id: number) => original.findWorkflow(db, EVERY_TENANT, id),
  };
});

let t: TestApp;
let admin: string;
let acme: LiveTenant;
let globex: LiveTenant;
const { open, newKey } = liveSuite(
  (suite) => {
    ({ t, admin, acme, globex } = suite);
  },
  {
    // The next file of this worker gets the real modules again.
    afterAll: () => {
      vi.doUnmock('./queries');
      vi.doUnmock('../workflows/queries');
      vi.resetModules();
    },
  },
);

async function agentOf(of: LiveTenant) {
  const mac = newMac();
  const peer = await open(
    agentHeaders((await newKey(of)).key, mac),
    [DESTINATIONS.agentWorkflows, DESTINATIONS.agentCommands, DESTINATIONS.errors],
    { confirmed: true },
  );
  return { peer, mac };
}

describe('the live channel behind the database’s wall', () => {
  it('gives an agent its own company’s workflows, though the read of them names no company', async () => {
    // The mutation took: read as the provider, the list holds both companies' workflows.
    const everyCompany = await asProvider(() => runnableWorkflows(t.database.db, acme.company.tenantId));
    expect(everyCompany.map((row) => row.id)).toEqual(expect.arrayContaining([acme.workflow.id, globex.workflow.id]));

    const { peer } = await agentOf(acme);
    const list = await peer.next<{ added: AgentWorkflow[] }>(DESTINATIONS.agentWorkflows);
    expect(list.added.map((workflow) => workflow.id)).toEqual([acme.workflow.id]);
  });

  it('refuses a company console’s command naming another company’s workflow, though its lookup names no company', async () => {
    const watcher = await open(consoleHeaders(acme.watcher), [
      DESTINATIONS.identity,
      DESTINATIONS.errors,
      `${DESTINATIONS.connect}/${acme.company.tenantId}`,
    ]);
    await watcher.next(DESTINATIONS.identity);
    const { peer, mac } = await agentOf(acme);
    const { sessionId } = await agentArrival(watcher, acme.company.tenantId, mac);

    await watcher.send(DESTINATIONS.executeCommand, { sessionId, workflowId: globex.workflow.id });
    expect(
      await watcher.next<LiveRefusal>(DESTINATIONS.errors, (refusal) => refusal.key === 'ERROR_WORKFLOW_NOT_EXIST'),
    ).toMatchObject({ destination: DESTINATIONS.executeCommand });

    // The mutation took: the provider's console, whose scope is every company, gets the same
    // command through (unmutated, the lookup in the agent's company would refuse it).
    const provider = await open(consoleHeaders(admin), [DESTINATIONS.identity, DESTINATIONS.errors]);
    await provider.next(DESTINATIONS.identity);
    await provider.send(DESTINATIONS.executeCommand, { sessionId, workflowId: globex.workflow.id }, true);
    expect(await peer.next<AgentCommand>(DESTINATIONS.agentCommands)).toEqual({
      command: 'execute',
      workflowId: globex.workflow.id,
    });
  });

  it('writes one batch of two companies’ agents’ reports, whichever company’s frame began it', async () => {
    const [keyA, keyB] = [await newKey(acme), await newKey(globex)];
    const end = Date.now();
    const report = (workflowId: number) => ({
      id: randomUUID(),
      workflowId,
      executionStart: end - 1_000,
      executionEnd: end,
      statusType: 'success' as const,
      errorMessage: null,
      errorActivity: null,
    });
    const { executionLogs } = t.app.services;
    // Both in one turn of the event loop, so in one group commit, begun in Acme's scope (as Acme's
    // agent's frame would begin it): the batch is the provider's, and Globex's run is stored too.
    const stored = await inTenant(acme.company.tenantId, () =>
      Promise.all([
        executionLogs.record(
          { accountId: keyA.id, tenantId: acme.company.tenantId, macAddress: newMac() },
          report(acme.workflow.id),
        ),
        executionLogs.record(
          { accountId: keyB.id, tenantId: globex.company.tenantId, macAddress: newMac() },
          report(globex.workflow.id),
        ),
      ]),
    );
    expect(stored.map((outcome) => outcome.stored)).toEqual([true, true]);
  });
});
