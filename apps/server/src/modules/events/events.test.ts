import type { AuditRecord } from '@opsdeck/contract/audit';
import {
  type AgentCommand,
  type AgentConnection,
  type ConsoleIdentity,
  DESTINATIONS,
  type LiveRefusal,
  type SessionQueueChanges,
  type WorkflowChanges,
} from '@opsdeck/contract/live';
import type { Page } from '@opsdeck/contract/paging';
import { readRax } from '@opsdeck/rax/read';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { expectRefusedWithoutAuthority } from '../../../test/access-table';
import type { TestApp } from '../../../test/app';
import { failStatements } from '../../../test/database-faults';
import {
  agentArrival,
  agentHeaders,
  consoleHeaders,
  expectNoneUntil,
  type LiveMessage,
  liveUrl,
  refusedWith,
} from '../../../test/live';
import { type LiveTenant, liveSuite, newMac } from '../../../test/live-tenants';
import { tokenFor } from '../../../test/sign-in';
import { uploadWorkflow } from '../../../test/workflow-files';
import { accounts, executionLogs, licenses } from '../../db/schema';

let t: TestApp;
let admin: string;
type Tenant = LiveTenant;
let acme: Tenant;
let globex: Tenant;
const { open, tenant, newKey } = liveSuite((suite) => {
  ({ t, admin, acme, globex } = suite);
});

/** The lookup of a live workflow by its id (workflows/queries.ts, `findWorkflow`). */
const WORKFLOW_BY_ID = /from "workflows" where \("workflows"\."id" = \$1/;

const AGENT_SUBSCRIPTIONS = [DESTINATIONS.agentWorkflows, DESTINATIONS.agentCommands, DESTINATIONS.errors];

async function agentOf(of: Tenant, mac = newMac()) {
  const key = await newKey(of);
  const peer = await open(agentHeaders(key.key, mac), AGENT_SUBSCRIPTIONS, { confirmed: true });
  return { key, mac, peer };
}

const consoleTopics = (tenantId: string | null) =>
  [DESTINATIONS.connect, DESTINATIONS.disconnect, DESTINATIONS.workflows, DESTINATIONS.queue].map((topic) =>
    tenantId ? `${topic}/${tenantId}` : topic,
  );

async function consoleOf(token: string, tenantId: string | null, asTenant?: string) {
  return open(consoleHeaders(token, asTenant), [
    DESTINATIONS.identity,
    DESTINATIONS.errors,
    DESTINATIONS.activeAgentsReply,
    DESTINATIONS.activeAgents,
    ...consoleTopics(tenantId),
  ]);
}

describe('console handshake', () => {
  it('is refused without the app key or with a bad token', async () => {
    expect(await refusedWith(t.baseUrl, { 'X-Auth-Token': acme.watcher, platform: 'console' })).toBe(
      'ERROR_APP_KEY_INVALID',
    );
    expect(await refusedWith(t.baseUrl, consoleHeaders('not-a-token'))).toBe('ERROR_UNAUTHORIZED');
    // A company user naming another company's tenant.
    expect(await refusedWith(t.baseUrl, consoleHeaders(acme.watcher, globex.company.tenantId))).toBe(
      'ERROR_TENANT_FORBIDDEN',
    );
  });

  it('without VIEW_WORKFLOW_EVENTS: its own destinations (identity, refusals, notifications), nothing of the agents', async () => {
    const viewer = await tokenFor(t, acme.company, ['VIEW_WORKFLOW']);
    const own = await open(consoleHeaders(viewer), [
      DESTINATIONS.identity,
      DESTINATIONS.errors,
      DESTINATIONS.notifications,
    ]);
    expect((await own.next<ConsoleIdentity>(DESTINATIONS.identity)).tenantId).toBe(acme.company.tenantId);
    for (const destination of [DESTINATIONS.activeAgents, `${DESTINATIONS.queue}/${acme.company.tenantId}`]) {
      own.subscribe(destination);
      expect(
        await own.next<LiveRefusal>(DESTINATIONS.errors, (refusal) => refusal.destination === destination),
      ).toMatchObject({ key: 'ERROR_FORBIDDEN' });
    }
    await own.send(DESTINATIONS.requestActiveAgents);
    expect(
      await own.next<LiveRefusal>(
        DESTINATIONS.errors,
        (refusal) => refusal.destination === DESTINATIONS.requestActiveAgents,
      ),
    ).toMatchObject({ key: 'ERROR_FORBIDDEN' });
  });

  it('tells the console its identity: its tenant, or null for an admin watching every company', async () => {
    const company = await consoleOf(acme.watcher, acme.company.tenantId);
    const identity = await company.next<ConsoleIdentity>(DESTINATIONS.identity);
    expect(identity.tenantId).toBe(acme.company.tenantId);
    expect(identity.sessionId).toEqual(expect.any(String));
    const provider = await consoleOf(admin, null);
    expect((await provider.next<ConsoleIdentity>(DESTINATIONS.identity)).tenantId).toBeNull();
    const actingOn = await consoleOf(admin, globex.company.tenantId, globex.company.tenantId);
    expect((await actingOn.next<ConsoleIdentity>(DESTINATIONS.identity)).tenantId).toBe(globex.company.tenantId);
  });
});

describe('GET /api/active-agents', () => {
  it('needs VIEW_WORKFLOW_EVENTS, and never lists another company’s agents', async () => {
    await expectRefusedWithoutAuthority(t, acme.company, [
      { method: 'GET', path: '/api/active-agents', authorities: ['VIEW_WORKFLOW_EVENTS'] },
    ]);
    const { mac } = await agentOf(acme);
    const own = await t.call<AgentConnection[]>('/api/active-agents', { token: acme.watcher });
    expect(own.body.map((agent) => agent.macAddress)).toContain(mac);
    const other = await t.call<AgentConnection[]>('/api/active-agents', { token: globex.watcher });
    expect(other.body.map((agent) => agent.macAddress)).not.toContain(mac);
    const naming = await t.call('/api/active-agents', { token: globex.watcher, tenantId: acme.company.tenantId });
    expect(naming).toMatchObject({ status: 403, body: { key: 'ERROR_TENANT_FORBIDDEN' } });
    const provider = await t.call<AgentConnection[]>('/api/active-agents', { token: admin });
    expect(provider.body.map((agent) => agent.macAddress)).toContain(mac);
  });
});

describe('a STOMP client of our own, frame by frame', () => {
  it('gets CONNECTED with the negotiated version and heart-beat, then its identity', async () => {
    const socket = new WebSocket(liveUrl(t.baseUrl), ['v12.stomp']);
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(String(data)));
    await new Promise((resolve) => socket.once('open', resolve));
    expect(socket.protocol).toBe('v12.stomp');
    socket.send(
      `CONNECT\naccept-version:1.2\nhost:opsdeck\nheart-beat:0,0\nX-App-Key:opsdeck-console\nX-Auth-Token:${acme.watcher}\nplatform:console\n\n\0`,
    );
    socket.send('SUBSCRIBE\nid:0\ndestination:/user/topic/identity\n\n\0');
    const deadline = Date.now() + 5000;
    while (frames.filter((frame) => frame.trim()).length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const [connected, identity] = frames.filter((frame) => frame.trim());
    expect(connected).toMatch(/^CONNECTED\n/);
    expect(connected).toContain('version:1.2\n');
    expect(connected).toMatch(/\nsession:[0-9a-f-]{36}\n/);
    expect(identity).toMatch(/^MESSAGE\n/);
    expect(identity).toContain('destination:/user/topic/identity\n');
    expect(identity).toContain('content-type:application/json');
    const body = identity!.slice(identity!.indexOf('\n\n') + 2, identity!.lastIndexOf('\0'));
    expect(JSON.parse(body)).toEqual({ tenantId: acme.company.tenantId, sessionId: expect.any(String) });
    socket.close();
  });

  it('closes a console whose user signs out', async () => {
    const token = await tokenFor(t, acme.company, ['VIEW_WORKFLOW_EVENTS']);
    const peer = await open(consoleHeaders(token), [DESTINATIONS.identity]);
    await peer.next(DESTINATIONS.identity);
    expect((await t.call('/api/logout', { token })).status).toBe(200);
    expect(await peer.closed).toBe('ERROR_UNAUTHORIZED');
  });
});

describe('agent handshake', () => {
  it('accepts a valid key, claims the machine of a generated key, and gives the agent its workflows', async () => {
    const { key, mac, peer } = await agentOf(acme);
    const list = await peer.next<WorkflowChanges>(DESTINATIONS.agentWorkflows);
    expect(list.added.map((workflow) => workflow.id)).toEqual([acme.workflow.id]);
    expect(list.added.every((workflow) => workflow.lastExecution === null)).toBe(true);
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, key.id));
    expect(row!.macAddresses).toEqual([mac]);
  });

  it('refuses a bad secret, an unknown, invalidated or expired key, another machine, and a second machine on one key', async () => {
    const key = await newKey(acme);
    const mac = newMac();
    expect(await refusedWith(t.baseUrl, agentHeaders(key.key, mac, { 'X-App-Secret': 'wrong-secret' }))).toBe(
      'ERROR_AGENT_SECRET_INVALID',
    );
    expect(await refusedWith(t.baseUrl, agentHeaders(key.key, mac, { 'X-App-Key': 'nobody' }))).toBe(
      'ERROR_APP_KEY_INVALID',
    );
    expect(await refusedWith(t.baseUrl, agentHeaders('ODK-0000-0000-0000-0000', mac))).toBe(
      'ERROR_LICENSE_KEY_INVALID',
    );
    expect(await refusedWith(t.baseUrl, agentHeaders(key.key, 'not-a-mac'))).toBe('ERROR_AGENT_MAC_ADDRESS_INVALID');

    // The first machine claims the generated key; another machine is then not one of the key's.
    const first = await open(agentHeaders(key.key, mac), AGENT_SUBSCRIPTIONS, { confirmed: true });
    expect(await refusedWith(t.baseUrl, agentHeaders(key.key, newMac()))).toBe('ERROR_AGENT_MAC_ADDRESS_INVALID');

    // A key registered for two machines: the second may not connect while the first is live.
    const second = newMac();
    await t.database.db
      .update(accounts)
      .set({ macAddresses: [mac, second] })
      .where(eq(accounts.id, key.id));
    expect(await refusedWith(t.baseUrl, agentHeaders(key.key, second))).toBe('ERROR_AGENT_KEY_IN_USE');
    await first.close();

    const invalidated = await newKey(acme);
    await t.database.db.update(accounts).set({ invalidatedAt: Date.now() }).where(eq(accounts.id, invalidated.id));
    expect(await refusedWith(t.baseUrl, agentHeaders(invalidated.key, newMac()))).toBe('ERROR_LICENSE_KEY_INVALIDATED');

    const expiring = await tenant('Initech');
    const expired = await newKey(expiring);
    await t.database.db
      .update(licenses)
      .set({ expirationDate: Date.now() - 1000 })
      .where(eq(licenses.id, expiring.license.id));
    expect(await refusedWith(t.baseUrl, agentHeaders(expired.key, newMac()))).toBe('ERROR_LICENSE_EXPIRED_KEY');
  });

  it('replaces the session of the same machine connecting again', async () => {
    const { key, mac, peer } = await agentOf(acme);
    const again = await open(agentHeaders(key.key, mac), AGENT_SUBSCRIPTIONS, { confirmed: true });
    expect(await peer.closed).toBe('ERROR_AGENT_REPLACED');
    await again.next(DESTINATIONS.agentWorkflows);
    const agents = await t.call<AgentConnection[]>('/api/active-agents', { token: acme.watcher });
    expect(agents.body.filter((agent) => agent.macAddress === mac)).toHaveLength(1);
  });

  it('downloads a workflow file with its CONNECT headers, and only its own company’s', async () => {
    const { key, mac } = await agentOf(acme);
    const file = await t.call(`/api/agent/workflow/${acme.workflow.id}/file`, {
      appKey: null,
      headers: agentHeaders(key.key, mac),
    });
    expect(file.status).toBe(200);
    expect((await readRax(file.bytes)).manifest.steps.length).toBeGreaterThan(0);
    const foreign = await t.call(`/api/agent/workflow/${globex.workflow.id}/file`, {
      appKey: null,
      headers: agentHeaders(key.key, mac),
    });
    expect(foreign).toMatchObject({ status: 404, body: { key: 'ERROR_WORKFLOW_NOT_EXIST' } });
    const badSecret = await t.call(`/api/agent/workflow/${acme.workflow.id}/file`, {
      appKey: null,
      headers: agentHeaders(key.key, mac, { 'X-App-Secret': 'wrong-secret' }),
    });
    expect(badSecret).toMatchObject({ status: 401, body: { key: 'ERROR_AGENT_SECRET_INVALID' } });
  });

  it('answers a download 503, not 404, when the database fails while the workflow is looked up', async () => {
    const { key, mac } = await agentOf(acme);
    const restore = failStatements(WORKFLOW_BY_ID);
    let file: Awaited<ReturnType<typeof t.call>>;
    try {
      file = await t.call(`/api/agent/workflow/${acme.workflow.id}/file`, {
        appKey: null,
        headers: agentHeaders(key.key, mac),
      });
    } finally {
      restore();
    }
    expect(file).toMatchObject({ status: 503, body: { key: 'ERROR_SERVICE_UNAVAILABLE' } });
  });
});

describe('between consoles and agents', () => {
  it('shows a console its company’s agents, connecting and leaving, and the same list over HTTP', async () => {
    const watcher = await consoleOf(acme.watcher, acme.company.tenantId);
    await watcher.next(DESTINATIONS.identity);
    const { peer, mac } = await agentOf(acme);
    const connected = await agentArrival(watcher, acme.company.tenantId, mac);
    expect(connected).toMatchObject({
      tenantId: acme.company.tenantId,
      companyName: 'Acme Robotics',
      queuedWorkflows: [],
    });
    expect(connected.workflows.map((workflow) => workflow.id)).toEqual([acme.workflow.id]);

    await watcher.send(DESTINATIONS.requestActiveAgents);
    const listed = await watcher.next<AgentConnection[]>(DESTINATIONS.activeAgentsReply, (list) =>
      list.some((agent) => agent.sessionId === connected.sessionId),
    );
    expect(listed.every((agent) => agent.tenantId === acme.company.tenantId)).toBe(true);
    const overHttp = await t.call<AgentConnection[]>('/api/active-agents', { token: acme.watcher });
    expect(overHttp.body.map((agent) => agent.sessionId)).toContain(connected.sessionId);
    const whole = await watcher.next<AgentConnection[]>(DESTINATIONS.activeAgents, (list) =>
      list.some((agent) => agent.sessionId === connected.sessionId),
    );
    expect(whole.length).toBeGreaterThan(0);

    await peer.close();
    expect(
      await watcher.next<{ sessionId: string }>(
        `${DESTINATIONS.disconnect}/${acme.company.tenantId}`,
        (message) => message.sessionId === connected.sessionId,
      ),
    ).toEqual({ sessionId: connected.sessionId });
  });

  it('executes a workflow on an agent, relays its queue, and terminates the entry', async () => {
    const watcher = await consoleOf(acme.watcher, acme.company.tenantId);
    await watcher.next(DESTINATIONS.identity);
    const { peer, mac } = await agentOf(acme);
    const { sessionId } = await agentArrival(watcher, acme.company.tenantId, mac);

    await watcher.send(DESTINATIONS.executeCommand, { sessionId, workflowId: acme.workflow.id }, true);
    expect(await peer.next<AgentCommand>(DESTINATIONS.agentCommands)).toEqual({
      command: 'execute',
      workflowId: acme.workflow.id,
    });

    const entry = {
      id: 1,
      workflowId: acme.workflow.id,
      name: acme.workflow.name,
      status: 'EXECUTING' as const,
      position: 1,
      executionStart: Date.now(),
    };
    await peer.send(DESTINATIONS.agentQueue, { added: [entry], updated: [], removed: [] }, true);
    const queued = await watcher.next<SessionQueueChanges>(`${DESTINATIONS.queue}/${acme.company.tenantId}`);
    expect(queued).toEqual({ sessionId, added: [entry], updated: [], removed: [] });

    await watcher.send(DESTINATIONS.terminateCommand, { sessionId, workflowId: acme.workflow.id, queueId: 1 }, true);
    expect(
      await peer.next<AgentCommand>(DESTINATIONS.agentCommands, (command) => command.command === 'terminate'),
    ).toEqual({ command: 'terminate', workflowId: acme.workflow.id, queueId: 1 });

    // Both commands are in the audit log under the console's user; the machine the key took, under the agent.
    const logged = await t.call<Page<AuditRecord>>('/api/audit?entityType=agent', {
      token: admin,
      tenantId: acme.company.tenantId,
    });
    expect(logged.body.items.map((record) => [record.action, record.actor.type])).toEqual([
      ['agent.terminate', 'user'],
      ['agent.execute', 'user'],
    ]);
    expect(logged.body.items[1]!.changes).toEqual([{ field: 'workflowId', before: null, after: acme.workflow.id }]);
    const bound = await t.call<Page<AuditRecord>>('/api/audit?action=account.bind_machine', {
      token: admin,
      tenantId: acme.company.tenantId,
    });
    expect(bound.body.items[0]).toMatchObject({
      actor: { type: 'agent' },
      changes: expect.arrayContaining([{ field: 'macAddress', before: null, after: mac }]),
    });
    expect(bound.body.items[0]!.actor.name).toMatch(/^\w+-\w+-…-\w+$/);

    // An entry the agent does not have, a workflow of another company, and no VIEW_WORKFLOW.
    await watcher.send(DESTINATIONS.terminateCommand, { sessionId, workflowId: acme.workflow.id, queueId: 99 });
    expect(
      await watcher.next<LiveRefusal>(
        DESTINATIONS.errors,
        (refusal) => refusal.key === 'ERROR_AGENT_QUEUE_ENTRY_NOT_EXIST',
      ),
    ).toMatchObject({ destination: DESTINATIONS.terminateCommand });
    await watcher.send(DESTINATIONS.executeCommand, { sessionId, workflowId: globex.workflow.id });
    expect(
      await watcher.next<LiveRefusal>(DESTINATIONS.errors, (refusal) => refusal.key === 'ERROR_WORKFLOW_NOT_EXIST'),
    ).toMatchObject({ destination: DESTINATIONS.executeCommand });
    const eventsOnly = await consoleOf(
      await tokenFor(t, acme.company, ['VIEW_WORKFLOW_EVENTS']),
      acme.company.tenantId,
    );
    await eventsOnly.send(DESTINATIONS.executeCommand, { sessionId, workflowId: acme.workflow.id });
    expect(await eventsOnly.next<LiveRefusal>(DESTINATIONS.errors)).toMatchObject({ key: 'ERROR_FORBIDDEN' });
  });

  it('refuses a command as unavailable, not as an unknown workflow, when the database fails on the workflow', async () => {
    const watcher = await consoleOf(acme.watcher, acme.company.tenantId);
    await watcher.next(DESTINATIONS.identity);
    const { mac } = await agentOf(acme);
    const { sessionId } = await agentArrival(watcher, acme.company.tenantId, mac);
    const restore = failStatements(WORKFLOW_BY_ID);
    try {
      await watcher.send(DESTINATIONS.executeCommand, { sessionId, workflowId: acme.workflow.id });
      expect(await watcher.next<LiveRefusal>(DESTINATIONS.errors)).toMatchObject({
        destination: DESTINATIONS.executeCommand,
        key: 'ERROR_SERVICE_UNAVAILABLE',
      });
    } finally {
      restore();
    }
    // The console keeps its channel: the same command goes through once the database answers.
    await watcher.send(DESTINATIONS.executeCommand, { sessionId, workflowId: acme.workflow.id }, true);
  });

  it('closes a console as unavailable, not signed out, when the database fails while its session is read again', async () => {
    const watcher = await consoleOf(acme.watcher, acme.company.tenantId);
    await watcher.next(DESTINATIONS.identity);
    const restore = failStatements(/from "sessions" inner join "users"/);
    try {
      // A role changed: every session is read again (the sessions' cache is cleared), this console's too.
      t.app.services.events.publish({ resource: 'roles', kind: 'updated', ids: [0], tenantId: null });
      // ERROR_UNAUTHORIZED would sign its person out; this one the console retries.
      expect(await watcher.closed).toBe('ERROR_SERVICE_UNAVAILABLE');
    } finally {
      restore();
    }
  });

  it('keeps each company behind its wall: no subscription, message or command crosses it', async () => {
    const outsider = await consoleOf(globex.watcher, globex.company.tenantId);
    await outsider.next(DESTINATIONS.identity);
    outsider.subscribe(`${DESTINATIONS.queue}/${acme.company.tenantId}`);
    expect(
      await outsider.next<LiveRefusal>(DESTINATIONS.errors, (refusal) =>
        refusal.destination.includes(acme.company.tenantId),
      ),
    ).toMatchObject({ key: 'ERROR_TENANT_FORBIDDEN' });
    outsider.subscribe(DESTINATIONS.queue);
    expect(
      await outsider.next<LiveRefusal>(DESTINATIONS.errors, (refusal) => refusal.destination === DESTINATIONS.queue),
    ).toMatchObject({ key: 'ERROR_TENANT_FORBIDDEN' });

    const provider = await consoleOf(admin, null);
    await provider.next(DESTINATIONS.identity);
    const { peer, mac } = await agentOf(acme);
    const seen = await provider.next<AgentConnection>(DESTINATIONS.connect, (agent) => agent.macAddress === mac);
    await peer.send(
      DESTINATIONS.agentQueue,
      {
        added: [
          { id: 7, workflowId: acme.workflow.id, name: 'x', status: 'QUEUED', position: 1, executionStart: null },
        ],
      },
      true,
    );
    await provider.next(DESTINATIONS.queue, (changes: SessionQueueChanges) => changes.sessionId === seen.sessionId);

    await outsider.send(DESTINATIONS.executeCommand, { sessionId: seen.sessionId, workflowId: acme.workflow.id });
    expect(
      await outsider.next<LiveRefusal>(
        DESTINATIONS.errors,
        (refusal) => refusal.destination === DESTINATIONS.executeCommand,
      ),
    ).toMatchObject({ key: 'ERROR_TENANT_FORBIDDEN' });
    await outsider.send(DESTINATIONS.requestActiveAgents);
    const listed = await outsider.next<AgentConnection[]>(DESTINATIONS.activeAgentsReply);
    expect(listed.some((agent) => agent.tenantId !== globex.company.tenantId)).toBe(false);
    // Nothing of Acme's reached Globex's console on any destination, checked once a sync point has
    // passed: an agent of Globex's own, connecting and queueing after all of Acme's, told to it by
    // the same fan-out, then the next active-agents list (coalesced on a timer) naming that agent.
    const own = await agentOf(globex);
    const ofAcme = (message: LiveMessage) =>
      [seen.sessionId, mac].some((text) => JSON.stringify(message.body).includes(text));
    await expectNoneUntil(
      outsider,
      {
        cause: async () => {
          const { sessionId } = await agentArrival(outsider, globex.company.tenantId, own.mac);
          const entry = { id: 1, workflowId: globex.workflow.id, name: 'y', status: 'QUEUED', position: 1 };
          await own.peer.send(DESTINATIONS.agentQueue, { added: [{ ...entry, executionStart: null }] }, true);
          await outsider.next(
            `${DESTINATIONS.queue}/${globex.company.tenantId}`,
            (changes: SessionQueueChanges) => changes.sessionId === sessionId,
          );
        },
        destination: DESTINATIONS.activeAgents,
        match: (agents: AgentConnection[]) => agents.some((agent) => agent.macAddress === own.mac),
      },
      ofAcme,
    );
    // Nor did Globex's command reach Acme's agent: checked once a command of Acme's own came after it.
    await expectNoneUntil(
      peer,
      {
        cause: async () => {
          const own = await consoleOf(acme.watcher, acme.company.tenantId);
          await own.next(DESTINATIONS.identity);
          const terminate = { sessionId: seen.sessionId, workflowId: acme.workflow.id, queueId: 7 };
          await own.send(DESTINATIONS.terminateCommand, terminate, true);
        },
        destination: DESTINATIONS.agentCommands,
        match: (command: AgentCommand) => command.command === 'terminate',
      },
      (message) =>
        message.destination === DESTINATIONS.agentCommands && (message.body as AgentCommand).command !== 'terminate',
    );
    const overHttp = await t.call<AgentConnection[]>('/api/active-agents', { token: globex.watcher });
    expect(overHttp.body.map((agent) => agent.sessionId)).not.toContain(seen.sessionId);
  });

  it('stores an execution once, however often the agent reports it, and receipts it', async () => {
    const { peer, key, mac } = await agentOf(acme);
    const report = {
      id: crypto.randomUUID(),
      workflowId: acme.workflow.id,
      executionStart: Date.now() - 60_000,
      executionEnd: Date.now(),
      statusType: 'faulted',
      errorMessage: 'Element #submit not found after 30 s',
      errorActivity: 'open-browser',
    };
    await peer.send(DESTINATIONS.agentExecution, report, true);
    await peer.send(DESTINATIONS.agentExecution, report, true);
    const rows = await t.database.db.select().from(executionLogs).where(eq(executionLogs.id, report.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ accountId: key.id, statusType: 'faulted', workflowName: acme.workflow.name });

    // Connecting again, the agent's list carries that run as the workflow's last execution.
    const again = await open(agentHeaders(key.key, mac), AGENT_SUBSCRIPTIONS, { confirmed: true });
    const list = await again.next<WorkflowChanges>(DESTINATIONS.agentWorkflows);
    expect(list.added.find((workflow) => workflow.id === acme.workflow.id)?.lastExecution).toBe(report.executionEnd);

    await again.send(DESTINATIONS.agentExecution, { ...report, id: 'not-a-uuid' });
    expect(await again.next<LiveRefusal>(DESTINATIONS.errors)).toMatchObject({
      destination: DESTINATIONS.agentExecution,
      key: 'ERROR_GENERAL_INVALID_INPUT',
    });
  });

  it('refuses a queue that would grow past 500 entries, and malformed changes', async () => {
    const { peer } = await agentOf(acme);
    const entries = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: from + i,
        workflowId: acme.workflow.id,
        name: acme.workflow.name,
        status: 'QUEUED',
        position: from + i,
        executionStart: null,
      }));
    await peer.send(DESTINATIONS.agentQueue, { added: entries(1, 400) }, true);
    await peer.send(DESTINATIONS.agentQueue, { added: entries(401, 200) });
    expect(await peer.next<LiveRefusal>(DESTINATIONS.errors)).toMatchObject({
      destination: DESTINATIONS.agentQueue,
      key: 'ERROR_GENERAL_INVALID_INPUT',
    });
    await peer.send(DESTINATIONS.agentQueue, { added: [{ id: -1 }] });
    await peer.next<LiveRefusal>(
      DESTINATIONS.errors,
      () => (peer.received.get(DESTINATIONS.errors) ?? []).length === 2,
    );
    const listed = await t.call<AgentConnection[]>('/api/active-agents', { token: acme.watcher });
    // The refused changes changed nothing: the consoles see the 400 entries accepted.
    expect(listed.body.some((agent) => agent.queuedWorkflows.length === 400)).toBe(true);
  });

  it('tells agents of new and archived workflows', async () => {
    const { peer } = await agentOf(globex);
    await peer.next(DESTINATIONS.agentWorkflows);
    const author = await tokenFor(t, globex.company, ['VIEW_WORKFLOW', 'CREATE_WORKFLOW', 'DELETE_WORKFLOW']);
    const made = await uploadWorkflow(t, author, 'Workflows', 'Payroll run.rax');
    expect(made.status).toBe(201);
    await peer.next<WorkflowChanges>(DESTINATIONS.agentWorkflows, (changes) =>
      changes.added.some((workflow) => workflow.id === made.body.id),
    );
    const archived = await t.call(`/api/workflow/delete/${made.body.id}`, {
      token: author,
      json: { directory: 'Workflows' },
    });
    expect(archived.status).toBe(200);
    await peer.next<WorkflowChanges>(DESTINATIONS.agentWorkflows, (changes) => changes.removed.includes(made.body.id));
  });
});

describe('licences enforced', () => {
  it('disconnects an agent at once when its key is invalidated or deleted, or its licence invalidated', async () => {
    const watcher = await consoleOf(acme.watcher, acme.company.tenantId);
    await watcher.next(DESTINATIONS.identity);
    const invalidated = await agentOf(acme);
    const form = new URLSearchParams({
      company: String(acme.company.id),
      license: String(acme.license.id),
      account: String(invalidated.key.id),
    });
    const answer = await t.call('/api/account/invalidate', { token: admin, form: Object.fromEntries(form) });
    expect(answer.status).toBe(200);
    expect(await invalidated.peer.closed).toBe('ERROR_LICENSE_KEY_INVALIDATED');
    await watcher.next(`${DESTINATIONS.disconnect}/${acme.company.tenantId}`);

    const deleted = await agentOf(acme);
    const removed = await t.call(
      `/api/license/company/${acme.company.id}/license/${acme.license.id}/account/${deleted.key.id}`,
      { method: 'DELETE', token: admin },
    );
    expect(removed.status).toBe(200);
    expect(await deleted.peer.closed).toBe('ERROR_LICENSE_KEY_INVALID');

    const doomed = await tenant('Umbrella');
    const onDoomed = await agentOf(doomed);
    const invalidate = await t.call('/api/license/company/invalidate', {
      token: admin,
      json: { companyId: doomed.company.id, licenseId: doomed.license.id },
    });
    expect(invalidate.status).toBe(200);
    expect(await onDoomed.peer.closed).toBe('ERROR_LICENSE_INVALIDATED');
  });
});
