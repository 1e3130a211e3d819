import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import {
  type AgentCommand,
  type AgentConnection,
  DESTINATIONS,
  type LiveRefusal,
  SERVER_HEART_BEAT,
} from '@opsdeck/contract/live';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, serveApp, startTestApp, type TestApp } from '../../../test/app';
import { openTestDatabase } from '../../../test/database';
import {
  agentArrival,
  agentHeaders,
  connectPeer,
  type LivePeer,
  receivedUntil,
  tenantConsole,
} from '../../../test/live';
import { type LiveTenant, liveTenants, newMac } from '../../../test/live-tenants';
import { startRedisServer, testPrefix } from '../../../test/redis';
import { tokenFor } from '../../../test/sign-in';
import { uploadWorkflow } from '../../../test/workflow-files';

/**
 * Redis goes away and comes back while two instances serve consoles and agents
 * (docs/live-channel.md, Several instances): the test's own redis-server, killed with SIGKILL and
 * started again, empty, on the same port; both instances in this process, on one database.
 */
const prefix = testPrefix();
/** Presence must be right on both instances again within the heart-beat interval of Redis's return. */
const WINDOW_MS = SERVER_HEART_BEAT[0];

let redis: Awaited<ReturnType<typeof startRedisServer>>;
let a: TestApp;
let b: { app: TestApp['app']; dataDir: string; baseUrl: string };
let admin: string;
let acme: LiveTenant;
const peers: LivePeer[] = [];
const { tenant, newKey } = liveTenants(
  () => a,
  () => admin,
);

beforeAll(async () => {
  redis = await startRedisServer();
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: prefix, LIVE_INSTANCE_TTL_MS: '1500' };
  const database = await openTestDatabase();
  a = await startTestApp(env, { database });
  b = await serveApp(database, { PUBLIC_URL: 'http://console.opsdeck.test', ...env });
  admin = await a.login(ADMIN.email, ADMIN.password);
  acme = await tenant('Acme Outage');
}, 60_000);

afterAll(async () => {
  await Promise.all(peers.map((peer) => peer.close()));
  await b?.app.close();
  if (b) await rm(b.dataDir, { recursive: true, force: true });
  await a?.close();
  await redis?.kill();
});

async function agentOn(baseUrl: string, watchers: LivePeer[]) {
  const key = await newKey(acme);
  const mac = newMac();
  const agent = await connectPeer(
    baseUrl,
    agentHeaders(key.key, mac),
    [DESTINATIONS.agentWorkflows, DESTINATIONS.agentCommands, DESTINATIONS.errors],
    { confirmed: true },
  );
  peers.push(agent);
  const arrivals = await Promise.all(watchers.map((watcher) => agentArrival(watcher, acme.company.tenantId, mac)));
  return { agent, sessionId: arrivals[0]!.sessionId };
}

async function watcherOn(baseUrl: string, token = acme.watcher) {
  const watcher = await tenantConsole(baseUrl, token, acme.company.tenantId);
  peers.push(watcher);
  return watcher;
}

/**
 * A console's command, answered one way or the other: 'RECEIPT', or the key it was refused with.
 * Commands are sent one at a time, and the server answers a connection's frames in order, so the
 * next refusal on the destination is this command's.
 */
async function command(peer: LivePeer, destination: string, body: unknown): Promise<string> {
  const refusalsBefore = new Set(peer.received.get(DESTINATIONS.errors) ?? []);
  const receipt = randomUUID();
  const receipted = new Promise<string>((resolve) => peer.client.watchForReceipt(receipt, () => resolve('RECEIPT')));
  const refused = peer
    .next<LiveRefusal>(
      DESTINATIONS.errors,
      (refusal) => !refusalsBefore.has(refusal) && refusal.destination === destination,
      15_000,
    )
    .then((refusal) => refusal.key);
  peer.client.publish({
    destination,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', receipt },
  });
  return Promise.race([receipted, refused]);
}

async function listedOn(app: { baseUrl: string }, token: string) {
  const response = await fetch(`${app.baseUrl}/api/active-agents`, {
    headers: { 'X-App-Key': 'opsdeck-console', 'X-Auth-Token': token },
  });
  if (!response.ok) return undefined;
  return ((await response.json()) as AgentConnection[]).map((agent) => agent.sessionId).sort();
}

/** Until `condition` resolves true (asked again and again), or fails after `timeoutMs`. */
async function eventually(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Until Redis counts both instances on the channels: they hear each other. */
async function bothSubscribed() {
  const client = new Redis(redis.url);
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const counts = (await client.pubsub('NUMSUB', `${prefix}:live`, `${prefix}:domain-events`)) as (
        | string
        | number
      )[];
      if (Number(counts[1]) >= 2 && Number(counts[3]) >= 2) return;
      if (Date.now() > deadline) throw new Error(`subscribers: ${counts.join(' ')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    client.disconnect();
  }
}

describe('Redis away and back, with two instances', () => {
  it('loses no command silently, converges presence, and evicts a session signed out meanwhile', async () => {
    const tenantId = acme.company.tenantId;
    await bothSubscribed();
    const consoleA = await watcherOn(a.baseUrl);
    const consoleB = await watcherOn(b.baseUrl);
    const leavingUser = await tokenFor(a, acme.company, ['VIEW_WORKFLOW_EVENTS', 'VIEW_WORKFLOW']);
    const signedOut = await watcherOn(b.baseUrl, leavingUser);
    const onA = await agentOn(a.baseUrl, [consoleA, consoleB]);
    const onB = await agentOn(b.baseUrl, [consoleA, consoleB]);
    const leaver = await agentOn(b.baseUrl, [consoleA, consoleB]);
    const entry = {
      id: 1,
      workflowId: acme.workflow.id,
      name: acme.workflow.name,
      status: 'QUEUED' as const,
      position: 1,
      executionStart: null,
    };
    await onB.agent.send(DESTINATIONS.agentQueue, { added: [entry], updated: [], removed: [] }, true);
    await consoleA.next(`${DESTINATIONS.queue}/${tenantId}`, (changes: { sessionId: string }) => {
      return changes.sessionId === onB.sessionId;
    });
    const workflowId = acme.workflow.id;
    /** The commands receipted for each agent's session: exactly what it must receive. */
    const receipted = new Map<string, AgentCommand[]>([
      [onA.sessionId, []],
      [onB.sessionId, []],
    ]);
    const send = async (from: LivePeer, sessionId: string, sent: AgentCommand) => {
      const { command: kind, ...fields } = sent;
      const destination = kind === 'execute' ? DESTINATIONS.executeCommand : DESTINATIONS.terminateCommand;
      const outcome = await command(from, destination, { sessionId, ...fields });
      if (outcome === 'RECEIPT') receipted.get(sessionId)!.push(sent);
      return outcome;
    };

    await redis.kill();

    // Every command either reaches its agent (receipted) or says it could not cross.
    const execute: AgentCommand = { command: 'execute', workflowId };
    const terminate: AgentCommand = { command: 'terminate', workflowId, queueId: 1 };
    for (const [from, to, sent] of [
      [consoleA, onB, execute],
      [consoleA, onB, terminate],
      [consoleB, onA, execute],
      [consoleA, onB, execute],
    ] as const) {
      const outcome = await send(from, to.sessionId, sent);
      if (outcome !== 'RECEIPT') expect(outcome).toBe('ERROR_AGENT_UNREACHABLE');
    }
    // An agent on the console's own instance needs no Redis.
    expect(await send(consoleA, onA.sessionId, execute)).toBe('RECEIPT');
    // An agent's own changes are kept, and told to the other instance once it is back.
    await onB.agent.send(
      DESTINATIONS.agentQueue,
      { updated: [{ ...entry, status: 'EXECUTING', executionStart: 1 }] },
      true,
    );
    // An agent that leaves, unannounced, and a sign-out the other instance cannot hear of.
    await leaver.agent.close();
    expect((await a.call('/api/logout', { token: leavingUser })).status).toBe(200);
    // The other instance resolves every session from the database meanwhile: it refuses at once.
    expect(
      (
        await fetch(`${b.baseUrl}/api/test`, {
          headers: { 'X-App-Key': 'opsdeck-console', 'X-Auth-Token': leavingUser },
        })
      ).status,
    ).toBe(401);

    await redis.start();
    const returnedAt = Date.now();

    const expected = JSON.stringify([onA.sessionId, onB.sessionId].sort());
    await eventually(
      async () =>
        JSON.stringify(await listedOn(a, acme.watcher)) === expected &&
        JSON.stringify(await listedOn(b, acme.watcher)) === expected,
      WINDOW_MS,
      'presence on both instances',
    );
    await consoleA.next<{ sessionId: string }>(
      `${DESTINATIONS.disconnect}/${tenantId}`,
      (message) => message.sessionId === leaver.sessionId,
      WINDOW_MS,
    );
    expect(await signedOut.closed).toBe('ERROR_UNAUTHORIZED');
    const onBSeenFromA = await a.call<AgentConnection[]>('/api/active-agents', { token: acme.watcher });
    expect(onBSeenFromA.body.find((agent) => agent.sessionId === onB.sessionId)?.queuedWorkflows).toMatchObject([
      { id: 1, status: 'EXECUTING' },
    ]);
    expect(Date.now() - returnedAt).toBeLessThan(WINDOW_MS);

    // Commands cross again (the first may still find the other instance not listening: it says so).
    for (;;) {
      const outcome = await send(consoleA, onB.sessionId, execute);
      if (outcome === 'RECEIPT') break;
      expect(outcome).toBe('ERROR_AGENT_UNREACHABLE');
      expect(Date.now() - returnedAt).toBeLessThan(WINDOW_MS);
    }
    await send(consoleB, onA.sessionId, execute);
    // Each agent got exactly the commands receipted for it, in order: none lost, none unannounced.
    // Checked once a last command, of a workflow of its own, has come to it from the other instance,
    // the way a command refused meanwhile would have come (Redis keeps a publisher's order), and
    // after every command sent on its own instance (told to it at once).
    const author = await tokenFor(a, acme.company, ['VIEW_WORKFLOW', 'CREATE_WORKFLOW']);
    const last = await uploadWorkflow(a, author, 'Workflows', 'Last command.rax');
    expect(last.status).toBe(201);
    for (const [from, { agent, sessionId }] of [
      [consoleB, onA],
      [consoleA, onB],
    ] as const) {
      const commands = await receivedUntil(agent, {
        cause: async () => {
          // Sent again while the other instance is not listening yet (it says so), as above.
          for (let attempt = 1; ; attempt += 1) {
            const outcome = await command(from, DESTINATIONS.executeCommand, { sessionId, workflowId: last.body.id });
            if (outcome === 'RECEIPT') return;
            expect(outcome).toBe('ERROR_AGENT_UNREACHABLE');
            expect(attempt).toBeLessThan(50);
          }
        },
        destination: DESTINATIONS.agentCommands,
        match: (received: AgentCommand) => received.command === 'execute' && received.workflowId === last.body.id,
      });
      expect(
        commands.filter((message) => message.destination === DESTINATIONS.agentCommands).map((message) => message.body),
      ).toEqual([...receipted.get(sessionId)!, { command: 'execute', workflowId: last.body.id }]);
    }
  }, 30_000);
});
