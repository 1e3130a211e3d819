import type { Activity } from '@opsdeck/contract/activity';
import type { AgentWorkflow, ExecutionReport } from '@opsdeck/contract/live';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentOptions, SimulatedAgent } from './agent';
import { startFakeServer } from './fake-live-server';
import type { PlannedSpan } from './workday';

const KEY = 'ODK-7F3Q-K2M9-X4TB-1QZ8-RWCE-9HJN-VD2K-XW2D';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(server: Partial<{ refuse: string; receipts: boolean }> = {}, options: Partial<AgentOptions> = {}) {
  const fake = await startFakeServer(server);
  const lines: string[] = [];
  const agent = new SimulatedAgent({
    url: fake.url,
    licenseKey: KEY,
    macAddress: 'AA:BB:CC:DD:EE:FF',
    hostname: 'robot-7',
    secret: 'the-secret',
    speed: 1000,
    failureRate: 0,
    selfStartPerHour: 0,
    log: (_level, line) => lines.push(line),
    ...options,
  });
  cleanups.push(fake.close, () => agent.stop());
  return { fake, agent, lines };
}

const next = <T>(agent: SimulatedAgent, event: 'execution' | 'receipted' | 'refused' | 'workflows') =>
  new Promise<T>((resolve) => agent.once(event, ((value: T) => resolve(value)) as never));

const until = async (check: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('SimulatedAgent over STOMP', () => {
  it('connects with the headers of docs/live-channel.md and subscribes to its three destinations', async () => {
    const { fake, agent, lines } = await setUp();
    const listed = next<AgentWorkflow[]>(agent, 'workflows');
    agent.start();
    await agent.whenConnected();
    expect((await listed).map((workflow) => workflow.id)).toEqual([1, 2]);
    const connect = fake.frames.find((frame) => frame.command === 'CONNECT')!;
    expect(connect.headers).toMatchObject({
      'X-App-Key': 'opsdeck-agent',
      'X-App-Secret': 'the-secret',
      'license-key': KEY,
      'mac-address': 'AA:BB:CC:DD:EE:FF',
      hostname: 'robot-7',
      platform: 'agent',
      'heart-beat': '10000,10000',
    });
    expect(
      fake.frames.filter((frame) => frame.command === 'SUBSCRIBE').map((frame) => frame.headers.destination),
    ).toEqual(['/user/queue/workflows', '/user/queue/commands', '/user/topic/errors']);
    expect(lines.join('\n')).not.toContain('7F3Q');
  });

  it('runs an executed workflow: queue changes, a receipted report, then the last execution', async () => {
    const { fake, agent } = await setUp();
    agent.start();
    await next(agent, 'workflows');
    const receipted = next<string>(agent, 'receipted');
    expect(fake.command({ command: 'execute', workflowId: 1 })).toBe(true);
    const reportId = await receipted;

    const queue = fake.sent('/agent/queue');
    expect(queue).toEqual([
      {
        added: [{ id: 1, workflowId: 1, name: 'Quick', status: 'QUEUED', position: 1, executionStart: null }],
        updated: [],
        removed: [],
      },
      { added: [], updated: [expect.objectContaining({ id: 1, status: 'EXECUTING', position: 1 })], removed: [] },
      { added: [], updated: [], removed: [1] },
    ]);
    const [report] = fake.sent('/agent/execution') as unknown as ExecutionReport[];
    expect(report).toMatchObject({
      id: reportId,
      workflowId: 1,
      statusType: 'success',
      errorMessage: null,
      errorActivity: null,
    });
    expect(report!.executionEnd).toBeGreaterThanOrEqual(report!.executionStart);
    expect(fake.sent('/agent/workflows')).toEqual([
      { updated: [{ id: 1, name: 'Quick', lastExecution: report!.executionEnd }] },
    ]);
    expect(fake.downloads[0]).toEqual({ appKey: 'opsdeck-agent', key: KEY });
    expect(agent.snapshot()).toMatchObject({ queue: [], pendingReports: 0 });
  });

  it('terminates a running entry (status unknown) and unqueues a queued one (no report)', async () => {
    const { fake, agent } = await setUp({}, { speed: 1 });
    agent.start();
    await next(agent, 'workflows');
    // The running entry's first step, once its file has come (terminated before, it names no step).
    const stepped = new Promise((resolve) => agent.once('step', resolve));
    fake.command({ command: 'execute', workflowId: 2 });
    fake.command({ command: 'execute', workflowId: 2 });
    fake.command({ command: 'execute', workflowId: 1 });
    await until(() => agent.snapshot().queue.length === 3);
    await until(() => agent.snapshot().queue[0]?.status === 'EXECUTING');

    fake.command({ command: 'terminate', workflowId: 2, queueId: 2 });
    await until(() => agent.snapshot().queue.length === 2);
    // The agent's own queue changes first; the change it sends crosses the socket after.
    await until(() => fake.sent('/agent/queue').some((change) => (change.removed as number[]).includes(2)));
    expect(fake.sent('/agent/queue').at(-1)).toEqual({
      added: [],
      updated: [expect.objectContaining({ id: 3, position: 2 })],
      removed: [2],
    });
    expect(fake.sent('/agent/execution')).toEqual([]);

    await stepped;
    const ended = next<ExecutionReport>(agent, 'execution');
    fake.command({ command: 'terminate', workflowId: 2, queueId: 1 });
    expect(await ended).toMatchObject({
      workflowId: 2,
      statusType: 'unknown',
      errorMessage: 'Terminated from the console',
      errorActivity: 'Log on',
    });
    // The next entry moves up and runs (at speed 1 its first step takes a second: stop it here).
    await until(() => agent.snapshot().queue[0]?.id === 3 && agent.snapshot().queue[0]?.status === 'EXECUTING');
    expect(agent.terminate(99)).toBe(false);
  });

  it('re-announces its queue and re-sends an unreceipted report after a reconnect', async () => {
    const { fake, agent } = await setUp({ receipts: false }, { random: () => 0 });
    agent.start();
    await next(agent, 'workflows');
    const report = await new Promise<ExecutionReport>((resolve) => {
      agent.once('execution', resolve);
      fake.command({ command: 'execute', workflowId: 1 });
    });
    agent.execute(2);
    await until(() => agent.snapshot().queue[0]?.status === 'EXECUTING');
    expect(agent.snapshot().pendingReports).toBe(1);

    await until(() => fake.sent('/agent/execution').length === 1 && fake.sent('/agent/queue').length === 5);
    fake.setReceipts(true);
    const receipted = next<string>(agent, 'receipted');
    fake.dropConnections();
    expect(await receipted).toBe(report.id);
    const sent = fake.sent('/agent/execution');
    expect(sent.map((item) => item.id)).toEqual([report.id, report.id]);
    const announce = fake.sent('/agent/queue').at(-1)!;
    expect(announce).toEqual({
      added: [expect.objectContaining({ workflowId: 2, status: 'EXECUTING', position: 1 })],
      updated: [],
      removed: [],
    });
  });

  it('sends a report the server refused for now again, on the same connection, until it is receipted', async () => {
    const { fake, agent } = await setUp({}, { reportRetry: { firstMs: 20, maxMs: 40 } });
    let refusals = 0;
    // The database away for three sends of the report: ERROR_SERVICE_UNAVAILABLE, no receipt.
    fake.setRefusal((destination) =>
      destination === '/agent/execution' && refusals++ < 3 ? 'ERROR_SERVICE_UNAVAILABLE' : undefined,
    );
    agent.start();
    await next(agent, 'workflows');
    const receipted = next<string>(agent, 'receipted');
    const report = await new Promise<ExecutionReport>((resolve) => {
      agent.once('execution', resolve);
      agent.execute(1);
    });
    expect(await receipted).toBe(report.id);
    expect(fake.sent('/agent/execution').map((item) => item.id)).toEqual([report.id, report.id, report.id, report.id]);
    expect(fake.frames.filter((frame) => frame.command === 'CONNECT')).toHaveLength(1);
    expect(agent.snapshot().pendingReports).toBe(0);
  });

  it("drops a report the server refuses for good (the workflow is not the company's)", async () => {
    const { fake, agent, lines } = await setUp({}, { reportRetry: { firstMs: 20, maxMs: 40 } });
    fake.setRefusal((destination) => (destination === '/agent/execution' ? 'ERROR_WORKFLOW_NOT_EXIST' : undefined));
    agent.start();
    await next(agent, 'workflows');
    const refused = new Promise((resolve) => agent.once('refusal', resolve));
    agent.execute(1);
    expect(await refused).toMatchObject({ destination: '/agent/execution', key: 'ERROR_WORKFLOW_NOT_EXIST' });
    expect(agent.snapshot().pendingReports).toBe(0);
    expect(fake.sent('/agent/execution')).toHaveLength(1);
    expect(lines.some((line) => line.includes('refused: ERROR_WORKFLOW_NOT_EXIST'))).toBe(true);
  });

  it('reports a refused CONNECT by its key and waits long before trying again', async () => {
    const { agent } = await setUp({ refuse: 'ERROR_LICENSE_KEY_INVALIDATED' });
    const closed = new Promise<{ refusal: string | null; retryInMs: number | null }>((resolve) =>
      agent.once('disconnected', resolve),
    );
    const refused = next<string>(agent, 'refused');
    agent.start();
    expect(await refused).toBe('ERROR_LICENSE_KEY_INVALIDATED');
    const { refusal, retryInMs } = await closed;
    expect(refusal).toBe('ERROR_LICENSE_KEY_INVALIDATED');
    expect(retryInMs).toBeGreaterThanOrEqual(150_000);
    expect(agent.snapshot().lastRefusal).toBe('ERROR_LICENSE_KEY_INVALIDATED');
  });

  it('sends a frame of activity the server refused whole for now again, on the same connection, until receipted', async () => {
    // No jitter: the back-offs are 0.5 s and 1 s.
    const { fake, agent } = await setUp({}, { random: () => 0 });
    let refusals = 0;
    // The database away for two sends of the frame: ERROR_SERVICE_UNAVAILABLE, no span id, no receipt.
    fake.setRefusal((destination) =>
      destination === '/agent/activity' && refusals++ < 2 ? 'ERROR_SERVICE_UNAVAILABLE' : undefined,
    );
    agent.start();
    await agent.whenConnected();
    const now = Date.now();
    const id = '0b7e0000-0000-4000-8000-000000000003';
    agent.setActivityPlan([{ id, kind: 'session', start: now - 1_000, end: now + 60_000 }]);
    await until(() => agent.snapshot().pendingSpans === 0, 10_000);
    const frames = fake.sent('/agent/activity');
    expect(frames.map((frame) => (frame.events as Activity[]).map((span) => span.id))).toEqual([[id], [id], [id]]);
    expect(fake.frames.filter((frame) => frame.command === 'CONNECT')).toHaveLength(1);
  });

  it('acts out its activity plan: spans sent open as they start, with their end as they end, receipted', async () => {
    const { fake, agent } = await setUp();
    agent.start();
    await agent.whenConnected();
    const now = Date.now();
    const session: PlannedSpan = {
      id: '0b7e0000-0000-4000-8000-000000000001',
      kind: 'session',
      start: now + 100,
      end: now + 60_000,
    };
    const app: PlannedSpan = {
      id: '0b7e0000-0000-4000-8000-000000000002',
      kind: 'app',
      start: now + 150,
      end: now + 400,
      application: 'Excel',
    };
    expect(agent.setActivityPlan([session, app])).toBe(2);
    const spans = () => fake.sent('/agent/activity').flatMap((frame) => frame.events as Activity[]);
    await until(() => spans().length >= 3);
    expect(spans().map((span) => [span.id.slice(-1), span.end])).toEqual([
      ['1', null],
      ['2', null],
      ['2', app.end],
    ]);
    expect(spans()[1]).toEqual({ ...app, end: null });
    const frames = fake.frames.filter((frame) => frame.headers.destination === '/agent/activity');
    expect(frames.every((frame) => frame.headers.receipt?.startsWith('activity-'))).toBe(true);
    await until(() => agent.snapshot().pendingSpans === 0);
    expect(agent.snapshot()).toMatchObject({ openSpans: 1, pendingSpans: 0 });

    // A dropped connection: the open session is sent again (open), the ended app is not.
    fake.dropConnections();
    await until(() => spans().length >= 4, 5_000);
    expect(spans()[3]).toEqual({ ...session, end: null });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(spans()).toHaveLength(4);
  });
});
