import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionQueueChanges } from '@opsdeck/contract/live';
import { type AgentCommand, type AgentConnection, DEMO_AGENT_SECRET, DESTINATIONS } from '@opsdeck/contract/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { openPostgresTestDatabase } from '../../../test/database';
import { agentArrival, agentHeaders, connectPeer, type LivePeer, tenantConsole } from '../../../test/live';
import { type LiveTenant, liveTenants, newMac } from '../../../test/live-tenants';
import { deleteKeys, REDIS_URL, testPrefix } from '../../../test/redis';

/**
 * Two server instances on one PostgreSQL database and one Redis (docs/live-channel.md, "Several
 * instances"): A runs in this process, B is a real `npm start`-like process that the test kills
 * with SIGKILL.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// Short, so that a killed instance is swept within the test; long enough that a busy machine's
// stall of B (a process of its own, compiling modules as it first meets them) does not let its
// key lapse and have A sweep a live instance.
const INSTANCE_TTL_MS = 3000;

let a: TestApp;
let admin: string;
let acme: LiveTenant;
let b: { process: ChildProcess; baseUrl: string; dataDir: string };
let databaseUrl: string;
const prefix = testPrefix();
const peers: LivePeer[] = [];
const { tenant, newKey } = liveTenants(
  () => a,
  () => admin,
);

/** A console on A watching Acme's agents come and go (closed after the file). */
async function watcherOnA() {
  const watcher = await tenantConsole(a.baseUrl, acme.watcher, acme.company.tenantId, [
    DESTINATIONS.connect,
    DESTINATIONS.disconnect,
    DESTINATIONS.queue,
  ]);
  peers.push(watcher);
  return watcher;
}

/** An agent of Acme on the instance at `baseUrl`, once `watcher` has seen it connect. */
async function agentOn(baseUrl: string, watcher: LivePeer) {
  const key = await newKey(acme);
  const mac = newMac();
  // Confirmed: a command sent before B has made the agent's subscription would not be the agent's.
  const agent = await connectPeer(
    baseUrl,
    agentHeaders(key.key, mac),
    [DESTINATIONS.agentWorkflows, DESTINATIONS.agentCommands],
    { confirmed: true },
  );
  peers.push(agent);
  const { sessionId } = await agentArrival(watcher, acme.company.tenantId, mac);
  return { key, mac, agent, sessionId };
}

async function freePort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startInstanceB(databaseUrl: string) {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-instance-b-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      LIVE_INSTANCE_TTL_MS: String(INSTANCE_TTL_MS),
      AGENT_SECRET: DEMO_AGENT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'silent',
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const up = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { process: child, baseUrl, dataDir };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('instance B did not start');
}

beforeAll(async () => {
  const database = await openPostgresTestDatabase();
  a = await startTestApp(
    { REDIS_URL, REDIS_PREFIX: prefix, LIVE_INSTANCE_TTL_MS: String(INSTANCE_TTL_MS) },
    { database },
  );
  admin = await a.login(ADMIN.email, ADMIN.password);
  acme = await tenant('Acme Robotics');
  databaseUrl = database.url;
  b = await startInstanceB(databaseUrl);
}, 90_000);

afterAll(async () => {
  await Promise.all(peers.map((peer) => peer.close()));
  b?.process.kill('SIGKILL');
  await a?.close();
  if (b) await rm(b.dataDir, { recursive: true, force: true });
  await deleteKeys(prefix);
});

describe('two instances over Redis', () => {
  it('lets a console on one instance command an agent on the other, and see its queue move', async () => {
    const watcher = await watcherOnA();
    const { key, mac, agent, sessionId } = await agentOn(b.baseUrl, watcher);

    await watcher.send(DESTINATIONS.executeCommand, { sessionId, workflowId: acme.workflow.id }, true);
    // A refused command is told on the console's errors topic: a failure says which refusal.
    const command = await agent.next<AgentCommand>(DESTINATIONS.agentCommands).catch((error: Error) => {
      const refusals = JSON.stringify(watcher.received.get(DESTINATIONS.errors) ?? []);
      throw new Error(`${error.message}; the console was told ${refusals}`);
    });
    expect(command).toEqual({
      command: 'execute',
      workflowId: acme.workflow.id,
    });
    const entry = {
      id: 1,
      workflowId: acme.workflow.id,
      name: acme.workflow.name,
      status: 'QUEUED' as const,
      position: 1,
      executionStart: null,
    };
    await agent.send(DESTINATIONS.agentQueue, { added: [entry], updated: [], removed: [] }, true);
    expect(await watcher.next<SessionQueueChanges>(`${DESTINATIONS.queue}/${acme.company.tenantId}`)).toMatchObject({
      sessionId,
      added: [entry],
    });
    await agent.send(
      DESTINATIONS.agentQueue,
      { updated: [{ ...entry, status: 'EXECUTING', executionStart: 1 }] },
      true,
    );
    await watcher.next<SessionQueueChanges>(`${DESTINATIONS.queue}/${acme.company.tenantId}`, (changes) =>
      changes.updated.some((item) => item.status === 'EXECUTING'),
    );
    const listedOnA = await a.call<AgentConnection[]>('/api/active-agents', { token: acme.watcher });
    expect(listedOnA.body.find((connection) => connection.sessionId === sessionId)?.queuedWorkflows).toMatchObject([
      { id: 1, status: 'EXECUTING' },
    ]);

    // The same machine connecting again through the other instance replaces its session there too:
    // the presence (which session holds the key) is shared.
    const elsewhere = await connectPeer(a.baseUrl, agentHeaders(key.key, mac)).then(
      async (peer) => {
        peers.push(peer);
        return 'CONNECTED';
      },
      (error: { key?: string }) => error.key,
    );
    expect(elsewhere).toBe('CONNECTED');
    expect(await agent.closed).toBe('ERROR_AGENT_REPLACED');
  }, 30_000);

  it('stops on SIGTERM with agents connected, and its agents leave every console at once', async () => {
    const c = await startInstanceB(databaseUrl);
    try {
      const watcher = await watcherOnA();
      const { agent, sessionId } = await agentOn(c.baseUrl, watcher);
      const exited = new Promise<number | null>((resolve) => c.process.once('exit', (code) => resolve(code)));
      const stoppedAt = Date.now();
      c.process.kill('SIGTERM');
      await watcher.next<{ sessionId: string }>(
        `${DESTINATIONS.disconnect}/${acme.company.tenantId}`,
        (message) => message.sessionId === sessionId,
        INSTANCE_TTL_MS,
      );
      expect(await exited).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
      expect(await agent.closed).toBeNull();
    } finally {
      c.process.kill('SIGKILL');
      await rm(c.dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('removes the agents of a killed instance from every console within the window', async () => {
    const watcher = await watcherOnA();
    const { sessionId } = await agentOn(b.baseUrl, watcher);

    const killedAt = Date.now();
    b.process.kill('SIGKILL');
    await watcher.next<{ sessionId: string }>(
      `${DESTINATIONS.disconnect}/${acme.company.tenantId}`,
      (message) => message.sessionId === sessionId,
      INSTANCE_TTL_MS * 4,
    );
    expect(Date.now() - killedAt).toBeLessThan(INSTANCE_TTL_MS * 4);
    const listed = await a.call<AgentConnection[]>('/api/active-agents', { token: acme.watcher });
    expect(listed.body.map((connection) => connection.sessionId)).not.toContain(sessionId);
  }, 30_000);
});
