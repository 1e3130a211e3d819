import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type IMessage } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { encodeFrame, FrameDecoder, SERVER_COMMANDS, type StompFrame } from './codec';
import { attachUpgradeHandler, createStompServer, type StompServer, type StompSession } from './server';

/**
 * Slow and hostile clients (docs/live-channel.md, Transport): a half frame held open, a flood of
 * SENDs, 10,000 SUBSCRIBEs. Each is closed with an ERROR, the server holding a bounded amount for
 * it meanwhile, while a well-behaved agent and console keep exchanging their messages in order.
 */
type Context = { user: string };

const PATH = '/api/live';
const FRAME_TIMEOUT_MS = 300;
const FRAME_BURST = 500;

let http: Server;
let stomp: StompServer<Context>;
let url: string;
/** Every SEND's destination, in the order handled. */
const handledDestinations: string[] = [];
/** The most frames any session had waiting to be handled, seen by the handler. */
let mostWaiting = 0;
const clients: Client[] = [];

beforeAll(async () => {
  stomp = createStompServer<Context>({
    path: PATH,
    handlers: {
      connect: async (headers) => ({ user: headers.login ?? 'anonymous' }),
      subscribe: () => {},
      message(session, destination, body) {
        handledDestinations.push(destination);
        const waiting = (session as unknown as { queue: unknown[] }).queue.length;
        mostWaiting = Math.max(mostWaiting, waiting);
        // The agent's change, to every console subscribed: what the events service does.
        if (destination === '/agent/change') for (const each of stomp.sessions()) each.sendRaw('/topic/changes', body);
      },
      disconnected: () => {},
    },
    heartBeat: [0, 0],
    frameTimeoutMs: FRAME_TIMEOUT_MS,
    frameBurst: FRAME_BURST,
    framesPerSecond: 100,
    log: { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() },
  });
  http = createServer((_request, response) => response.end('ok'));
  attachUpgradeHandler(http, [stomp]);
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}${PATH}`;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.deactivate()));
  await stomp.close();
  http.close();
});

function stompClient(login: string) {
  return new Promise<Client>((resolve, reject) => {
    const client = new Client({
      webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
      connectHeaders: { login },
      reconnectDelay: 0,
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
      onConnect: () => resolve(client),
      onStompError: (frame) => reject(new Error(frame.headers.message)),
    });
    clients.push(client);
    client.activate();
  });
}

/** A raw client: what it sends is up to the test; it decodes what the server answers. */
async function rawClient() {
  const ws = new WebSocket(url, ['v12.stomp']);
  const decoder = new FrameDecoder({ maxFrameBytes: 1 << 20, commands: SERVER_COMMANDS });
  const frames: StompFrame[] = [];
  ws.on('message', (data) => {
    for (const item of decoder.push(data as Buffer)) if (item !== 'heartbeat') frames.push(item);
  });
  const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
  await once(ws, 'open');
  ws.send(
    encodeFrame({ command: 'CONNECT', headers: { 'accept-version': '1.2', login: 'hostile' }, body: Buffer.alloc(0) }),
  );
  await vi.waitFor(() => expect(frames.map((frame) => frame.command)).toContain('CONNECTED'));
  const sessionId = frames[0]!.headers.session!;
  const session = [...stomp.sessions()].find((each) => each.id === sessionId) as StompSession<Context>;
  return {
    ws,
    session,
    closed,
    /** The ERROR frame the server sent, once it closed the connection. */
    error: async () => {
      await closed;
      return frames.find((frame) => frame.command === 'ERROR');
    },
  };
}

const frame = (command: string, headers: Record<string, string>, body = '') =>
  encodeFrame({ command, headers, body: Buffer.from(body) });

/**
 * A well-behaved agent and console: at each `step` the agent sends a change, receipted, and the
 * console receives it; `check` says every change arrived, once, in order. Stepped by the tests
 * between the hostile client's moves, so it is served while they go on.
 */
async function wellBehavedPair() {
  const agent = await stompClient('agent');
  const console = await stompClient('console');
  const received: number[] = [];
  await new Promise<void>((resolve) => {
    console.watchForReceipt('subscribed', () => resolve());
    console.subscribe('/topic/changes', (message: IMessage) => void received.push(JSON.parse(message.body).n), {
      receipt: 'subscribed',
    });
  });
  let sent = 0;
  return {
    async step() {
      const n = sent;
      sent += 1;
      const receipt = `change-${n}`;
      const done = new Promise<void>((resolve) => agent.watchForReceipt(receipt, () => resolve()));
      agent.publish({ destination: '/agent/change', body: JSON.stringify({ n }), headers: { receipt } });
      await done;
      await vi.waitFor(() => expect(received).toContain(n));
    },
    check() {
      expect(sent).toBeGreaterThan(0);
      expect(received).toEqual(Array.from({ length: sent }, (_, n) => n));
    },
  };
}

describe('slow and hostile clients', () => {
  it('closes a client holding half a frame, even one trickling its bytes, and keeps the others going', async () => {
    const pair = await wellBehavedPair();
    const holder = await rawClient();
    holder.ws.send('SEND\ndestination:/agent/change\ncontent-length:100\n\n{"par');
    const trickler = await rawClient();
    trickler.ws.send('SEND\ndestination:/agent/change\n\n');
    // A byte every tick: the client is never silent, and its frame never ends.
    const drip = setInterval(() => trickler.ws.readyState === WebSocket.OPEN && trickler.ws.send('x'), 20);
    try {
      for (let step = 0; step < 20; step += 1) await pair.step();
      expect((await holder.error())?.headers.message).toBe('ERROR_LIVE_FRAME_INVALID');
      expect((await trickler.error())?.headers.message).toBe('ERROR_LIVE_FRAME_INVALID');
    } finally {
      clearInterval(drip);
    }
    expect(holder.session.closed && trickler.session.closed).toBe(true);
    await pair.step();
    pair.check();
  });

  it('closes a client flooding SENDs with an ERROR, its waiting frames bounded', async () => {
    const pair = await wellBehavedPair();
    const flooder = await rawClient();
    mostWaiting = 0;
    const PER_MESSAGE = 100;
    const batch = Buffer.concat(
      Array.from({ length: PER_MESSAGE }, (_, n) => frame('SEND', { destination: '/agent/flood' }, `{"n":${n}}`)),
    );
    let sent = 0;
    while (flooder.ws.readyState === WebSocket.OPEN && sent < 100_000) {
      flooder.ws.send(batch);
      sent += PER_MESSAGE;
      await pair.step();
    }
    expect((await flooder.error())?.headers.message).toBe('ERROR_TOO_MANY_REQUESTS');
    // Closed once past its burst (plus what the seconds of the test refilled), never further
    // behind than the back-pressure's bound and one message's frames.
    expect(sent).toBeLessThan(100_000);
    expect(mostWaiting).toBeLessThanOrEqual(64 + PER_MESSAGE);
    await pair.step();
    pair.check();
  });

  it("lets another client's frame be handled while a client's many frames wait", async () => {
    const busy = await rawClient();
    const other = await rawClient();
    handledDestinations.length = 0;
    busy.ws.send(Buffer.concat(Array.from({ length: 300 }, () => frame('SEND', { destination: '/agent/busy' }, '{}'))));
    other.ws.send(frame('SEND', { destination: '/agent/other' }, '{}'));
    await vi.waitFor(() => expect(handledDestinations.filter((each) => each === '/agent/busy')).toHaveLength(300));
    await vi.waitFor(() => expect(handledDestinations).toContain('/agent/other'));
    expect(handledDestinations.indexOf('/agent/other')).toBeLessThan(handledDestinations.lastIndexOf('/agent/busy'));
  });

  it('completes the close of a client it had stopped reading (flow control) at once', async () => {
    const flooder = await rawClient();
    // Paused as a flood's waiting frames pause it, then closed (the rate, the cap, a handler).
    (flooder.session as unknown as { ws: WebSocket }).ws.pause();
    flooder.session.close('ERROR_TOO_MANY_REQUESTS');
    expect((await flooder.error())?.headers.message).toBe('ERROR_TOO_MANY_REQUESTS');
  });

  it('closes a client making 10,000 subscriptions with an ERROR at the cap', async () => {
    const pair = await wellBehavedPair();
    const subscriber = await rawClient();
    const subscribes = Array.from({ length: 10_000 }, (_, n) =>
      frame('SUBSCRIBE', { id: String(n), destination: `/topic/s${n}` }),
    );
    for (let from = 0; from < subscribes.length && subscriber.ws.readyState === WebSocket.OPEN; from += 50) {
      subscriber.ws.send(Buffer.concat(subscribes.slice(from, from + 50)));
      await pair.step();
    }
    const error = await subscriber.error();
    expect(error?.headers.message).toBe('ERROR_TOO_MANY_REQUESTS');
    expect(error?.body.toString()).toBe('At most 100 subscriptions per connection.');
    await pair.step();
    pair.check();
  });
});
