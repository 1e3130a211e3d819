import { DESTINATIONS } from '@opsdeck/contract/live';
import type { IFrame, IMessage, StompConfig, StompHeaders } from '@stomp/stompjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildAgent, buildQueued } from '../../test/live-builders';
import { isApiError } from '../api-client';
import {
  createLiveClient,
  isFinalRefusal,
  type LiveClientOptions,
  reconnectDelay,
  type StompLike,
} from './live-client';

/** A STOMP client that connects when told: the tests play the server. */
class FakeStomp implements StompLike {
  connected = false;
  active = false;
  readonly subscriptions = new Map<string, (message: IMessage) => void>();
  readonly published: { destination: string; body: string; headers: StompHeaders }[] = [];
  readonly receipts = new Map<string, (frame: IFrame) => void>();

  constructor(readonly config: StompConfig) {}

  activate() {
    this.active = true;
  }
  async deactivate() {
    this.active = false;
    this.connected = false;
  }
  publish({ destination, body = '', headers = {} }: { destination: string; body?: string; headers?: StompHeaders }) {
    if (!this.connected) throw new TypeError('There is no underlying STOMP connection');
    this.published.push({ destination, body, headers });
  }
  subscribe(destination: string, callback: (message: IMessage) => void) {
    this.subscriptions.set(destination, callback);
    return {};
  }
  watchForReceipt(receiptId: string, callback: (frame: IFrame) => void) {
    this.receipts.set(receiptId, callback);
  }

  // The server's side.
  open() {
    this.connected = true;
    this.config.onConnect?.({ headers: {} } as IFrame);
  }
  deliver(destination: string, body: unknown) {
    const callback = this.subscriptions.get(destination);
    if (!callback) throw new Error(`not subscribed to ${destination}`);
    callback({ body: JSON.stringify(body) } as IMessage);
  }
  error(key: string) {
    this.config.onStompError?.({ headers: { message: key } } as unknown as IFrame);
  }
  close() {
    this.connected = false;
    this.config.onWebSocketClose?.({} as CloseEvent);
  }
  receipt(id: string) {
    this.receipts.get(id)?.({ headers: { 'receipt-id': id } } as unknown as IFrame);
  }
  sent(destination: string) {
    return this.published.filter((frame) => frame.destination === destination);
  }
}

let made: FakeStomp[] = [];
const latest = () => made.at(-1)!;

function client(options: Partial<LiveClientOptions> = {}) {
  const live = createLiveClient({
    token: 'tok-1',
    tenantId: null,
    url: 'ws://console.test/api/live',
    random: () => 1,
    createStomp: (config) => {
      const stomp = new FakeStomp(config);
      made.push(stomp);
      return stomp;
    },
    ...options,
  });
  live.start();
  return live;
}

/** Connected, identified as `tenantId`'s console, with the agents listed. */
function connected(tenantId: string | null, options: Partial<LiveClientOptions> = {}) {
  const live = client(options);
  latest().open();
  latest().deliver(DESTINATIONS.identity, { tenantId, sessionId: 'console-1' });
  return live;
}

async function keyOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return isApiError(error) ? error.key : String(error);
  }
  return 'resolved';
}

beforeEach(() => {
  made = [];
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('live client', () => {
  it('connects with the console headers and heart-beats; the tenant header only for an admin acting on one company', () => {
    client();
    expect(latest().config.brokerURL).toBe('ws://console.test/api/live');
    expect(latest().config.connectHeaders).toEqual({
      'X-App-Key': 'opsdeck-console',
      'X-Auth-Token': 'tok-1',
      platform: 'console',
    });
    expect([latest().config.heartbeatIncoming, latest().config.heartbeatOutgoing]).toEqual([10_000, 10_000]);
    client({ tenantId: 'tenant-globex' });
    expect(latest().config.connectHeaders?.['X-Tenant-Id']).toBe('tenant-globex');
  });

  it('subscribes after CONNECTED, then the tenant topics of its identity, and asks for the agents', () => {
    const live = client();
    expect(live.getSnapshot().connection.status).toBe('connecting');
    expect(latest().subscriptions.size).toBe(0);
    latest().open();
    expect(live.getSnapshot().connection).toEqual({ status: 'connected', errorKey: null });
    expect([...latest().subscriptions.keys()]).toEqual([
      DESTINATIONS.errors,
      DESTINATIONS.activeAgentsReply,
      DESTINATIONS.activeAgents,
      DESTINATIONS.identity,
    ]);
    latest().deliver(DESTINATIONS.identity, { tenantId: 'tenant-acme', sessionId: 'console-1' });
    expect([...latest().subscriptions.keys()].slice(4)).toEqual([
      '/topic/connect/tenant-acme',
      '/topic/disconnect/tenant-acme',
      '/topic/workflows/tenant-acme',
      '/topic/queue/tenant-acme',
      '/topic/executions/tenant-acme',
    ]);
    expect(latest().sent(DESTINATIONS.requestActiveAgents)).toEqual([
      { destination: DESTINATIONS.requestActiveAgents, body: '', headers: {} },
    ]);
    expect(latest().sent(DESTINATIONS.consoleIdentity)).toHaveLength(1);
    expect(live.getSnapshot().live.identity).toEqual({ tenantId: 'tenant-acme', sessionId: 'console-1' });
  });

  it('uses the topics without a tenant for an admin watching every company', () => {
    connected(null);
    expect([...latest().subscriptions.keys()].slice(4)).toEqual([
      '/topic/connect',
      '/topic/disconnect',
      '/topic/workflows',
      '/topic/queue',
      '/topic/executions',
    ]);
  });

  it('tells its execution listeners of each stored run, until they stop listening; a notice off the contract is dropped', () => {
    const live = connected('tenant-acme');
    const heard = vi.fn();
    const stop = live.onExecution(heard);
    const notice = {
      id: 'run-1',
      tenantId: 'tenant-acme',
      workflowId: 4,
      executionStart: 1_000,
      executionEnd: 2_000,
      statusType: 'faulted',
    };
    latest().deliver('/topic/executions/tenant-acme', notice);
    expect(heard).toHaveBeenCalledWith(notice);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    latest().deliver('/topic/executions/tenant-acme', { ...notice, statusType: 'exploded' });
    expect(warn).toHaveBeenCalled();
    stop();
    latest().deliver('/topic/executions/tenant-acme', notice);
    expect(heard).toHaveBeenCalledOnce();
  });

  it('follows only the runs when told not to follow the agents: no agent topics, no agent list asked for', () => {
    connected('tenant-acme', { agents: false });
    expect([...latest().subscriptions.keys()]).toEqual([
      DESTINATIONS.errors,
      DESTINATIONS.identity,
      '/topic/executions/tenant-acme',
    ]);
    expect(latest().sent(DESTINATIONS.requestActiveAgents)).toEqual([]);
    expect(latest().sent(DESTINATIONS.consoleIdentity)).toHaveLength(1);
  });

  it('hears only the person’s notifications on the shell’s connection, until its listeners stop', () => {
    const live = connected('tenant-acme', { agents: false, runs: false, notifications: true });
    expect([...latest().subscriptions.keys()]).toEqual([
      DESTINATIONS.errors,
      DESTINATIONS.notifications,
      DESTINATIONS.identity,
    ]);
    const heard = vi.fn();
    const stop = live.onNotification(heard);
    const notification = {
      id: 3,
      kind: 'agent_offline',
      title: 'Agent offline',
      body: 'RPA-0020 offline for 25 min',
      link: null,
      alertId: 9,
      open: true,
      createdAt: 1_000,
      readAt: null,
    };
    latest().deliver(DESTINATIONS.notifications, notification);
    expect(heard).toHaveBeenCalledWith(notification);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    latest().deliver(DESTINATIONS.notifications, { ...notification, kind: 'coffee_empty' });
    expect(warn).toHaveBeenCalled();
    stop();
    latest().deliver(DESTINATIONS.notifications, notification);
    expect(heard).toHaveBeenCalledOnce();
  });

  it('applies the messages to its state and echoes its connect for an agent it did not know', () => {
    const live = connected('tenant-acme');
    const listener = vi.fn();
    live.subscribe(listener);
    latest().deliver(DESTINATIONS.activeAgentsReply, [buildAgent({ sessionId: 'a' })]);
    latest().deliver('/topic/connect/tenant-acme', buildAgent({ sessionId: 'b' }));
    latest().deliver('/topic/connect/tenant-acme', buildAgent({ sessionId: 'b', hostname: 'again' }));
    expect(latest().sent(DESTINATIONS.consoleConnect)).toHaveLength(1);
    latest().deliver('/topic/queue/tenant-acme', {
      sessionId: 'b',
      added: [buildQueued({ id: 3 })],
      updated: [],
      removed: [],
    });
    latest().deliver('/topic/disconnect/tenant-acme', { sessionId: 'a' });
    const { agents } = live.getSnapshot().live;
    expect(agents.map((agent) => [agent.sessionId, agent.hostname, agent.queuedWorkflows.length])).toEqual([
      ['b', 'again', 1],
    ]);
    expect(listener).toHaveBeenCalledTimes(5);
    // A message off the contract changes nothing.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    latest().deliver(DESTINATIONS.activeAgents, [{ sessionId: 'broken' }]);
    expect(live.getSnapshot().live.agents).toHaveLength(1);
    expect(warn).toHaveBeenCalled();
  });

  it('resolves a command on its RECEIPT and rejects it with the refusal for its destination', async () => {
    const live = connected('tenant-acme');
    const executed = live.execute('agent-1', 7);
    const [frame] = latest().sent(DESTINATIONS.executeCommand);
    expect(JSON.parse(frame!.body)).toEqual({ sessionId: 'agent-1', workflowId: 7 });
    expect(frame!.headers['content-type']).toBe('application/json');
    latest().receipt(frame!.headers.receipt!);
    expect(await keyOf(executed)).toBe('resolved');

    const terminated = live.terminate('agent-1', 7, 3);
    expect(JSON.parse(latest().sent(DESTINATIONS.terminateCommand)[0]!.body)).toEqual({
      sessionId: 'agent-1',
      workflowId: 7,
      queueId: 3,
    });
    latest().deliver(DESTINATIONS.errors, {
      destination: DESTINATIONS.terminateCommand,
      key: 'ERROR_AGENT_QUEUE_ENTRY_NOT_EXIST',
      message: 'gone',
    });
    expect(await keyOf(terminated)).toBe('ERROR_AGENT_QUEUE_ENTRY_NOT_EXIST');
  });

  it('rejects a command at once when not connected, and the waiting ones when the connection drops', async () => {
    const live = client();
    expect(await keyOf(live.execute('agent-1', 7))).toBe('ERROR_WEBSOCKET_CONNECTION_FAILURE');
    latest().open();
    const waiting = live.execute('agent-1', 7);
    latest().close();
    expect(await keyOf(waiting)).toBe('ERROR_WEBSOCKET_CONNECTION_FAILURE');
    expect(await keyOf(live.terminate('agent-1', 7, 1))).toBe('ERROR_WEBSOCKET_CONNECTION_FAILURE');
  });

  it('fails a command nobody answers after its timeout', async () => {
    const live = connected('tenant-acme', { commandTimeoutMs: 1000 });
    const waiting = live.execute('agent-1', 7);
    vi.advanceTimersByTime(1000);
    expect(await keyOf(waiting)).toBe('ERROR_WEBSOCKET_CONNECTION_FAILURE');
  });

  it('clears the agents on a loss and reconnects with a doubling back-off, reset by a success', () => {
    const live = connected('tenant-acme');
    latest().deliver(DESTINATIONS.activeAgentsReply, [buildAgent()]);
    latest().close();
    expect(live.getSnapshot()).toEqual({
      connection: { status: 'reconnecting', errorKey: null },
      live: { identity: null, agents: [] },
    });
    expect(made).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(made).toHaveLength(2);
    expect(latest().active).toBe(true);
    latest().close(); // the server is still down
    vi.advanceTimersByTime(1999);
    expect(made).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(made).toHaveLength(3);
    latest().open();
    expect(live.getSnapshot().connection.status).toBe('connected');
    latest().close();
    vi.advanceTimersByTime(1000);
    expect(made).toHaveLength(4);
  });

  it('stops on a refused CONNECT, shows its key, and signs out on ERROR_UNAUTHORIZED', () => {
    const onUnauthorized = vi.fn();
    const live = client({ onUnauthorized });
    latest().error('ERROR_UNAUTHORIZED');
    latest().close();
    expect(live.getSnapshot().connection).toEqual({ status: 'refused', errorKey: 'ERROR_UNAUTHORIZED' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(60_000);
    expect(made).toHaveLength(1);

    const forbidden = client();
    latest().error('ERROR_FORBIDDEN');
    latest().close();
    expect(forbidden.getSnapshot().connection).toEqual({ status: 'refused', errorKey: 'ERROR_FORBIDDEN' });
    forbidden.retry();
    expect(forbidden.getSnapshot().connection.status).toBe('connecting');
    expect(made).toHaveLength(3);
  });

  it('reconnects after a transient ERROR (heart-beat timeout once connected, service unavailable)', () => {
    const live = connected('tenant-acme');
    latest().error('ERROR_LIVE_HEARTBEAT_TIMEOUT');
    latest().close();
    expect(live.getSnapshot().connection.status).toBe('reconnecting');
    vi.advanceTimersByTime(1000);
    latest().error('ERROR_SERVICE_UNAVAILABLE');
    latest().close();
    expect(live.getSnapshot().connection.status).toBe('reconnecting');
  });

  it('stops reconnecting when stopped, and starts again afterwards', () => {
    const live = connected('tenant-acme');
    const first = latest();
    live.stop();
    expect(first.active).toBe(false);
    first.close();
    vi.advanceTimersByTime(60_000);
    expect(made).toHaveLength(1);
    live.start();
    expect(made).toHaveLength(2);
  });
});

describe('reconnectDelay', () => {
  it('doubles from 1 s to a 30 s cap, jittered down by at most a quarter', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => reconnectDelay(attempt, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(reconnectDelay(0, () => 0)).toBe(750);
    expect(reconnectDelay(9, () => 0)).toBe(22500);
  });
});

describe('isFinalRefusal', () => {
  it('stops for authentication and authority keys, retries transient ones', () => {
    expect(isFinalRefusal('ERROR_UNAUTHORIZED', false)).toBe(true);
    expect(isFinalRefusal('ERROR_FORBIDDEN', false)).toBe(true);
    expect(isFinalRefusal('ERROR_TENANT_FORBIDDEN', true)).toBe(true);
    expect(isFinalRefusal('ERROR_SERVICE_UNAVAILABLE', true)).toBe(false);
    expect(isFinalRefusal('ERROR_LIVE_SLOW_CONSUMER', false)).toBe(false);
    expect(isFinalRefusal('ERROR_SOMETHING_NEW', true)).toBe(true);
    expect(isFinalRefusal('ERROR_SOMETHING_NEW', false)).toBe(false);
  });
});
