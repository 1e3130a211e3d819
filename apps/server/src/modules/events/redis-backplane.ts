import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../platform/errors';
import {
  isRecord,
  isRedisUnavailable,
  jsonRecord,
  RETRY_CAP_MS,
  type RedisConnections,
  withRedis,
} from '../../platform/redis';
import type { Backplane, BackplaneMessage, PresenceEntry } from './backplane';

/** What goes over the channel: a message of an instance, or its goodbye when it stops gracefully. */
type Envelope = { instanceId: string; message: BackplaneMessage } | { instanceId: string; bye: true };

export type RedisBackplane = Backplane & {
  onReconnect: (handler: () => void) => void;
  /** For tests: stops like a killed process (timers and subscription gone, nothing cleaned up). */
  crash: () => void;
};

/**
 * Removes, in one step, the hash entries of one instance and the instance from the index. Atomic,
 * so that several instances sweeping the same dead one at once, or an agent re-saved by another
 * instance under the same session id meanwhile, never lose an entry that is not the dead one's.
 */
const FORGET_INSTANCE = `
local entries = redis.call('HGETALL', KEYS[1])
local removed = 0
for i = 1, #entries, 2 do
  local ok, entry = pcall(cjson.decode, entries[i + 1])
  if ok and type(entry) == 'table' and entry.instanceId == ARGV[1] then
    redis.call('HDEL', KEYS[1], entries[i])
    removed = removed + 1
  end
end
redis.call('SREM', KEYS[2], ARGV[1])
return removed
`;

/**
 * The live channel's backplane over Redis (docs/live-channel.md, "Several instances").
 *
 * - Messages: PUBLISH `{ instanceId, message }` on `${prefix}:live`. Each instance's own messages
 *   are handed to its handler directly, once PUBLISH has succeeded, and skipped when they come
 *   back through the subscription: PUBLISH replies come back in the order the commands were sent
 *   on the one command connection, so the handler sees this instance's messages in publish order,
 *   the promise resolves after it ran, and a message Redis refused reaches nobody, this instance
 *   included. Other instances' messages arrive in their publish order (Redis keeps a publisher's
 *   order on a channel).
 * - Presence: the hash `${prefix}:live:agents` (sessionId → PresenceEntry JSON), for instances
 *   that start later (`snapshot`).
 * - Liveness: each instance keeps `${prefix}:live:instance:<id>` alive (SET PX instanceTtlMs,
 *   refreshed several times per TTL) and lists itself in the set `${prefix}:live:instances`, so
 *   the sweep reads a short index rather than the whole presence hash. Every sweepEveryMs each
 *   instance checks the instances of that set and those it heard from; one whose key is gone is
 *   reported once to onInstanceGone and its entries are removed. A killed instance is therefore
 *   gone from every other within instanceTtlMs + sweepEveryMs (once Redis has been back for
 *   instanceTtlMs + RETRY_CAP_MS: see `sweepQuietUntil`); a graceful `close()` says goodbye and is
 *   gone at once.
 * - Redis away: publish, saveAgent, deleteAgent and snapshot reject with AppError 503
 *   ERROR_SERVICE_UNAVAILABLE; the timers keep running and fail with a debug line (the connection
 *   logs the outage once; any other failure of theirs is an error, logged once a run).
 *   onReconnect handlers run when this instance is back in the shared state after any gap: a lost
 *   connection or subscription, its key found lapsed, or one of those calls refused (a snapshot
 *   that failed at start included); not at a first start that went well.
 */
export function createRedisBackplane(options: {
  redis: RedisConnections;
  prefix: string;
  instanceId?: string;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'debug'>;
  instanceTtlMs?: number;
  sweepEveryMs?: number;
}): RedisBackplane {
  const { redis, prefix, log, instanceTtlMs = 15_000, sweepEveryMs = 5_000 } = options;
  const instanceId = options.instanceId ?? randomUUID();
  const command = redis.command;
  const channel = `${prefix}:live`;
  const agentsKey = `${prefix}:live:agents`;
  const instancesKey = `${prefix}:live:instances`;
  const instanceKey = (id: string) => `${prefix}:live:instance:${id}`;
  // Several refreshes per TTL, so that one slow or lost refresh does not let the key lapse.
  const heartbeatMs = Math.max(1, Math.min(sweepEveryMs, Math.floor(instanceTtlMs / 3)));

  let handler: (message: BackplaneMessage) => void = () => {};
  const goneHandlers: ((instanceId: string) => void)[] = [];
  const reconnectHandlers: (() => void)[] = [];
  /** Instances heard from on the channel (the index may not list them yet, or any more). */
  const heard = new Set<string>();
  /** Instances already reported gone: reported once, until they show up again. */
  const reported = new Set<string>();
  let closed = false;
  /** The last refresh of this instance's key succeeded (it is in the shared state now). */
  let announced = false;
  let subscribed = false;
  /** Since the last announce, this instance may have been missing (failed refresh, lost subscription). */
  let lapsed = false;
  let sweepFailureLogged = false;
  let heartbeatFailureLogged = false;

  function call<T>(name: string, fn: (value: T) => void, value: T) {
    try {
      fn(value);
    } catch (err) {
      log.error({ err }, `backplane ${name} handler failed`);
    }
  }

  function reportGone(id: string) {
    heard.delete(id);
    if (id === instanceId || reported.has(id)) return;
    reported.add(id);
    for (const gone of [...goneHandlers]) call('instance-gone', gone, id);
  }

  function noteAlive(id: string) {
    if (id === instanceId) return;
    heard.add(id);
    reported.delete(id);
  }

  /** Back in the shared state after a gap: the owner re-saves its agents (onReconnect). */
  function rejoinedIfLapsed() {
    if (!lapsed || !announced || !subscribed || closed) return;
    lapsed = false;
    for (const reconnect of [...reconnectHandlers]) call('reconnect', reconnect, undefined);
  }

  // ----- liveness -----------------------------------------------------------------------------

  let beating = false;
  let everAnnounced = false;
  async function heartbeat() {
    if (beating || closed) return;
    if (command.status !== 'ready') {
      // Redis away (at start too: onReconnect then tells the owner when it can load and announce).
      announced = false;
      lapsed = true;
      return;
    }
    beating = true;
    try {
      // GET: the previous value; none means the key had lapsed and others may have dropped us.
      const previous = await command.set(instanceKey(instanceId), '1', 'PX', instanceTtlMs, 'GET');
      await command.sadd(instancesKey, instanceId);
      if (closed) return;
      if (previous === null && everAnnounced) lapsed = true;
      announced = true;
      everAnnounced = true;
      heartbeatFailureLogged = false;
      rejoinedIfLapsed();
    } catch (err) {
      // Not refreshed: the others may drop this instance's agents once its key lapses, and it
      // announces them again after the next refresh that succeeds (onReconnect). Redis away is
      // logged once by the connection; anything else once per run of failures.
      announced = false;
      lapsed = true;
      if (isRedisUnavailable(err) || heartbeatFailureLogged)
        log.debug({ err }, 'backplane heart-beat failed; the next one tries again');
      else log.error({ err }, 'backplane heart-beat failed; the next one tries again');
      heartbeatFailureLogged = true;
    } finally {
      beating = false;
    }
  }

  /**
   * After Redis comes back (restarted empty, perhaps), every instance's key is missing until it
   * reconnects and refreshes it, and instances reconnect up to RETRY_CAP_MS apart: until a whole
   * time to live has passed since this one reconnected, a missing key is no sign of a dead
   * instance, and nobody is reported gone.
   */
  let sweepQuietUntil = 0;

  let sweeping = false;
  async function sweep() {
    if (sweeping || closed || command.status !== 'ready' || Date.now() < sweepQuietUntil) return;
    sweeping = true;
    try {
      const ids = new Set([...(await command.smembers(instancesKey)), ...heard]);
      ids.delete(instanceId);
      const list = [...ids];
      if (list.length === 0) return;
      const alive = await command.mget(list.map(instanceKey));
      for (const [index, id] of list.entries()) {
        if (closed) return;
        if (alive[index] !== null) {
          noteAlive(id);
          continue;
        }
        reportGone(id);
        await command.eval(FORGET_INSTANCE, 2, agentsKey, instancesKey, id);
      }
      sweepFailureLogged = false;
    } catch (err) {
      // Redis away: the next sweep tries again (a dead instance stays in the index until then).
      if (!isRedisUnavailable(err) && !sweepFailureLogged) log.error({ err }, 'backplane sweep failed');
      sweepFailureLogged = true;
    } finally {
      sweeping = false;
    }
  }

  command.on('ready', () => {
    if (everAnnounced) sweepQuietUntil = Date.now() + instanceTtlMs + RETRY_CAP_MS;
    void heartbeat();
  });
  command.on('close', () => {
    // Whatever this instance published meanwhile was refused: it re-announces once back.
    if (!everAnnounced) return;
    announced = false;
    lapsed = true;
  });
  if (command.status === 'ready') void heartbeat();
  const heartbeatTimer = setInterval(() => void heartbeat(), heartbeatMs);
  const sweepTimer = setInterval(() => void sweep(), sweepEveryMs);
  heartbeatTimer.unref();
  sweepTimer.unref();

  // ----- the channel --------------------------------------------------------------------------

  const subscriber = redis.subscriber('live');
  /** Those waiting for the subscription (`whenSubscribed`): told once it is made. */
  const subscribedWaiters: (() => void)[] = [];
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => {
        if (closed || subscriber.status !== 'ready') return;
        subscribed = true;
        for (const waiter of subscribedWaiters.splice(0)) waiter();
        rejoinedIfLapsed();
      },
      (err: unknown) => {
        // Dropped again before the answer: the next 'ready' subscribes.
        log.debug({ err }, 'backplane subscription not made; the next connection makes it');
      },
    );
  });
  subscriber.on('close', () => {
    // Messages published from now on are lost to this instance: it rejoins when it hears again.
    if (subscribed) lapsed = true;
    subscribed = false;
  });
  subscriber.on('message', (from: string, payload: string) => {
    if (from !== channel || closed) return;
    const envelope = parseEnvelope(payload);
    if (!envelope) {
      log.warn({ channel }, 'ignored a malformed backplane message');
      return;
    }
    if (envelope.instanceId === instanceId) return;
    if ('bye' in envelope) {
      reportGone(envelope.instanceId);
      return;
    }
    noteAlive(envelope.instanceId);
    call('message', handler, envelope.message);
  });

  /**
   * A call on the shared state. One that fails because Redis is away left it behind this
   * instance's (an agent not saved, a snapshot not loaded, a message nobody got): onReconnect
   * runs once Redis answers again, so the owner puts it right, the first start included.
   */
  async function shared<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await withRedis(fn);
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 503) lapsed = true;
      throw err;
    }
  }

  async function forgetSelf() {
    await command.eval(FORGET_INSTANCE, 2, agentsKey, instancesKey, instanceId);
    await command.del(instanceKey(instanceId));
    const bye: Envelope = { instanceId, bye: true };
    await command.publish(channel, JSON.stringify(bye));
  }

  function stop() {
    closed = true;
    clearInterval(heartbeatTimer);
    clearInterval(sweepTimer);
    subscriber.removeAllListeners('message');
  }

  return {
    instanceId,
    async publish(message) {
      const envelope: Envelope = { instanceId, message };
      await shared(() => command.publish(channel, JSON.stringify(envelope)));
      handler(message);
    },
    onMessage(next) {
      handler = next;
    },
    snapshot: () =>
      shared(async () => {
        const entries = Object.values(await command.hgetall(agentsKey))
          .map(parsePresenceEntry)
          .filter((entry): entry is PresenceEntry => entry !== undefined);
        const others = [...new Set(entries.map((entry) => entry.instanceId))].filter((id) => id !== instanceId);
        const alive = new Set([instanceId]);
        if (others.length > 0) {
          const keys = await command.mget(others.map(instanceKey));
          for (const [index, id] of others.entries()) {
            if (keys[index] !== null) alive.add(id);
            // Left by an instance that died: the next sweep reports it and clears them.
            else heard.add(id);
          }
        }
        return entries.filter((entry) => alive.has(entry.instanceId));
      }),
    saveAgent: (entry) =>
      shared(async () => {
        await command.hset(agentsKey, entry.agent.sessionId, JSON.stringify(entry));
      }),
    deleteAgent: (sessionId) =>
      shared(async () => {
        await command.hdel(agentsKey, sessionId);
      }),
    onInstanceGone(gone) {
      goneHandlers.push(gone);
    },
    onReconnect(reconnect) {
      reconnectHandlers.push(reconnect);
    },
    whenSubscribed(timeoutMs) {
      if (subscribed) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        let settled = false;
        const settle = (heard: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          subscriber.off('error', failed);
          // Started without hearing: whatever was sent meanwhile is missed, as in an outage.
          if (!heard) lapsed = true;
          resolve(heard);
        };
        const failed = () => settle(false);
        const timer = setTimeout(failed, timeoutMs);
        subscriber.once('error', failed);
        subscribedWaiters.push(() => settle(true));
      });
    },
    async close() {
      if (closed) return;
      stop();
      // A graceful stop: the others drop this instance's agents at once rather than after the
      // TTL. With Redis away they cannot be told; the key lapses and they sweep it.
      await forgetSelf().catch((err: unknown) =>
        log.debug(
          { err },
          'backplane goodbye not said (Redis away): the others sweep this instance once its key lapses',
        ),
      );
      if (subscriber.status === 'ready')
        await subscriber.quit().catch((err: unknown) => {
          // Closing anyway: a QUIT that failed leaves a connection only to cut.
          log.debug({ err }, 'backplane subscriber did not quit; disconnected');
          subscriber.disconnect();
        });
      else subscriber.disconnect();
    },
    crash() {
      stop();
      subscriber.disconnect();
    },
  };
}

/** What another instance sent, checked for its envelope (Redis is shared; a bad message is dropped). */
function parseEnvelope(payload: string): Envelope | undefined {
  const value = jsonRecord(payload);
  if (!value || typeof value.instanceId !== 'string') return undefined;
  if (value.bye === true) return { instanceId: value.instanceId, bye: true };
  if (!isRecord(value.message) || typeof value.message.type !== 'string') return undefined;
  return { instanceId: value.instanceId, message: value.message as BackplaneMessage };
}

function parsePresenceEntry(raw: string): PresenceEntry | undefined {
  const value = jsonRecord(raw);
  if (!value || typeof value.instanceId !== 'string' || !isRecord(value.agent)) return undefined;
  return value as PresenceEntry;
}
