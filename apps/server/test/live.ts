import { CONSOLE_APP_KEY } from '@opsdeck/contract/http';
import {
  AGENT_APP_KEY,
  type AgentConnection,
  DEMO_AGENT_SECRET,
  DESTINATIONS,
  LIVE_PATH,
  TENANT_TOPICS,
  type TenantTopic,
  tenantTopic,
} from '@opsdeck/contract/live';
import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import { expect } from 'vitest';
import WebSocket from 'ws';

/** A peer of the live channel for tests: @stomp/stompjs, the client the console and the agents use. */
export type LivePeer = {
  client: Client;
  /** Every message received, by destination, in order. */
  received: Map<string, unknown[]>;
  /** Every message received, in the order it came. */
  messages: LiveMessage[];
  subscribe: (destination: string) => void;
  /** Resolves with the first message on `destination` (already received or next) that `match` accepts. */
  next: <T = unknown>(destination: string, match?: (body: T) => boolean, timeoutMs?: number) => Promise<T>;
  send: (destination: string, body?: unknown, receipt?: boolean) => Promise<void>;
  /** Resolves when the server closed the connection, with the ERROR frame's message header if one came. */
  closed: Promise<string | null>;
  close: () => Promise<void>;
};

export type LiveMessage = { destination: string; body: unknown };

export const liveUrl = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}${LIVE_PATH}`;

export function consoleHeaders(token: string, tenantId?: string): Record<string, string> {
  return {
    'X-App-Key': CONSOLE_APP_KEY,
    'X-Auth-Token': token,
    platform: 'console',
    ...(tenantId ? { 'X-Tenant-Id': tenantId } : {}),
  };
}

export function agentHeaders(key: string, macAddress: string, overrides: Record<string, string> = {}) {
  return {
    'X-App-Key': AGENT_APP_KEY,
    'X-App-Secret': DEMO_AGENT_SECRET,
    'license-key': key,
    'mac-address': macAddress,
    hostname: `host-${macAddress.slice(-2)}`,
    platform: 'agent',
    ...overrides,
  };
}

/**
 * Connects and resolves once CONNECTED arrived (then `subscribe`), or rejects with the ERROR
 * frame's `message` header (the error key) when the server refuses the CONNECT.
 */
export function connectPeer(
  baseUrl: string,
  headers: Record<string, string>,
  subscriptions: readonly string[] = [],
  /**
   * Resolves only once the server has made each subscription (a RECEIPT for each): until then a
   * message for one of them is not the peer's (a command to an agent whose SUBSCRIBE is still being
   * handled is dropped). A refused subscription sends no receipt: leave this off for those.
   */
  { confirmed = false }: { confirmed?: boolean } = {},
): Promise<LivePeer> {
  const received = new Map<string, unknown[]>();
  const messages: LiveMessage[] = [];
  const waiters = new Set<{
    destination: string;
    test: (body: unknown) => boolean;
    resolve: (body: unknown) => void;
  }>();
  let resolveClosed: (key: string | null) => void = () => {};
  let errorKey: string | null = null;
  const closed = new Promise<string | null>((resolve) => {
    resolveClosed = resolve;
  });

  const client = new Client({
    webSocketFactory: () => new WebSocket(liveUrl(baseUrl), ['v12.stomp']),
    connectHeaders: headers,
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
  });

  const onMessage = (message: IMessage) => {
    const destination = message.headers.destination ?? '';
    const body = message.body ? JSON.parse(message.body) : null;
    if (!received.has(destination)) received.set(destination, []);
    received.get(destination)!.push(body);
    messages.push({ destination, body });
    for (const waiter of [...waiters]) {
      if (waiter.destination === destination && waiter.test(body)) {
        waiters.delete(waiter);
        waiter.resolve(body);
      }
    }
  };

  const peer: LivePeer = {
    client,
    received,
    messages,
    closed,
    subscribe: (destination) => {
      client.subscribe(destination, onMessage);
    },
    next: <T>(destination: string, match: (body: T) => boolean = () => true, timeoutMs = 5000) => {
      const seen = (received.get(destination) ?? []).find((body) => match(body as T));
      if (seen !== undefined) return Promise.resolve(seen as T);
      return new Promise<T>((resolve, reject) => {
        const waiter = {
          destination,
          test: (body: unknown) => match(body as T),
          resolve: (body: unknown) => {
            clearTimeout(timer);
            resolve(body as T);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`nothing on ${destination} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    send: async (destination, body, receipt = false) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      if (!receipt) {
        client.publish({ destination, body: payload, headers: { 'content-type': 'application/json' } });
        return;
      }
      const receiptId = `r-${Math.random().toString(36).slice(2)}`;
      const got = new Promise<void>((resolve) => client.watchForReceipt(receiptId, () => resolve()));
      client.publish({
        destination,
        body: payload,
        headers: { 'content-type': 'application/json', receipt: receiptId },
      });
      await got;
    },
    close: async () => {
      await client.deactivate();
    },
  };

  return new Promise<LivePeer>((resolve, reject) => {
    let connected = false;
    client.onConnect = () => {
      connected = true;
      if (!confirmed) {
        for (const destination of subscriptions) peer.subscribe(destination);
        resolve(peer);
        return;
      }
      const made = subscriptions.map((destination, index) => {
        const receipt = `s-${index}-${Math.random().toString(36).slice(2)}`;
        const done = new Promise<void>((resolveReceipt) => client.watchForReceipt(receipt, () => resolveReceipt()));
        client.subscribe(destination, onMessage, { receipt });
        return done;
      });
      // A peer closed meanwhile (evicted, refused) gets no receipts: it is handed over as it is.
      void Promise.race([Promise.all(made), closed]).then(() => resolve(peer));
    };
    client.onStompError = (frame: IFrame) => {
      errorKey = frame.headers.message ?? null;
      if (!connected) reject(Object.assign(new Error(errorKey ?? 'ERROR'), { key: errorKey }));
    };
    client.onWebSocketClose = () => {
      resolveClosed(errorKey);
      void client.deactivate();
      if (!connected) reject(Object.assign(new Error(errorKey ?? 'closed'), { key: errorKey }));
    };
    client.activate();
  });
}

/** The error key a refused CONNECT answers with. */
export async function refusedWith(baseUrl: string, headers: Record<string, string>): Promise<string | null> {
  try {
    const peer = await connectPeer(baseUrl, headers);
    await peer.close();
    return 'CONNECTED';
  } catch (error) {
    return (error as { key?: string | null }).key ?? null;
  }
}

/** The connect message of the agent on `macAddress`, as a console of its tenant sees it. */
export const agentArrival = (watcher: LivePeer, tenantId: string, macAddress: string) =>
  watcher.next<AgentConnection>(
    tenantTopic(DESTINATIONS.connect, tenantId),
    (connection) => connection.macAddress === macAddress,
  );

/**
 * A console acting on one tenant, subscribed to its identity, its errors and those tenant topics
 * (every one by default); resolves once its identity arrived, so that nothing is missed after.
 */
export async function tenantConsole(
  baseUrl: string,
  token: string,
  tenantId: string,
  topics: readonly TenantTopic[] = TENANT_TOPICS,
) {
  const peer = await connectPeer(baseUrl, consoleHeaders(token), [
    DESTINATIONS.identity,
    DESTINATIONS.errors,
    ...topics.map((topic) => tenantTopic(topic, tenantId)),
  ]);
  await peer.next(DESTINATIONS.identity);
  return peer;
}

export type SyncPoint<T> = {
  cause?: () => Promise<unknown>;
  destination: string;
  match: (body: T) => boolean;
  timeoutMs?: number;
};

/**
 * A sync point for a negative check on the live channel (issue 21, "Tests that cannot pass by
 * accident"): that a peer got nothing it must not get holds only once whatever would have brought
 * it has had the time to. So `cause` makes, after the events the peer must not hear of, a message
 * that the peer DOES get, carried the same way (the server writes a connection's frames in the
 * order it sends them, and tells each event to every console it concerns at once); `destination`
 * and `match` tell that message apart from any other (give it an id of its own). Resolves, once it
 * came, with every message the peer had received until then, that one included.
 */
export async function receivedUntil<T>(peer: LivePeer, sync: SyncPoint<T>): Promise<LiveMessage[]> {
  await sync.cause?.();
  const marker = await peer.next<T>(sync.destination, sync.match, sync.timeoutMs);
  const index = peer.messages.findIndex((message) => message.body === marker);
  return peer.messages.slice(0, index + 1);
}

/**
 * Fails, naming them, when any message `peer` received until the sync point (receivedUntil) is
 * `unwanted`: "nothing leaked", "nothing arrived", asserted once it could have.
 */
export async function expectNoneUntil<T>(
  peer: LivePeer,
  sync: SyncPoint<T>,
  unwanted: (message: LiveMessage) => boolean,
) {
  const received = await receivedUntil(peer, sync);
  expect(received.filter(unwanted), 'received before the sync point').toEqual([]);
}
