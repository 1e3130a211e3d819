import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_FRAME_BYTES, SERVER_HEART_BEAT, STOMP_SUBPROTOCOLS } from '@opsdeck/contract/live';
import type { FastifyBaseLogger } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { redactUrl } from '../logging';
import { FRAME_BURST, FRAME_TIMEOUT_MS, FRAMES_PER_SECOND } from './limits';
import { CONNECTED, type Host, Session } from './session';
import type { StompServer, StompServerOptions } from './types';

export {
  type StompHandlers,
  type StompHeaders,
  StompRefusal,
  type StompServer,
  type StompServerOptions,
  type StompSession,
} from './types';

/**
 * A STOMP 1.2 server over WebSocket (docs/live-channel.md, "Transport"). It knows frames, sessions,
 * subscriptions, receipts, heart-beats and back-pressure; what a destination means and who may use
 * it is the handlers' business. Every destination is the server's own: nothing is relayed between
 * clients except through the handlers.
 */

const pathOf = (url: string | undefined) => {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
};

export function createStompServer<C>(options: StompServerOptions<C>): StompServer<C> {
  const maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  const heartBeat = options.heartBeat ?? SERVER_HEART_BEAT;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const frameTimeoutMs = options.frameTimeoutMs ?? FRAME_TIMEOUT_MS;
  const all = new Set<Session<C>>();
  let closing = false;
  let timer: NodeJS.Timeout | undefined;

  // One timer for every session: a quarter of the shortest interval, so deadlines are met within a
  // quarter, and at most a second apart (10,000 sessions visited once a second is nothing).
  const intervals = [heartBeat[0], heartBeat[1], connectTimeoutMs, frameTimeoutMs].filter((ms) => ms > 0);
  const tickMs = Math.min(1000, Math.max(10, Math.floor(Math.min(...intervals) / 4)));

  const host: Host<C> = {
    handlers: options.handlers,
    heartBeat,
    maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
    connectTimeoutMs,
    frameTimeoutMs,
    frameBurst: options.frameBurst ?? FRAME_BURST,
    framesPerSecond: options.framesPerSecond ?? FRAMES_PER_SECOND,
    errorKey: options.errorKey ?? (() => 'ERROR_GENERAL_INTERNAL'),
    log: options.log,
    forget(session) {
      all.delete(session);
      if (all.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    },
  };

  const wss = new WebSocketServer({
    noServer: true,
    // A frame plus a little: several small frames, or heart-beat EOLs, may share one message. A
    // message over this is closed by ws itself (1009) before it is read.
    maxPayload: maxFrameBytes + 4096,
    perMessageDeflate: false,
    // A client offering no subprotocol is accepted too (stompjs in Node may offer none).
    handleProtocols: (protocols) => STOMP_SUBPROTOCOLS.find((protocol) => protocols.has(protocol)) ?? false,
  });

  function accept(ws: WebSocket, request: IncomingMessage) {
    if (closing) {
      ws.terminate();
      return;
    }
    const session = new Session(host, ws, request, maxFrameBytes);
    all.add(session);
    if (!timer) {
      timer = setInterval(() => {
        const now = Date.now();
        for (const each of all) each.tick(now, tickMs);
      }, tickMs);
      timer.unref();
    }
    ws.on('message', (data) => session.onMessage(data));
    ws.on('close', () => session.end('socket closed'));
    ws.on('error', (err) => options.log.debug({ err, session: session.id }, 'live socket error'));
  }

  return {
    handleUpgrade(request, socket, head) {
      if (pathOf(request.url) !== options.path) return false;
      if (closing) {
        socket.destroy();
        return true;
      }
      wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request));
      return true;
    },
    *sessions() {
      for (const session of all) if (session.state === CONNECTED) yield session;
    },
    async close() {
      closing = true;
      const sockets: WebSocket[] = [];
      for (const session of [...all]) {
        sockets.push(session.ws);
        session.end('server closed', undefined, 'shutdown');
      }
      // A peer that does not answer the close handshake is cut off rather than waited for.
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === ws.CLOSED) return resolve();
              const cut = setTimeout(() => ws.terminate(), 1000);
              ws.once('close', () => {
                clearTimeout(cut);
                resolve();
              });
            }),
        ),
      );
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

export type UpgradeRoute = Pick<StompServer<unknown>, 'handleUpgrade'>;

/**
 * The one `upgrade` listener of an HTTP server (two break each other: docs/architecture.md, "Facts
 * about the stack"): each path to its server, any other answered 404. Returns a function that
 * removes it.
 */
export function attachUpgradeHandler(
  server: HttpServer,
  routes: readonly UpgradeRoute[],
  log?: Pick<FastifyBaseLogger, 'debug'>,
): () => void {
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    for (const route of routes) if (route.handleUpgrade(request, socket, head)) return;
    // The peer may reset the socket before the 404 is written: nothing more to tell it, and a
    // socket 'error' without a listener would end the process.
    socket.on('error', (err) =>
      log?.debug({ err, url: redactUrl(request.url ?? '') }, 'refused upgrade: socket error'),
    );
    socket.once('finish', () => socket.destroy());
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  };
  server.on('upgrade', onUpgrade);
  return () => server.off('upgrade', onUpgrade);
}
