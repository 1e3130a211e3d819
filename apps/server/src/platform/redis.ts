import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';
import { AppError } from './errors';

/** Reconnection attempts back off by this much each, and are never further apart than the cap. */
const RETRY_STEP_MS = 200;
export const RETRY_CAP_MS = 2_000;
/** A command Redis does not answer within this counts as failed (a hung Redis is as good as gone). */
const COMMAND_TIMEOUT_MS = 2_000;

export type RedisStatus = 'ready' | 'down';

/**
 * The server's connections to Redis (REDIS_URL): one for commands, shared by every user, plus a
 * dedicated connection per subscriber (a connection in subscribe mode can run no other command).
 */
export type RedisConnections = {
  /** For commands. Fails at once while Redis is away (no offline queue): see `redisUnavailable`. */
  readonly command: Redis;
  /**
   * A new connection for SUBSCRIBE, closed by `close()`. It does not resubscribe by itself after a
   * reconnection: its owner subscribes on each 'ready', so it knows when it hears again.
   */
  subscriber: (name: string) => Redis;
  /** 'ready' while every connection is connected. */
  status: () => RedisStatus;
  /** A round trip on the command connection (the health probe); rejects while Redis is away. */
  ping: () => Promise<void>;
  /**
   * Resolves true once every connection is ready, false after `timeoutMs` without: lets a starting
   * server wait a moment for Redis (to load the live presence) without ever depending on it.
   */
  whenReady: (timeoutMs: number) => Promise<boolean>;
  close: () => Promise<void>;
};

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'debug'>;

/**
 * Opens the connections without waiting for them: a server whose Redis is down starts, answers
 * 503 where it needs Redis, and recovers by itself when Redis returns (ioredis retries forever, at
 * most RETRY_CAP_MS apart). An outage is logged once when it starts and once when it ends, not at
 * every attempt; a connection error never reaches the process ('error' is always listened to).
 */
export function openRedis({ url, name, log }: { url: string; name: string; log: Log }): RedisConnections {
  const connections = new Set<Redis>();
  // The connections not ready now, and whether an outage was announced (logged once, not per attempt).
  const down = new Set<Redis>();
  let outage = false;
  let closing = false;

  const options: RedisOptions = {
    connectionName: name,
    lazyConnect: true,
    // Commands fail at once while disconnected, rather than waiting in memory for a Redis that
    // may not come back: callers answer 503 and the client retries.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    autoResubscribe: false,
    retryStrategy: (attempt) => Math.min(attempt * RETRY_STEP_MS, RETRY_CAP_MS),
  };

  function markDown(connection: Redis, err?: unknown) {
    if (closing) return;
    down.add(connection);
    if (outage) return;
    outage = true;
    log.warn({ reason: redisFailureReason(err) }, 'redis unavailable');
  }

  function open(role: string): Redis {
    const connection = new Redis(url, { ...options, connectionName: `${name}:${role}` });
    connections.add(connection);
    // Not ready until its first 'ready'; a Redis that is away at start is an outage like any other.
    down.add(connection);
    connection.on('error', (err: unknown) => markDown(connection, err));
    connection.on('close', () => markDown(connection));
    // Ended for good (its owner quit it; the retry strategy never gives up): no longer counted.
    connection.on('end', () => {
      connections.delete(connection);
      down.delete(connection);
    });
    connection.on('ready', () => {
      down.delete(connection);
      if (down.size > 0 || !outage || closing) return;
      outage = false;
      log.info('redis available');
    });
    connection.connect().catch((err: unknown) => {
      // The first attempt failed: the retry strategy keeps trying, and 'error' logged the outage.
      log.debug({ reason: redisFailureReason(err), role }, 'redis first connection attempt failed; retrying');
    });
    return connection;
  }

  const command = open('command');

  return {
    command,
    subscriber: (role) => open(role),
    status: () =>
      !closing && command.status === 'ready' && [...connections].every((connection) => connection.status === 'ready')
        ? 'ready'
        : 'down',
    ping: async () => {
      await command.ping();
    },
    whenReady: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        const deadline = Date.now() + timeoutMs;
        const check = () => {
          if (!closing && command.status === 'ready' && down.size === 0) resolve(true);
          else if (closing || Date.now() >= deadline) resolve(false);
          else setTimeout(check, 20);
        };
        check();
      }),
    async close() {
      closing = true;
      const all = [...connections];
      await Promise.all(
        all.map(async (connection) => {
          connection.removeAllListeners('ready');
          // QUIT when connected (in-flight replies arrive first), else just stop reconnecting.
          if (connection.status === 'ready')
            await connection.quit().catch((err: unknown) => {
              // Closing anyway: a QUIT that failed leaves a connection only to cut.
              log.debug({ reason: redisFailureReason(err) }, 'redis connection did not quit; disconnected');
              connection.disconnect();
            });
          else connection.disconnect();
        }),
      );
      connections.clear();
    },
  };
}

/** ioredis's own words for a connection that is away (it sets no code on these). */
const UNAVAILABLE_MESSAGE = /Stream isn't writeable|Connection is closed|Command timed out|Reached the max retries/i;
/** Replies of a Redis that is up but cannot serve now (loading, busy script, failover). */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN)\b/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * Whether a failure means "Redis cannot be reached or cannot serve now" (answered 503, and the
 * client retries), as opposed to "Redis refused this command" (a bug: 500). ioredis rejects at
 * once while disconnected (no offline queue), on a connection lost mid-command, and after
 * commandTimeout.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ReplyError') return UNAVAILABLE_REPLY.test(error.message);
  const code = (error as { code?: unknown }).code;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    UNAVAILABLE_MESSAGE.test(error.message) ||
    (typeof code === 'string' && UNAVAILABLE_ERRNO.has(code))
  );
}

/** Turns a command that failed because Redis is away into the API's 503; anything else as is. */
export function redisUnavailable(error: unknown): unknown {
  return isRedisUnavailable(error) ? new AppError(503, 'ERROR_SERVICE_UNAVAILABLE') : error;
}

/** Runs a Redis call; while Redis is away it rejects with AppError(503, 'ERROR_SERVICE_UNAVAILABLE'). */
export async function withRedis<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw redisUnavailable(err);
  }
}

/** The error's own words for a one-line log ("connect ECONNREFUSED 127.0.0.1:6379"). */
export function redisFailureReason(error: unknown): string {
  if (error instanceof Error) return [(error as { code?: unknown }).code, error.message].filter(Boolean).join(' ');
  return error === undefined ? 'connection closed' : String(error);
}

/**
 * A JSON object another instance wrote to Redis (shared, so never trusted): the object, or
 * undefined for anything that is not JSON or not an object.
 */
export function jsonRecord(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
