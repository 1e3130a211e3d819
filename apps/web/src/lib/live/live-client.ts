import { Notification } from '@opsdeck/contract/alerts';
import { CONSOLE_APP_KEY } from '@opsdeck/contract/http';
import {
  AgentConnection,
  CONNECT_HEADERS,
  type ConsoleIdentity,
  DESTINATIONS,
  ExecutionStatus,
  LIVE_PATH,
  type LiveRefusal,
  QueueChanges,
  SERVER_HEART_BEAT,
  tenantTopic,
  WorkflowChanges,
} from '@opsdeck/contract/live';
import { Client, type IFrame, type IMessage, type StompConfig, type StompHeaders } from '@stomp/stompjs';
import { z } from 'zod';
import { ApiError } from '../api-client';
import {
  type ExecutionListener,
  INITIAL_SNAPSHOT,
  type LiveSnapshot,
  type LiveSource,
  type NotificationListener,
} from './live-source';
import type { LiveEvent } from './live-state';
import { liveReducer } from './live-state';

/** The part of @stomp/stompjs's Client this wrapper drives (a fake in the tests). */
export interface StompLike {
  readonly connected: boolean;
  activate(): void;
  deactivate(): Promise<void>;
  publish(params: { destination: string; body?: string; headers?: StompHeaders }): void;
  subscribe(destination: string, callback: (message: IMessage) => void): unknown;
  watchForReceipt(receiptId: string, callback: (frame: IFrame) => void): void;
}

export interface LiveClientOptions {
  /** The session token (X-Auth-Token), as the api-client sends it. */
  token: string | null;
  /** X-Tenant-Id: the company a provider admin acts on; null sends none (he watches every company). */
  tenantId: string | null;
  /** The app's sign-out path, for a CONNECT refused with ERROR_UNAUTHORIZED (as a 401 does). */
  onUnauthorized?: () => void;
  /** Defaults to ws(s)://<this host>/api/live. */
  url?: string;
  /** Makes one STOMP client per attempt; the real @stomp/stompjs Client unless a test passes a fake. */
  createStomp?: (config: StompConfig) => StompLike;
  /** For the back-off's jitter. */
  random?: () => number;
  /** A command with neither RECEIPT nor refusal by then fails as a lost connection. */
  commandTimeoutMs?: number;
  /**
   * Follow the agents (their list, connections, workflows and queues); true unless a page only
   * listens for runs (`onExecution`): an admin's console of every company then skips the lists.
   */
  agents?: boolean;
  /** Hear the runs stored (`onExecution`); true unless the connection is only for notifications. */
  runs?: boolean;
  /** Hear the person's new notifications (`onNotification`): the signed-in shell's connection. */
  notifications?: boolean;
}

export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
const COMMAND_TIMEOUT_MS = 15_000;
const CONNECTION_FAILURE = 'ERROR_WEBSOCKET_CONNECTION_FAILURE';

/**
 * The wait before reconnection attempt `attempt` (0 for the first after a loss): 1 s doubling to
 * 30 s, less up to a quarter at random so that consoles dropped together (a server restart) do not
 * come back in one burst.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(step * (0.75 + 0.25 * random()));
}

/**
 * Keys of an ERROR frame that retrying cannot change: the client stops and says so rather than
 * hammering the server. Any other ERROR (a heart-beat timeout, an overloaded server) is a lost
 * connection and the back-off applies.
 */
const FINAL_KEYS: ReadonlySet<string> = new Set([
  'ERROR_UNAUTHORIZED',
  'ERROR_FORBIDDEN',
  'ERROR_TENANT_FORBIDDEN',
  'ERROR_APP_KEY_INVALID',
]);
const TRANSIENT_KEYS: ReadonlySet<string> = new Set([
  'ERROR_SERVICE_UNAVAILABLE',
  'ERROR_GENERAL_INTERNAL',
  'ERROR_LIVE_HEARTBEAT_TIMEOUT',
  'ERROR_LIVE_SLOW_CONSUMER',
]);

/** Whether an ERROR frame ends the attempts: a final key, or any non-transient refusal of CONNECT itself. */
export function isFinalRefusal(key: string, beforeConnected: boolean): boolean {
  if (FINAL_KEYS.has(key)) return true;
  return beforeConnected && key.startsWith('ERROR_') && !TRANSIENT_KEYS.has(key);
}

export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${LIVE_PATH}`;
}

/** A failed command, read by the shared modals as any failed API call (its key is the text shown). */
const commandError = (key: string, message = key) => new ApiError(0, key, message);

const SessionWorkflowChanges = WorkflowChanges.extend({ sessionId: AgentConnection.shape.sessionId });
const SessionQueueChanges = QueueChanges.extend({ sessionId: AgentConnection.shape.sessionId });
const AgentList = AgentConnection.array();
const Disconnect = AgentConnection.pick({ sessionId: true });
/** `ExecutionNotice` of the contract (a type there), checked as the other messages are. */
const ExecutionNoticeBody = z.object({
  id: z.string(),
  tenantId: z.string().nullable(),
  workflowId: z.number().int(),
  executionStart: z.number().int(),
  executionEnd: z.number().int(),
  statusType: ExecutionStatus,
});

function parseJson(message: IMessage): unknown {
  try {
    return JSON.parse(message.body);
  } catch {
    return undefined;
  }
}

interface PendingCommand {
  receipt: string;
  destination: string;
  resolve: () => void;
  reject: (error: ApiError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The live agent channel (docs/live-channel.md, "Consoles") as a store a page subscribes to: the
 * agents for the Events page and the agent report, the stored runs for the report pages.
 */
export interface LiveClient extends LiveSource {
  /** Connects (again, after stop); reconnects by itself until stopped or refused. */
  start(): void;
  /** Disconnects, cancels the reconnection and fails the commands waiting for an answer. */
  stop(): void;
}

export function createLiveClient(options: LiveClientOptions): LiveClient {
  const createStomp = options.createStomp ?? ((config: StompConfig) => new Client(config));
  const random = options.random ?? Math.random;
  const commandTimeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const followsAgents = options.agents ?? true;
  const followsRuns = options.runs ?? true;
  const followsNotifications = options.notifications ?? false;
  const executionListeners = new Set<ExecutionListener>();
  const notificationListeners = new Set<NotificationListener>();

  let snapshot: LiveSnapshot = INITIAL_SNAPSHOT;
  const listeners = new Set<() => void>();
  let stomp: StompLike | null = null;
  let running = false;
  let refused = false;
  let connected = false;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pending: PendingCommand[] = [];
  let receiptSeq = 0;

  function setSnapshot(next: LiveSnapshot) {
    if (next === snapshot) return;
    snapshot = next;
    for (const listener of listeners) listener();
  }

  function setConnection(status: LiveSnapshot['connection']['status'], errorKey: string | null) {
    const { connection } = snapshot;
    if (connection.status === status && connection.errorKey === errorKey) return;
    setSnapshot({ ...snapshot, connection: { status, errorKey } });
  }

  function dispatch(event: LiveEvent) {
    const live = liveReducer(snapshot.live, event);
    if (live !== snapshot.live) setSnapshot({ ...snapshot, live });
  }

  function failPending(key: string) {
    const failed = pending;
    pending = [];
    for (const command of failed) {
      clearTimeout(command.timer);
      command.reject(commandError(key));
    }
  }

  function settle(command: PendingCommand, refusal: LiveRefusal | null) {
    if (!pending.includes(command)) return;
    pending = pending.filter((other) => other !== command);
    clearTimeout(command.timer);
    if (refusal) command.reject(commandError(refusal.key, refusal.message));
    else command.resolve();
  }

  function publish(client: StompLike, destination: string, body: unknown, headers: StompHeaders = {}) {
    client.publish({
      destination,
      body: body === undefined ? '' : JSON.stringify(body),
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    });
  }

  /** One STOMP session: its subscriptions, and what each message does to the state. */
  function openSession() {
    let subscribedTenantTopics = false;
    const client = createStomp({
      brokerURL: options.url ?? liveUrl(),
      connectHeaders: {
        [CONNECT_HEADERS.appKey]: CONSOLE_APP_KEY,
        [CONNECT_HEADERS.platform]: 'console',
        ...(options.token ? { [CONNECT_HEADERS.token]: options.token } : {}),
        ...(options.tenantId ? { [CONNECT_HEADERS.tenant]: options.tenantId } : {}),
      },
      heartbeatIncoming: SERVER_HEART_BEAT[1],
      heartbeatOutgoing: SERVER_HEART_BEAT[0],
      // The back-off is ours (one new client per attempt): stompjs's own retry has no jitter.
      reconnectDelay: 0,
      connectionTimeout: 10_000,
      // A silent peer is dropped at once, so the close (and the reconnection) follows.
      discardWebsocketOnCommFailure: true,
      debug: () => {},
      onConnect: () => {
        if (stomp !== client) return;
        connected = true;
        attempt = 0;
        setConnection('connected', null);
        // Errors first, so a refused subscription below is heard; identity last, as its answer
        // (sent when it is subscribed) tells which tenant topics are ours.
        client.subscribe(DESTINATIONS.errors, onRefusal);
        if (followsAgents) {
          client.subscribe(DESTINATIONS.activeAgentsReply, onAgentList);
          client.subscribe(DESTINATIONS.activeAgents, onAgentList);
        }
        if (followsNotifications) client.subscribe(DESTINATIONS.notifications, onNotificationMessage);
        client.subscribe(DESTINATIONS.identity, onIdentity);
      },
      onStompError: (frame: IFrame) => {
        if (stomp !== client) return;
        const key = frame.headers.message ?? '';
        if (!isFinalRefusal(key, !connected)) return;
        refused = true;
        setConnection('refused', key);
        if (key === 'ERROR_UNAUTHORIZED') options.onUnauthorized?.();
      },
      onWebSocketClose: () => {
        if (stomp !== client) return;
        void client.deactivate();
        stomp = null;
        lost();
      },
    });

    function onIdentity(message: IMessage) {
      const identity = parseJson(message) as ConsoleIdentity | undefined;
      if (!identity || typeof identity.sessionId !== 'string') return;
      const tenantId = typeof identity.tenantId === 'string' ? identity.tenantId : null;
      dispatch({ type: 'identity', identity: { tenantId, sessionId: identity.sessionId } });
      if (!subscribedTenantTopics) {
        subscribedTenantTopics = true;
        if (followsAgents) {
          client.subscribe(tenantTopic(DESTINATIONS.connect, tenantId), onConnectMessage);
          client.subscribe(tenantTopic(DESTINATIONS.disconnect, tenantId), onDisconnect);
          client.subscribe(tenantTopic(DESTINATIONS.workflows, tenantId), onWorkflows);
          client.subscribe(tenantTopic(DESTINATIONS.queue, tenantId), onQueue);
        }
        if (followsRuns) client.subscribe(tenantTopic(DESTINATIONS.executions, tenantId), onExecutionMessage);
      }
      // Spec section 7: the console echoes its identity and asks for the agents already there.
      publish(client, DESTINATIONS.consoleIdentity, { tenantId, sessionId: identity.sessionId });
      if (followsAgents) publish(client, DESTINATIONS.requestActiveAgents, undefined);
    }

    function onExecutionMessage(message: IMessage) {
      const notice = ExecutionNoticeBody.safeParse(parseJson(message));
      if (!notice.success) return console.warn('Live channel: an execution notice off contract', notice.error);
      for (const listener of executionListeners) listener(notice.data);
    }

    function onNotificationMessage(message: IMessage) {
      const notification = Notification.safeParse(parseJson(message));
      if (!notification.success) return console.warn('Live channel: a notification off contract', notification.error);
      for (const listener of notificationListeners) listener(notification.data);
    }

    function onAgentList(message: IMessage) {
      const agents = AgentList.safeParse(parseJson(message));
      if (agents.success) dispatch({ type: 'activeAgents', agents: agents.data });
      else console.warn('Live channel: an agent list that does not match the contract', agents.error);
    }

    function onConnectMessage(message: IMessage) {
      const agent = AgentConnection.safeParse(parseJson(message));
      if (!agent.success) return console.warn('Live channel: a connect message off contract', agent.error);
      const known = snapshot.live.agents.some((other) => other.sessionId === agent.data.sessionId);
      dispatch({ type: 'connect', agent: agent.data });
      // Spec section 4: a connection of an unknown session is answered with the console's own connect.
      const identity = snapshot.live.identity;
      if (!known && identity) publish(client, DESTINATIONS.consoleConnect, identity);
    }

    function onDisconnect(message: IMessage) {
      const body = Disconnect.safeParse(parseJson(message));
      if (body.success) dispatch({ type: 'disconnect', sessionId: body.data.sessionId });
    }

    function onWorkflows(message: IMessage) {
      const changes = SessionWorkflowChanges.safeParse(parseJson(message));
      if (changes.success) dispatch({ type: 'workflows', changes: changes.data });
      else console.warn('Live channel: workflow changes off contract', changes.error);
    }

    function onQueue(message: IMessage) {
      const changes = SessionQueueChanges.safeParse(parseJson(message));
      if (changes.success) dispatch({ type: 'queue', changes: changes.data });
      else console.warn('Live channel: queue changes off contract', changes.error);
    }

    function onRefusal(message: IMessage) {
      const refusal = parseJson(message) as Partial<LiveRefusal> | undefined;
      if (!refusal || typeof refusal.destination !== 'string' || typeof refusal.key !== 'string') return;
      // Refusals carry no receipt id; the server answers one console's frames in order, so the
      // oldest command still waiting on that destination is the one refused.
      const command = pending.find((candidate) => candidate.destination === refusal.destination);
      if (command)
        settle(command, { destination: refusal.destination, key: refusal.key, message: refusal.message ?? '' });
      else console.warn(`Live channel: ${refusal.destination} refused with ${refusal.key}`);
    }

    return client;
  }

  function connect() {
    clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    connected = false;
    stomp = openSession();
    stomp.activate();
  }

  /** The socket closed: everything shown is stale (spec section 4), and the next attempt waits. */
  function lost() {
    connected = false;
    failPending(CONNECTION_FAILURE);
    dispatch({ type: 'connectionLost' });
    if (!running || refused) return;
    setConnection('reconnecting', null);
    reconnectTimer = setTimeout(connect, reconnectDelay(attempt, random));
    attempt += 1;
  }

  function command(destination: string, body: object): Promise<void> {
    const client = stomp;
    if (!client || !connected || !client.connected) return Promise.reject(commandError(CONNECTION_FAILURE));
    receiptSeq += 1;
    const receipt = `command-${receiptSeq}`;
    return new Promise<void>((resolve, reject) => {
      const entry: PendingCommand = {
        receipt,
        destination,
        resolve,
        reject,
        timer: setTimeout(() => {
          pending = pending.filter((other) => other !== entry);
          reject(commandError(CONNECTION_FAILURE));
        }, commandTimeoutMs),
      };
      pending.push(entry);
      client.watchForReceipt(receipt, () => settle(entry, null));
      try {
        publish(client, destination, body, { receipt });
      } catch {
        // The socket went between the check and the send.
        settle(entry, { destination, key: CONNECTION_FAILURE, message: '' });
      }
    });
  }

  return {
    getSnapshot: () => snapshot,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onExecution: (listener) => {
      executionListeners.add(listener);
      return () => {
        executionListeners.delete(listener);
      };
    },
    onNotification: (listener) => {
      notificationListeners.add(listener);
      return () => {
        notificationListeners.delete(listener);
      };
    },
    execute: (sessionId, workflowId) => command(DESTINATIONS.executeCommand, { sessionId, workflowId }),
    terminate: (sessionId, workflowId, queueId) =>
      command(DESTINATIONS.terminateCommand, { sessionId, workflowId, queueId }),
    start: () => {
      if (running) return;
      running = true;
      refused = false;
      attempt = 0;
      setConnection('connecting', null);
      connect();
    },
    stop: () => {
      running = false;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      const client = stomp;
      stomp = null;
      connected = false;
      failPending(CONNECTION_FAILURE);
      dispatch({ type: 'connectionLost' });
      if (client) void client.deactivate();
    },
    retry: () => {
      if (!running || (stomp && connected)) return;
      refused = false;
      attempt = 0;
      if (stomp) return; // an attempt is already under way
      setConnection('connecting', null);
      connect();
    },
  };
}
