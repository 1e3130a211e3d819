import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DESTINATIONS } from '@opsdeck/contract/live';
import type { RawData, WebSocket } from 'ws';
import { encodeFrame, FrameDecoder, type StompFrame, StompProtocolError } from './codec';
import {
  FLOODING,
  FRAME_NOT_COMPLETED,
  FRAMES_PER_TURN,
  MAX_QUEUED_FRAMES,
  MAX_SUBSCRIPTIONS,
  TOO_MANY_SUBSCRIPTIONS,
} from './limits';
import {
  messageOf,
  type StompHandlers,
  type StompHeaders,
  StompRefusal,
  type StompServerOptions,
  type StompSession,
} from './types';

/**
 * One connection's STOMP session: reading its frames in order (with the limits of ./limits.ts),
 * CONNECT and heart-beat negotiation, its subscriptions, receipts and refusals, writing with the
 * slow-consumer bound, and its end. The server (./server.ts) makes one per WebSocket.
 */

const VERSIONS = ['1.2', '1.1', '1.0'] as const;
type Version = (typeof VERSIONS)[number];
const TEXT = { binary: false } as const;
const HEARTBEAT = '\n';

export const CONNECTING = 0;
export const CONNECTED = 1;
export const CLOSED = 2;

/** The last JSON body turned into bytes: a fan-out passes one string to every session, encoded once here. */
let lastJson: string | undefined;
let lastJsonBytes = Buffer.alloc(0);
function jsonBytes(json: string | Buffer): Buffer {
  if (typeof json !== 'string') return json;
  if (json !== lastJson) {
    lastJsonBytes = Buffer.from(json);
    lastJson = json;
  }
  return lastJsonBytes;
}

const toBuffer = (data: RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);

function pickVersion(acceptVersion: string | undefined): Version | undefined {
  // No accept-version: a 1.0 client (spec, Protocol Negotiation).
  if (acceptVersion === undefined) return '1.0';
  const offered = new Set(acceptVersion.split(',').map((version) => version.trim()));
  return VERSIONS.find((version) => offered.has(version));
}

function parseHeartBeat(header: string | undefined): [number, number] | undefined {
  if (header === undefined) return [0, 0];
  const match = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(header);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** What the server of one path shares with its sessions. */
export type Host<C> = {
  handlers: StompHandlers<C>;
  heartBeat: readonly [number, number];
  maxBufferedBytes: number;
  connectTimeoutMs: number;
  frameTimeoutMs: number;
  frameBurst: number;
  framesPerSecond: number;
  errorKey: (err: unknown) => string;
  log: StompServerOptions<C>['log'];
  forget: (session: Session<C>) => void;
};

export class Session<C> implements StompSession<C> {
  readonly id = randomUUID();
  context!: C;
  state = CONNECTING;
  private request: IncomingMessage | undefined;
  private readonly decoder: FrameDecoder;
  private readonly subscriptions = new Map<string, string>();
  private queue: StompFrame[] = [];
  private draining = false;
  private escape = true;
  private messageCount = 0;
  /** Agreed heart-beat intervals (ms), 0 for none. */
  private sendEvery = 0;
  private expectEvery = 0;
  private lastSent: number;
  private lastReceived: number;
  /** The last bytes read from the client (lastReceived also counts the time its frames took us). */
  lastHeardAt: number;
  private readonly openedAt: number;
  /** When the frame the decoder holds part of began to arrive; undefined between frames. */
  private partialSince: number | undefined;
  /** The token bucket of the frame rate: frames the client may still send, as of `tokensAt`. */
  private tokens: number;
  private tokensAt: number;

  constructor(
    private readonly host: Host<C>,
    readonly ws: WebSocket,
    request: IncomingMessage,
    maxFrameBytes: number,
  ) {
    this.request = request;
    this.decoder = new FrameDecoder({ maxFrameBytes });
    this.openedAt = this.lastSent = this.lastReceived = this.lastHeardAt = this.tokensAt = Date.now();
    this.tokens = host.frameBurst;
  }

  get closed() {
    return this.state === CLOSED;
  }

  /** The destinations it is subscribed to. */
  destinations(): string[] {
    return [...new Set(this.subscriptions.values())];
  }

  isSubscribed(destination: string): boolean {
    for (const subscribed of this.subscriptions.values()) if (subscribed === destination) return true;
    return false;
  }

  send(destination: string, body: unknown): number {
    // Serialize only for a session that will receive it.
    if (this.state !== CONNECTED || !this.isSubscribed(destination)) return 0;
    return this.sendRaw(destination, JSON.stringify(body ?? null));
  }

  sendRaw(destination: string, json: string | Buffer): number {
    if (this.state !== CONNECTED) return 0;
    let sent = 0;
    for (const [id, subscribed] of this.subscriptions) {
      if (subscribed !== destination) continue;
      this.messageCount += 1;
      const frame = this.encode(
        'MESSAGE',
        {
          subscription: id,
          'message-id': String(this.messageCount),
          destination,
          'content-type': 'application/json',
        },
        jsonBytes(json),
      );
      if (!this.write(frame)) break;
      sent += 1;
    }
    return sent;
  }

  close(key: string, message?: string): void {
    this.end(key, { key, message: message ?? messageOf(key) });
  }

  // ----- reading -------------------------------------------------------------------------------

  onMessage(data: RawData) {
    if (this.state === CLOSED) return;
    const now = Date.now();
    this.lastReceived = this.lastHeardAt = now;
    let items: ReturnType<FrameDecoder['push']>;
    try {
      items = this.decoder.push(toBuffer(data));
    } catch (err) {
      const key = err instanceof StompProtocolError ? err.key : 'ERROR_LIVE_FRAME_INVALID';
      this.host.log.debug({ err, session: this.id }, 'live frame refused');
      this.end('protocol error', { key, message: messageOf(key) });
      return;
    }
    if (this.decoder.bufferedBytes === 0) this.partialSince = undefined;
    else this.partialSince ??= now;
    let frames = 0;
    for (const item of items) {
      if (item === 'heartbeat') continue;
      this.queue.push(item);
      frames += 1;
    }
    if (frames > 0 && !this.spend(frames, now)) {
      this.host.log.warn({ session: this.id }, 'live client flooding: closed');
      this.end('flood', { key: 'ERROR_TOO_MANY_REQUESTS', message: FLOODING });
      return;
    }
    // A flooding client waits on TCP rather than growing this queue.
    if (this.queue.length > MAX_QUEUED_FRAMES && !this.ws.isPaused) this.ws.pause();
    if (!this.draining && this.queue.length > 0) void this.drain();
  }

  /** Takes `frames` from the token bucket; false when the client sent more than its rate allows. */
  private spend(frames: number, now: number): boolean {
    this.tokens = Math.min(
      this.host.frameBurst,
      this.tokens + ((now - this.tokensAt) * this.host.framesPerSecond) / 1000,
    );
    this.tokensAt = now;
    this.tokens -= frames;
    return this.tokens >= 0;
  }

  /** One frame at a time, in order: a handler's answer never overtakes an earlier one's. */
  private async drain() {
    this.draining = true;
    let handled = 0;
    try {
      while (this.state !== CLOSED) {
        const frame = this.queue.shift();
        if (!frame) break;
        // Handlers that answer at once chain as microtasks, which never let the event loop run:
        // a client with many frames waiting lets the others' be read and handled now and then.
        if (++handled % FRAMES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
        if (this.state === CLOSED) break;
        try {
          await this.handle(frame);
        } catch (err) {
          // Handlers' errors are caught where they are called; this is a bug here, not the client's.
          this.fail(err, `${frame.command} handling`);
        }
        // A busy server is not a silent client.
        this.lastReceived = Date.now();
        if (this.ws.isPaused && this.queue.length <= MAX_QUEUED_FRAMES / 2 && this.state !== CLOSED) this.ws.resume();
      }
    } finally {
      this.draining = false;
    }
  }

  private async handle(frame: StompFrame) {
    const { command, headers } = frame;
    if (this.state === CONNECTING) {
      if (command === 'CONNECT' || command === 'STOMP') return this.connect(frame);
      return this.protocolError('the first frame must be CONNECT');
    }
    switch (command) {
      case 'SUBSCRIBE':
        return this.subscribe(headers);
      case 'UNSUBSCRIBE':
        if (headers.id === undefined) return this.protocolError('UNSUBSCRIBE needs an id');
        this.subscriptions.delete(headers.id);
        return this.receipt(headers);
      case 'SEND':
        return this.message(frame);
      case 'ACK':
      case 'NACK':
        // Every subscription is ack:auto here; a client acknowledging anyway is not wrong.
        return this.receipt(headers);
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        return this.refuse(headers.destination ?? '', new StompRefusal('ERROR_GENERAL_INVALID_INPUT', NO_TRANSACTIONS));
      case 'DISCONNECT':
        this.receipt(headers);
        return this.end('client disconnect');
      default:
        return this.protocolError('already connected');
    }
  }

  private async connect(frame: StompFrame) {
    const version = pickVersion(frame.headers['accept-version']);
    if (!version) {
      return this.end('protocol error', {
        key: 'ERROR_LIVE_FRAME_INVALID',
        message: 'Supported STOMP versions: 1.2, 1.1, 1.0.',
        headers: { version: VERSIONS.join(',') },
      });
    }
    const clientBeat = parseHeartBeat(frame.headers['heart-beat']);
    if (!clientBeat) return this.protocolError('heart-beat is not two numbers');
    this.escape = version !== '1.0';
    this.decoder.escaping = this.escape;

    let context: C;
    try {
      context = await this.host.handlers.connect(frame.headers, this.request!);
    } catch (err) {
      return this.fail(err, 'connect');
    }
    // The socket may have gone, or the handshake timed out, while connect ran.
    if (this.state !== CONNECTING) return;
    this.context = context;
    this.state = CONNECTED;
    this.request = undefined;

    // Spec, Heart-beating: each direction at the slower of what one side can do and the other wants.
    const [canSend, wantsToReceive] = this.host.heartBeat;
    const [clientCanSend, clientWantsToReceive] = clientBeat;
    this.sendEvery = canSend && clientWantsToReceive ? Math.max(canSend, clientWantsToReceive) : 0;
    this.expectEvery = clientCanSend && wantsToReceive ? Math.max(clientCanSend, wantsToReceive) : 0;
    this.lastReceived = Date.now();
    this.write(
      this.encode('CONNECTED', {
        version,
        // STOMP 1.2: the server's own heart-beat settings; each side works out the agreed ones.
        'heart-beat': `${canSend},${wantsToReceive}`,
        session: this.id,
        server: 'Opsdeck/1',
      }),
    );
    try {
      await this.host.handlers.connected?.(this);
    } catch (err) {
      this.fail(err, 'connected');
    }
  }

  private async subscribe(headers: StompHeaders) {
    const { id, destination } = headers;
    if (id === undefined || !destination) return this.protocolError('SUBSCRIBE needs an id and a destination');
    if (this.subscriptions.has(id)) return this.protocolError('the subscription id is in use');
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      // Not a refusal the client could live with: a client making subscriptions without end is closed.
      this.host.log.warn({ session: this.id }, 'live client over its subscriptions: closed');
      return this.end('too many subscriptions', { key: 'ERROR_TOO_MANY_REQUESTS', message: TOO_MANY_SUBSCRIPTIONS });
    }
    try {
      await this.host.handlers.subscribe(this, destination, headers);
    } catch (err) {
      return this.refuse(destination, err);
    }
    // Made only once accepted: a refused subscription never receives a message, even meanwhile.
    if (this.state !== CONNECTED) return;
    this.subscriptions.set(id, destination);
    this.receipt(headers);
  }

  private async message(frame: StompFrame) {
    const { headers } = frame;
    const { destination } = headers;
    if (!destination) return this.protocolError('SEND needs a destination');
    if (headers.transaction !== undefined) {
      return this.refuse(destination, new StompRefusal('ERROR_GENERAL_INVALID_INPUT', NO_TRANSACTIONS));
    }
    try {
      await this.host.handlers.message(this, destination, frame.body, headers);
    } catch (err) {
      return this.refuse(destination, err);
    }
    this.receipt(headers);
  }

  /**
   * A refused SUBSCRIBE or SEND: told on `/user/topic/errors` (docs/live-channel.md), the
   * connection stays.
   */
  private refuse(destination: string, err: unknown) {
    if (this.state !== CONNECTED) return;
    let key: string;
    let message: string;
    if (err instanceof StompRefusal) {
      ({ key, message } = err);
    } else {
      this.host.log.error({ err, session: this.id, destination }, 'live handler failed');
      key = this.host.errorKey(err);
      message = messageOf(key);
    }
    this.send(DESTINATIONS.errors, { destination, key, message });
  }

  /** An error that ends the session (handshake, `connected`): ERROR with its key, then close. */
  private fail(err: unknown, stage: string) {
    if (this.state === CLOSED) return;
    if (err instanceof StompRefusal) {
      this.end(err.key, { key: err.key, message: err.message });
      return;
    }
    this.host.log.error({ err, session: this.id }, `live ${stage} failed`);
    const key = this.host.errorKey(err);
    this.end(key, { key, message: messageOf(key) });
  }

  private protocolError(detail: string) {
    this.host.log.debug({ session: this.id, detail }, 'live protocol error');
    this.end('protocol error', { key: 'ERROR_LIVE_FRAME_INVALID', message: messageOf('ERROR_LIVE_FRAME_INVALID') });
  }

  private receipt(headers: StompHeaders) {
    if (headers.receipt !== undefined) this.write(this.encode('RECEIPT', { 'receipt-id': headers.receipt }));
  }

  // ----- writing -------------------------------------------------------------------------------

  private encode(command: string, headers: Record<string, string>, body: Buffer = EMPTY): Buffer {
    return encodeFrame({ command, headers, body }, { escape: this.escape });
  }

  /** Every write checks the client keeps up: what it leaves unread is bounded by the limit plus one frame. */
  private write(data: Buffer | string): boolean {
    if (this.state === CLOSED) return false;
    if (this.ws.bufferedAmount > this.host.maxBufferedBytes) {
      this.host.log.warn({ session: this.id, buffered: this.ws.bufferedAmount }, 'live slow consumer dropped');
      this.end(
        'slow consumer',
        { key: 'ERROR_LIVE_SLOW_CONSUMER', message: messageOf('ERROR_LIVE_SLOW_CONSUMER') },
        'terminate',
      );
      return false;
    }
    this.ws.send(data, TEXT);
    this.lastSent = Date.now();
    return true;
  }

  /** The shared timer's visit: handshake deadline, the client's silence, our heart-beat. */
  tick(now: number, tickMs: number) {
    if (this.partialSince !== undefined && now - this.partialSince >= this.host.frameTimeoutMs) {
      this.end('frame timeout', { key: 'ERROR_LIVE_FRAME_INVALID', message: FRAME_NOT_COMPLETED });
      return;
    }
    if (this.state === CONNECTING) {
      if (now - this.openedAt >= this.host.connectTimeoutMs) this.end('connect timeout', undefined, 'terminate');
      return;
    }
    if (this.expectEvery > 0 && now - this.lastReceived > 2 * this.expectEvery) {
      this.end('heart-beat timeout', {
        key: 'ERROR_LIVE_HEARTBEAT_TIMEOUT',
        message: messageOf('ERROR_LIVE_HEARTBEAT_TIMEOUT'),
      });
      return;
    }
    // One tick early rather than late: the next visit may come a whole tick after the deadline.
    if (this.sendEvery > 0 && now - this.lastSent >= this.sendEvery - tickMs) this.write(HEARTBEAT);
  }

  /**
   * Ends the session once: an optional ERROR frame, the socket closed (or destroyed), and
   * `disconnected` if it had been CONNECTED.
   */
  end(
    reason: string,
    error?: { key: string; message: string; headers?: Record<string, string> },
    how: 'close' | 'terminate' | 'shutdown' = 'close',
  ) {
    if (this.state === CLOSED) return;
    const wasConnected = this.state === CONNECTED;
    if (error) {
      try {
        const headers = { ...error.headers, message: error.key, 'content-type': 'text/plain' };
        this.ws.send(this.encode('ERROR', headers, Buffer.from(error.message)), TEXT);
      } catch (err) {
        // A key that cannot be a header (a 1.0 peer, a line break) still closes the session.
        this.host.log.error({ err, session: this.id }, 'live ERROR frame not sent');
      }
    }
    this.state = CLOSED;
    this.queue = [];
    this.subscriptions.clear();
    this.request = undefined;
    // A socket paused by flow control would never read the client's answer to our close frame,
    // and would linger half-closed until ws gives up (30 s): read again, and drop what comes.
    if (this.ws.isPaused) this.ws.resume();
    if (how === 'terminate') this.ws.terminate();
    else this.ws.close(how === 'shutdown' ? 1001 : 1000);
    this.host.forget(this);
    if (!wasConnected) return;
    try {
      this.host.handlers.disconnected(this, reason);
    } catch (err) {
      this.host.log.error({ err, session: this.id }, 'live disconnected handler failed');
    }
  }
}

const EMPTY = Buffer.alloc(0);
const NO_TRANSACTIONS = 'Transactions are not supported.';
