import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_MESSAGES, isErrorKey } from '@opsdeck/contract/errors';
import type { FastifyBaseLogger } from 'fastify';

/** What the STOMP server offers its handlers, and what it asks of them (docs/live-channel.md, Transport). */

export type StompHeaders = Readonly<Record<string, string>>;

export type StompSession<C> = {
  /** A random UUID, also CONNECTED's `session` header. */
  readonly id: string;
  /** What `connect` resolved to. */
  context: C;
  readonly closed: boolean;
  /** When the client last sent anything (a frame or a heart-beat), epoch ms. */
  readonly lastHeardAt: number;
  /** A MESSAGE with `body` as JSON to each subscription of this session to exactly `destination`; how many. */
  send(destination: string, body: unknown): number;
  /** As `send`, with a body already serialized: fan-out serializes once for every session. */
  sendRaw(destination: string, json: string | Buffer): number;
  isSubscribed(destination: string): boolean;
  /** The destinations it is subscribed to. */
  destinations(): string[];
  /** An ERROR frame (`message:<key>`, the English text as body), then the socket closes. */
  close(key: string, message?: string): void;
};

export type StompHandlers<C> = {
  /** Checks CONNECT's headers; a StompRefusal is sent as ERROR with its key, and the socket closes. */
  connect(headers: StompHeaders, request: IncomingMessage): Promise<C>;
  /** After CONNECTED was sent. */
  connected?(session: StompSession<C>): void | Promise<void>;
  /** A StompRefusal refuses the subscription (sent on `/user/topic/errors`); the connection stays. */
  subscribe(session: StompSession<C>, destination: string, headers: StompHeaders): void | Promise<void>;
  /** A SEND; a StompRefusal is sent on `/user/topic/errors` and no RECEIPT follows. */
  message(session: StompSession<C>, destination: string, body: Buffer, headers: StompHeaders): void | Promise<void>;
  /** Exactly once for every session that was CONNECTED, whatever ended it. */
  disconnected(session: StompSession<C>, reason: string): void;
};

export type StompServerOptions<C> = {
  /** The upgrade path, e.g. LIVE_PATH. */
  path: string;
  handlers: StompHandlers<C>;
  /** What CONNECTED offers (ms): [can send every, wants to receive every]; 0 turns a direction off. */
  heartBeat?: readonly [number, number];
  maxFrameBytes?: number;
  /** Outbound bytes a client may leave unread before it is dropped as a slow consumer. */
  maxBufferedBytes?: number;
  connectTimeoutMs?: number;
  /** A frame begun must be whole within this (ms): a client holding half a frame is closed. */
  frameTimeoutMs?: number;
  /** Frames a client may send at once, and per second after that (a token bucket); beyond, it is closed. */
  frameBurst?: number;
  framesPerSecond?: number;
  /** The key sent for an error that is not a StompRefusal. */
  errorKey?: (err: unknown) => string;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info' | 'debug'>;
};

export type StompServer<C> = {
  /** Takes the upgrade when the path (without its query) is ours; false otherwise. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** The CONNECTED sessions that are still open. */
  sessions(): IterableIterator<StompSession<C>>;
  /** Closes every socket (1001 Going Away); resolves once they are closed. */
  close(): Promise<void>;
};

/**
 * A refusal the client is told about by key (docs/live-channel.md): ERROR on CONNECT,
 * `/user/topic/errors` after.
 */
export class StompRefusal extends Error {
  constructor(
    readonly key: string,
    message?: string,
  ) {
    super(message ?? messageOf(key));
    this.name = 'StompRefusal';
  }
}

/** The English text of an error key (the key itself when it is not one of the catalogue's). */
export const messageOf = (key: string): string => (isErrorKey(key) ? ERROR_MESSAGES[key] : key);
