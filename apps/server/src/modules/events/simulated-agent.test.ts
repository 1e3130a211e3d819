import { type SimulatedAgent, startAgent } from '@opsdeck/agent/agent';
import {
  type AgentConnection,
  DEMO_AGENT_SECRET,
  DESTINATIONS,
  type SessionQueueChanges,
} from '@opsdeck/contract/live';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { agentArrival, type LivePeer, tenantConsole } from '../../../test/live';
import { type LiveTenant, liveTenants, newMac } from '../../../test/live-tenants';
import { executionLogs } from '../../db/schema';

/**
 * The server with the real agent simulator (apps/agent), not a test peer: docs/live-channel.md end
 * to end.
 */
let t: TestApp;
let admin: string;
let acme: LiveTenant;
let agent: SimulatedAgent;
let watcher: LivePeer;
const { tenant, newKey } = liveTenants(
  () => t,
  () => admin,
);

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  acme = await tenant('Acme Robotics');
});

afterAll(async () => {
  await agent?.stop();
  await watcher?.close();
  await t.close();
});

describe('the simulated agent', () => {
  it('runs a workflow a console executes, its queue seen by the console, its run stored as an execution log', async () => {
    const key = await newKey(acme);
    const mac = newMac();
    const queueTopic = `${DESTINATIONS.queue}/${acme.company.tenantId}`;
    watcher = await tenantConsole(t.baseUrl, acme.watcher, acme.company.tenantId, [
      DESTINATIONS.connect,
      DESTINATIONS.queue,
    ]);

    // Two steps of 30 s at speed 300: a run of about 0.2 s; it never fails here.
    agent = startAgent({
      url: t.baseUrl,
      licenseKey: key.key,
      macAddress: mac,
      hostname: 'test-runner',
      secret: DEMO_AGENT_SECRET,
      speed: 300,
      failureRate: 0,
      selfStartPerHour: 0,
      log: () => {},
    });
    const { sessionId } = await agentArrival(watcher, acme.company.tenantId, mac);
    const reported = new Promise<string>((resolve) => agent.once('receipted', resolve));

    await watcher.send(DESTINATIONS.executeCommand, { sessionId, workflowId: acme.workflow.id }, true);
    const queued = await watcher.next<SessionQueueChanges>(queueTopic, (changes) => changes.added.length > 0);
    expect(queued.added[0]).toMatchObject({ workflowId: acme.workflow.id, status: 'QUEUED', position: 1 });
    await watcher.next<SessionQueueChanges>(queueTopic, (changes) =>
      changes.updated.some((item) => item.status === 'EXECUTING' && item.executionStart !== null),
    );
    await watcher.next<SessionQueueChanges>(queueTopic, (changes) => changes.removed.length > 0, 10_000);

    const reportId = await reported;
    const [log] = await t.database.db.select().from(executionLogs).where(eq(executionLogs.id, reportId));
    expect(log).toMatchObject({
      tenantId: acme.company.tenantId,
      accountId: key.id,
      workflowId: acme.workflow.id,
      workflowName: acme.workflow.name,
      macAddress: mac,
      statusType: 'success',
    });
    expect(log!.executionEnd).toBeGreaterThanOrEqual(log!.executionStart);
    // The command may reach the agent before its workflow list: the entry is named once the list arrives.
    const named = [...(watcher.received.get(queueTopic) ?? [])] as SessionQueueChanges[];
    expect(
      named.some((changes) => [...changes.added, ...changes.updated].some((item) => item.name === acme.workflow.name)),
    ).toBe(true);
    const listed = await t.call<AgentConnection[]>('/api/active-agents', { token: acme.watcher });
    const workflow = listed.body
      .find((connection) => connection.sessionId === sessionId)
      ?.workflows.find((item) => item.id === acme.workflow.id);
    expect(workflow?.lastExecution).toBe(log!.executionEnd);
  }, 20_000);
});
