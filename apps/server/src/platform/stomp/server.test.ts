import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { ERROR_MESSAGES } from '@opsdeck/contract/errors';
import { Client, type IFrame, type StompConfig } from '@stomp/stompjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { encodeFrame, FrameDecoder, SERVER_COMMANDS, type StompFrame } from './codec';
import { attachUpgradeHandler, createStompServer, StompRefusal, type StompServer, type StompSession } from './server';

type Context = { user: string };

const PATH = '/api/live';
const HEART_BEAT = 200;
const MAX_BUFFERED = 64 * 1024;

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
const disconnects: Array<{ id: string; reason: string }> = [];
const connected: Array<StompSession<Context>> = [];
const handled: string[] = [];
let gate: Promise<void> = Promise.resolve();

/** A small echo set: `/app/echo` answers on `/topic/echo`; names say what the others do. */
const handlers = {
  async connect(headers: Readonly<Record<string, string>>): Promise<Context> {
    if (headers.login === 'refused') throw new StompRefusal('ERROR_UNAUTHORIZED');
    if (headers.login === 'broken') throw new Error('database down');
    return { user: headers.login ?? 'anonymous' };
  },
  connected(session: StompSession<Context>) {
    connected.push(session);
  },
  subscribe(_session: StompSession<Context>, destination: string) {
    if (destination.startsWith('/topic/other-tenant')) throw new StompRefusal('ERROR_TENANT_FORBIDDEN');
    if (destination === '/topic/broken') throw new Error('bug');
  },
  async message(session: StompSession<Context>, destination: string, body: Buffer) {
    handled.push(`${destination} ${body.toString()}`);
    switch (destination) {
      case '/app/echo':
        session.send('/topic/echo', { from: session.context.user, echo: JSON.parse(body.toString()) });
        return;
      case '/app/wait':
        await gate;
        return;
      case '/app/slow':
        await delay(50);
        return;
      case '/app/refused':
        throw new StompRefusal('ERROR_FORBIDDEN', 'Not you.');
      case '/app/kick':
        session.close('ERROR_AGENT_REPLACED');
        return;
    }
  },
  disconnected(session: StompSession<Context>, reason: string) {
    disconnects.push({ id: session.id, reason });
  },
};

let http: Server;
let stomp: StompServer<Context>;
let url: string;
const sockets: WebSocket[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  stomp = createStompServer<Context>({
    path: PATH,
    handlers,
    heartBeat: [HEART_BEAT, HEART_BEAT],
    maxBufferedBytes: MAX_BUFFERED,
    connectTimeoutMs: 500,
    log,
  });
  http = createServer((_request, response) => response.end('ok'));
  attachUpgradeHandler(http, [stomp]);
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}${PATH}`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.deactivate()));
  for (const ws of sockets.splice(0)) ws.terminate();
  gate = Promise.resolve();
});

afterAll(async () => {
  await stomp.close();
  http.close();
});

const sessionOf = (id: string) => [...stomp.sessions()].find((session) => session.id === id);
const disconnectsOf = (id: string) => disconnects.filter((entry) => entry.id === id);

/** A stompjs client, connected. */
function stompClient(connectHeaders: Record<string, string> = { login: 'ann' }, config: StompConfig = {}) {
  return new Promise<{ client: Client; frame: IFrame }>((resolve, reject) => {
    const client = new Client({
      webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
      connectHeaders,
      reconnectDelay: 0,
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
      ...config,
      onConnect: (frame) => resolve({ client, frame }),
      onStompError: (frame) => reject(new Error(frame.headers.message)),
    });
    clients.push(client);
    client.activate();
  });
}

type Raw = {
  ws: WebSocket;
  received: Array<StompFrame | 'heartbeat'>;
  closed: Promise<number>;
  send: (command: string, headers?: Record<string, string>, body?: string) => void;
  /** The next frame with this command, from the ones not yet taken. */
  next: (command: string) => Promise<StompFrame>;
};

/** A client speaking raw frames, decoding what the server sends. */
async function rawClient(protocols: string[] = ['v12.stomp'], path = PATH): Promise<Raw> {
  const ws = new WebSocket(url.replace(PATH, path), protocols);
  sockets.push(ws);
  const decoder = new FrameDecoder({ maxFrameBytes: 1 << 20, commands: SERVER_COMMANDS });
  const received: Raw['received'] = [];
  let taken = 0;
  ws.on('message', (data) => received.push(...decoder.push(data as Buffer)));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await once(ws, 'open');
  return {
    ws,
    received,
    closed,
    send: (command, headers = {}, body = '') => ws.send(encodeFrame({ command, headers, body: Buffer.from(body) })),
    next: (command) =>
      vi.waitFor(
        () => {
          const frames = received.filter((item): item is StompFrame => item !== 'heartbeat');
          const index = frames.findIndex((item, at) => at >= taken && item.command === command);
          if (index === -1) throw new Error(`no ${command} yet; got ${frames.map((item) => item.command)}`);
          taken = index + 1;
          return frames[index]!;
        },
        { timeout: 3000, interval: 10 },
      ),
  };
}

async function connectedRaw(headers: Record<string, string> = {}) {
  const raw = await rawClient();
  raw.send('CONNECT', { 'accept-version': '1.2', host: 'localhost', login: 'raw', ...headers });
  const frame = await raw.next('CONNECTED');
  return { ...raw, sessionId: frame.headers.session! };
}

const text = (frame: StompFrame) => frame.body.toString();

describe('the STOMP server', () => {
  it('answers CONNECT from stompjs with CONNECTED and calls connected with the context', async () => {
    const { client, frame } = await stompClient({ login: 'ann', 'heart-beat': '0,0' });
    // CONNECTED offers the server's own heart-beats (STOMP 1.2), whatever the client asked for.
    expect(frame.headers).toMatchObject({
      version: '1.2',
      server: 'Opsdeck/1',
      'heart-beat': `${HEART_BEAT},${HEART_BEAT}`,
    });
    const id = frame.headers.session!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const session = sessionOf(id);
    expect(session?.context).toEqual({ user: 'ann' });
    expect(connected).toContain(session);
    await client.deactivate();
    await vi.waitFor(() => expect(disconnectsOf(id)).toEqual([{ id, reason: expect.any(String) }]));
    expect(sessionOf(id)).toBeUndefined();
  });

  it('picks a STOMP subprotocol, and accepts a client offering none', async () => {
    expect((await rawClient(['v12.stomp', 'v11.stomp'])).ws.protocol).toBe('v12.stomp');
    expect((await rawClient(['v10.stomp', 'v11.stomp'])).ws.protocol).toBe('v11.stomp');
    const plain = await rawClient([]);
    expect(plain.ws.protocol).toBe('');
    plain.send('STOMP', { 'accept-version': '1.1,1.2', host: 'h' });
    expect((await plain.next('CONNECTED')).headers.version).toBe('1.2');
  });

  it('routes by path without the query, and answers any other upgrade path 404', async () => {
    const withQuery = await rawClient(['v12.stomp'], `${PATH}?token=x`);
    expect(withQuery.ws.readyState).toBe(WebSocket.OPEN);
    const ws = new WebSocket(url.replace(PATH, '/api/elsewhere'));
    ws.on('error', () => {});
    const [request, response] = await once(ws, 'unexpected-response');
    expect(response.statusCode).toBe(404);
    request.destroy();
  });

  it('relays a SEND through the handlers to a subscription, as JSON', async () => {
    const { client } = await stompClient({ login: 'ann' });
    const messages: IFrame[] = [];
    client.subscribe('/topic/echo', (message) => messages.push(message));
    client.publish({ destination: '/app/echo', body: JSON.stringify({ hello: 'wörld' }) });
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    expect(JSON.parse(messages[0]!.body)).toEqual({ from: 'ann', echo: { hello: 'wörld' } });
    expect(messages[0]!.headers).toMatchObject({ destination: '/topic/echo', 'content-type': 'application/json' });
  });

  it('sends to every subscription of a destination, and to nothing else', async () => {
    const raw = await connectedRaw();
    raw.send('SUBSCRIBE', { id: 'a', destination: '/topic/x', receipt: '1' });
    raw.send('SUBSCRIBE', { id: 'b', destination: '/topic/x' });
    raw.send('SUBSCRIBE', { id: 'c', destination: '/topic/x/y', receipt: '2' });
    await raw.next('RECEIPT');
    await raw.next('RECEIPT');
    const session = sessionOf(raw.sessionId)!;
    expect(session.isSubscribed('/topic/x')).toBe(true);
    expect(session.isSubscribed('/topic')).toBe(false);
    expect(session.sendRaw('/topic/x', '{"n":1}')).toBe(2);
    expect(session.send('/topic/nobody', { n: 2 })).toBe(0);
    const [first, second] = [await raw.next('MESSAGE'), await raw.next('MESSAGE')];
    expect([first.headers.subscription, second.headers.subscription]).toEqual(['a', 'b']);
    expect(first.headers['message-id']).not.toBe(second.headers['message-id']);
    expect(text(first)).toBe('{"n":1}');

    raw.send('UNSUBSCRIBE', { id: 'a', receipt: '3' });
    expect((await raw.next('RECEIPT')).headers['receipt-id']).toBe('3');
    expect(session.send('/topic/x', { n: 3 })).toBe(1);
  });

  it('refuses a SUBSCRIBE on /user/topic/errors, makes no subscription and stays connected', async () => {
    const { client } = await stompClient({ login: 'ann' });
    const errors: unknown[] = [];
    client.subscribe('/user/topic/errors', (message) => errors.push(JSON.parse(message.body)));
    const leaked: IFrame[] = [];
    client.subscribe('/topic/other-tenant/7', (message) => leaked.push(message));
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toEqual({
      destination: '/topic/other-tenant/7',
      key: 'ERROR_TENANT_FORBIDDEN',
      message: ERROR_MESSAGES.ERROR_TENANT_FORBIDDEN,
    });
    const session = [...stomp.sessions()].find((each) => each.isSubscribed('/user/topic/errors'))!;
    expect(session.isSubscribed('/topic/other-tenant/7')).toBe(false);
    expect(session.send('/topic/other-tenant/7', {})).toBe(0);

    const echoes: IFrame[] = [];
    client.subscribe('/topic/echo', (message) => echoes.push(message));
    client.publish({ destination: '/app/echo', body: '1' });
    await vi.waitFor(() => expect(echoes).toHaveLength(1));
    expect(leaked).toHaveLength(0);
  });

  it('refuses a SEND on /user/topic/errors without a RECEIPT; an accepted one gets its RECEIPT', async () => {
    const raw = await connectedRaw();
    raw.send('SUBSCRIBE', { id: 'e', destination: '/user/topic/errors' });
    raw.send('SEND', { destination: '/app/refused', receipt: 'refused' }, '{}');
    raw.send('SEND', { destination: '/app/echo', receipt: 'accepted' }, '{}');
    const refusal = await raw.next('MESSAGE');
    expect(refusal.headers).toMatchObject({ subscription: 'e', destination: '/user/topic/errors' });
    expect(JSON.parse(text(refusal))).toEqual({
      destination: '/app/refused',
      key: 'ERROR_FORBIDDEN',
      message: 'Not you.',
    });
    const receipt = await raw.next('RECEIPT');
    expect(receipt.headers['receipt-id']).toBe('accepted');
    expect(raw.received.filter((item) => item !== 'heartbeat' && item.command === 'RECEIPT')).toHaveLength(1);
  });

  it('sends an unexpected handler error as the error key, logged, and keeps the connection', async () => {
    const raw = await connectedRaw();
    raw.send('SUBSCRIBE', { id: 'e', destination: '/user/topic/errors' });
    raw.send('SUBSCRIBE', { id: 'b', destination: '/topic/broken' });
    raw.send('BEGIN', { transaction: 't' });
    expect(JSON.parse(text(await raw.next('MESSAGE')))).toMatchObject({
      destination: '/topic/broken',
      key: 'ERROR_GENERAL_INTERNAL',
    });
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ destination: '/topic/broken' }),
      expect.any(String),
    );
    expect(JSON.parse(text(await raw.next('MESSAGE')))).toMatchObject({ key: 'ERROR_GENERAL_INVALID_INPUT' });
    raw.send('ACK', { id: '1', receipt: 'ack' });
    expect((await raw.next('RECEIPT')).headers['receipt-id']).toBe('ack');
  });

  it('answers DISCONNECT with its RECEIPT, closes, and reports the session once', async () => {
    const raw = await connectedRaw();
    raw.send('DISCONNECT', { receipt: 'bye' });
    expect((await raw.next('RECEIPT')).headers['receipt-id']).toBe('bye');
    expect(await raw.closed).toBe(1000);
    await vi.waitFor(() =>
      expect(disconnectsOf(raw.sessionId)).toEqual([{ id: raw.sessionId, reason: 'client disconnect' }]),
    );
    await delay(50);
    expect(disconnectsOf(raw.sessionId)).toHaveLength(1);
  });

  it('refuses a CONNECT with an ERROR whose message is the key, then closes', async () => {
    const raw = await rawClient();
    raw.send('CONNECT', { 'accept-version': '1.2', login: 'refused' });
    const error = await raw.next('ERROR');
    expect(error.headers.message).toBe('ERROR_UNAUTHORIZED');
    expect(text(error)).toBe(ERROR_MESSAGES.ERROR_UNAUTHORIZED);
    await raw.closed;

    const broken = await rawClient();
    broken.send('CONNECT', { 'accept-version': '1.2', login: 'broken' });
    expect((await broken.next('ERROR')).headers.message).toBe('ERROR_GENERAL_INTERNAL');
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.objectContaining({ message: 'database down' }) }),
      expect.any(String),
    );
    await broken.closed;
  });

  it('refuses stompjs with an ERROR it reports as such', async () => {
    await expect(stompClient({ login: 'refused' })).rejects.toThrow('ERROR_UNAUTHORIZED');
  });

  it('requires CONNECT first and a version it speaks', async () => {
    const early = await rawClient();
    early.send('SEND', { destination: '/app/echo' }, '{}');
    expect((await early.next('ERROR')).headers.message).toBe('ERROR_LIVE_FRAME_INVALID');
    await early.closed;

    const future = await rawClient();
    future.send('CONNECT', { 'accept-version': '2.0' });
    const error = await future.next('ERROR');
    expect(error.headers).toMatchObject({ message: 'ERROR_LIVE_FRAME_INVALID', version: '1.2,1.1,1.0' });
    await future.closed;

    const old = await rawClient();
    old.send('CONNECT', {});
    expect((await old.next('CONNECTED')).headers.version).toBe('1.0');
  });

  it('closes a socket that sends no CONNECT in time', async () => {
    const raw = await rawClient();
    const started = Date.now();
    await raw.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('offers its own heart-beats in CONNECTED and keeps to each direction at the slower side, 0 when either declines', async () => {
    const offered = (client: { received: unknown[] }) =>
      (client.received.find((item) => item !== 'heartbeat') as StompFrame).headers['heart-beat'];
    const beats = (client: { received: unknown[] }) => client.received.filter((item) => item === 'heartbeat').length;
    // 0,0: no beats either way, and never dropped for silence.
    const quiet = await connectedRaw({ 'heart-beat': '0,0' });
    expect(offered(quiet)).toBe(`${HEART_BEAT},${HEART_BEAT}`);
    // 100,500: the client beats every 100 ms and wants the server's every 500 (not every 200).
    const slowSince = Date.now();
    const slow = await connectedRaw({ 'heart-beat': '100,500' });
    expect(offered(slow)).toBe(`${HEART_BEAT},${HEART_BEAT}`);
    const beating = setInterval(() => slow.ws.send('\n'), 50);
    // 300,0: the client wants no beats, and is dropped after twice its 300 ms (not 200) of silence.
    const started = Date.now();
    const mute = await connectedRaw({ 'heart-beat': '300,0' });
    try {
      const error = await mute.next('ERROR');
      expect(error.headers.message).toBe('ERROR_LIVE_HEARTBEAT_TIMEOUT');
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
      expect(beats(mute)).toBe(0);
      await delay(1_500);
      expect(beats(quiet)).toBe(0);
      expect(quiet.ws.readyState).toBe(WebSocket.OPEN);
      // Beats, waited for however late a busy machine's timers fire, and never more than one per
      // 500 ms since it connected (about 2,100 ms: 4 at 500 ms, 10 at 200).
      await vi.waitFor(() => expect(beats(slow)).toBeGreaterThanOrEqual(1), { timeout: 5_000 });
      expect(beats(slow)).toBeLessThanOrEqual(Math.floor((Date.now() - slowSince) / 500) + 1);
      expect(slow.ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      clearInterval(beating);
    }
  });

  it('sends heart-beats, keeps a client that sends its own and drops a silent one after twice the interval', async () => {
    const lively = await connectedRaw({ 'heart-beat': `${HEART_BEAT},${HEART_BEAT}` });
    const beating = setInterval(() => lively.ws.send('\n'), HEART_BEAT / 2);
    // Timed from before the CONNECT: the server counts the silence from the last frame it read,
    // which is before the CONNECTED reaches the client.
    const started = Date.now();
    const silent = await connectedRaw({ 'heart-beat': `${HEART_BEAT},${HEART_BEAT}` });
    try {
      const error = await silent.next('ERROR');
      const elapsed = Date.now() - started;
      expect(error.headers.message).toBe('ERROR_LIVE_HEARTBEAT_TIMEOUT');
      expect(elapsed).toBeGreaterThanOrEqual(2 * HEART_BEAT);
      expect(elapsed).toBeLessThan(2 * HEART_BEAT + 600);
      await silent.closed;
      expect(disconnectsOf(silent.sessionId)).toEqual([{ id: silent.sessionId, reason: 'heart-beat timeout' }]);
      // The silent client heard the server's beats meanwhile; the lively one is still there.
      expect(silent.received.filter((item) => item === 'heartbeat').length).toBeGreaterThanOrEqual(1);
      expect(lively.ws.readyState).toBe(WebSocket.OPEN);
      expect(sessionOf(lively.sessionId)).toBeDefined();
    } finally {
      clearInterval(beating);
    }
  });

  it('keeps a stompjs client that heart-beats', async () => {
    const { client, frame } = await stompClient(
      { login: 'ann' },
      { heartbeatIncoming: HEART_BEAT, heartbeatOutgoing: HEART_BEAT },
    );
    expect(frame.headers['heart-beat']).toBe(`${HEART_BEAT},${HEART_BEAT}`);
    await delay(5 * HEART_BEAT);
    expect(client.connected).toBe(true);
    expect(sessionOf(frame.headers.session!)).toBeDefined();
  });

  it('reads frames split across messages and several frames in one message, text or binary', async () => {
    const raw = await rawClient();
    const connect = encodeFrame({ command: 'CONNECT', headers: { 'accept-version': '1.2' }, body: Buffer.alloc(0) });
    raw.ws.send(connect.subarray(0, 5));
    raw.ws.send(connect.subarray(5, 9).toString(), { binary: false });
    raw.ws.send(connect.subarray(9));
    await raw.next('CONNECTED');
    const batch = Buffer.concat([
      encodeFrame({ command: 'SUBSCRIBE', headers: { id: '1', destination: '/topic/echo' }, body: Buffer.alloc(0) }),
      Buffer.from('\n\n'),
      encodeFrame({ command: 'SEND', headers: { destination: '/app/echo', receipt: 'r1' }, body: Buffer.from('1') }),
      encodeFrame({ command: 'SEND', headers: { destination: '/app/echo', receipt: 'r2' }, body: Buffer.from('2') }),
    ]);
    const cut = batch.length - 7;
    raw.ws.send(batch.subarray(0, cut));
    raw.ws.send(batch.subarray(cut));
    expect(JSON.parse(text(await raw.next('MESSAGE'))).echo).toBe(1);
    expect((await raw.next('RECEIPT')).headers['receipt-id']).toBe('r1');
    expect(JSON.parse(text(await raw.next('MESSAGE'))).echo).toBe(2);
    expect((await raw.next('RECEIPT')).headers['receipt-id']).toBe('r2');
  });

  it('handles one frame at a time: a slow handler is not overtaken', async () => {
    const raw = await connectedRaw();
    raw.send('SEND', { destination: '/app/slow', receipt: 'slow' }, '{}');
    raw.send('SEND', { destination: '/app/echo', receipt: 'fast' }, '{}');
    expect((await raw.next('RECEIPT')).headers['receipt-id']).toBe('slow');
    expect((await raw.next('RECEIPT')).headers['receipt-id']).toBe('fast');
  });

  it('stops reading a flooding client while its frames wait, and handles them all in order', async () => {
    const pause = vi.spyOn(WebSocket.prototype, 'pause');
    const resume = vi.spyOn(WebSocket.prototype, 'resume');
    try {
      const raw = await connectedRaw();
      let open!: () => void;
      gate = new Promise((resolve) => {
        open = resolve;
      });
      const count = 300;
      const frames = Array.from({ length: count }, (_, i) =>
        encodeFrame({
          command: 'SEND',
          headers: { destination: '/app/wait', receipt: String(i) },
          body: Buffer.from(`${i}`),
        }),
      );
      raw.ws.send(Buffer.concat(frames.slice(0, 200)));
      for (const frame of frames.slice(200)) raw.ws.send(frame);
      await vi.waitFor(() => expect(pause).toHaveBeenCalled());
      open();
      await vi.waitFor(() =>
        expect(raw.received.filter((item) => item !== 'heartbeat' && item.command === 'RECEIPT')).toHaveLength(count),
      );
      const receipts = raw.received.flatMap((item) =>
        item !== 'heartbeat' && item.command === 'RECEIPT' ? [item.headers['receipt-id']] : [],
      );
      expect(receipts).toEqual(Array.from({ length: count }, (_, i) => String(i)));
      expect(resume).toHaveBeenCalled();
    } finally {
      pause.mockRestore();
      resume.mockRestore();
    }
  });

  it('closes with ERROR on a frame over the limit, whether in one message or many', async () => {
    const one = await connectedRaw();
    one.send('SEND', { destination: '/app/echo' }, 'x'.repeat(64 * 1024 + 10));
    expect((await one.next('ERROR')).headers.message).toBe('ERROR_LIVE_FRAME_TOO_LARGE');
    await one.closed;
    expect(disconnectsOf(one.sessionId)).toEqual([{ id: one.sessionId, reason: 'protocol error' }]);

    const many = await connectedRaw();
    many.ws.send('SEND\ndestination:/app/echo\n\n');
    for (let i = 0; i < 10; i += 1) many.ws.send('y'.repeat(10_000));
    expect((await many.next('ERROR')).headers.message).toBe('ERROR_LIVE_FRAME_TOO_LARGE');
    await many.closed;

    // A WebSocket message far over the limit is refused by ws itself before it is read.
    const huge = await connectedRaw();
    huge.ws.send(Buffer.alloc(256 * 1024, 0x61));
    expect(await huge.closed).toBe(1009);
  });

  it('closes with ERROR on garbage', async () => {
    const raw = await connectedRaw();
    raw.ws.send(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x0a, 0x0a, 0x00]));
    expect((await raw.next('ERROR')).headers.message).toBe('ERROR_LIVE_FRAME_INVALID');
    await raw.closed;
    await vi.waitFor(() => expect(disconnectsOf(raw.sessionId)).toHaveLength(1));
  });

  it('lets a handler close a session with a key', async () => {
    const raw = await connectedRaw();
    raw.send('SEND', { destination: '/app/kick' }, '{}');
    const error = await raw.next('ERROR');
    expect(error.headers.message).toBe('ERROR_AGENT_REPLACED');
    expect(text(error)).toBe(ERROR_MESSAGES.ERROR_AGENT_REPLACED);
    await raw.closed;
    expect(disconnectsOf(raw.sessionId)).toEqual([{ id: raw.sessionId, reason: 'ERROR_AGENT_REPLACED' }]);
    const session = connected.find((each) => each.id === raw.sessionId)!;
    expect(session.closed).toBe(true);
    expect(session.send('/topic/echo', {})).toBe(0);
  });

  it('drops a slow consumer with its outbound buffer bounded', async () => {
    const raw = await connectedRaw();
    raw.send('SUBSCRIBE', { id: 'f', destination: '/topic/flood', receipt: 'ready' });
    await raw.next('RECEIPT');
    raw.ws.pause();
    const session = sessionOf(raw.sessionId)!;
    const socket = (session as unknown as { ws: WebSocket }).ws;
    const body = JSON.stringify({ filler: 'z'.repeat(16 * 1024) });
    let sent = 0;
    let maxBuffered = 0;
    while (!session.closed && sent < 100_000_000) {
      for (let i = 0; i < 16 && !session.closed; i += 1) {
        sent += session.sendRaw('/topic/flood', body) * body.length;
        maxBuffered = Math.max(maxBuffered, socket.bufferedAmount);
      }
      await delay(1);
    }
    expect(session.closed).toBe(true);
    expect(maxBuffered).toBeLessThanOrEqual(MAX_BUFFERED + body.length + 256);
    expect(disconnectsOf(raw.sessionId)).toEqual([{ id: raw.sessionId, reason: 'slow consumer' }]);
    expect(session.sendRaw('/topic/flood', body)).toBe(0);
    raw.ws.resume();
    await raw.closed;
  });

  it('fans one serialized body out to many sessions', async () => {
    const raws = await Promise.all(Array.from({ length: 20 }, () => connectedRaw()));
    for (const raw of raws) raw.send('SUBSCRIBE', { id: '1', destination: '/topic/all', receipt: 's' });
    await Promise.all(raws.map((raw) => raw.next('RECEIPT')));
    const ids = new Set(raws.map((raw) => raw.sessionId));
    let reached = 0;
    const body = JSON.stringify({ n: 1 });
    for (const session of stomp.sessions()) if (ids.has(session.id)) reached += session.sendRaw('/topic/all', body);
    expect(reached).toBe(20);
    for (const raw of raws) expect(text(await raw.next('MESSAGE'))).toBe(body);
  });
});

describe('closing the server', () => {
  it('closes every socket and reports each session once', async () => {
    const own = createStompServer<Context>({ path: '/own', handlers, log });
    const server = createServer();
    attachUpgradeHandler(server, [own, stomp]);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const ownUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/own`;
    const ws = new WebSocket(ownUrl, ['v12.stomp']);
    sockets.push(ws);
    const decoder = new FrameDecoder({ maxFrameBytes: 1 << 20, commands: SERVER_COMMANDS });
    const got: Array<StompFrame | 'heartbeat'> = [];
    ws.on('message', (data) => got.push(...decoder.push(data as Buffer)));
    const closed = new Promise<number>((resolve) => ws.on('close', resolve));
    await once(ws, 'open');
    ws.send(encodeFrame({ command: 'CONNECT', headers: { 'accept-version': '1.2' }, body: Buffer.alloc(0) }));
    await vi.waitFor(() => expect(got).toHaveLength(1));
    const id = (got[0] as StompFrame).headers.session!;
    const pending = new WebSocket(ownUrl);
    sockets.push(pending);
    await once(pending, 'open');

    await own.close();
    expect(await closed).toBe(1001);
    expect(pending.readyState).toBeGreaterThanOrEqual(WebSocket.CLOSING);
    expect(disconnectsOf(id)).toEqual([{ id, reason: 'server closed' }]);
    expect([...own.sessions()]).toHaveLength(0);
    server.close();
  });
});
