import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countEmitted,
  DOWN_REDIS_URL,
  deleteKeys,
  eventCounts,
  quietLog,
  REDIS_URL,
  startRedisRelay,
  testPrefix,
} from '../../test/redis';
import { SessionCache } from '../modules/auth/session-cache';
import type { Caller } from './access';
import type { DomainEvent } from './events';
import { openRedis, type RedisConnections } from './redis';
import { createRedisEventBus, type RedisEventBus } from './redis-event-bus';

const archived: DomainEvent = { resource: 'users', kind: 'archived', ids: [7], tenantId: 't-1' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * An instance's bus, with what happens to it counted (test/redis.ts, eventCounts), for the tests to
 * wait on: `live` each time its subscription is made (onResync runs then, the first time too), and
 * the `close` of its subscriber connection.
 */
function instance(prefix: string, instanceId: string, url = REDIS_URL, log = quietLog()) {
  const redis: RedisConnections = openRedis({ url, name: `test-${instanceId}`, log });
  const events = eventCounts();
  // The bus's subscriber connection, its `close` counted before the bus hears it (listeners run in order).
  const watched: RedisConnections = {
    ...redis,
    subscriber: (role) => {
      const connection = redis.subscriber(role);
      countEmitted(connection, ['close'], events);
      return connection;
    },
  };
  const bus: RedisEventBus = createRedisEventBus({ redis: watched, prefix, instanceId, log });
  bus.onResync(() => events.add('live'));
  cleanups.push(async () => {
    await bus.close();
    await redis.close();
  });
  return { redis, bus, log, events };
}

/**
 * The instances hear the channel (their subscription made) and can publish on it (their command
 * connection ready: a PUBLISH before that fails at once, and the event is lost to the others).
 */
async function live(...instances: ReturnType<typeof instance>[]) {
  await Promise.all(instances.map(({ events }) => events.until('live', 1)));
  for (const { redis } of instances) expect(await redis.whenReady(5_000)).toBe(true);
}

/** Subscribes to `bus`, counting each event as `heard` in `counts`: a test awaits the events themselves. */
function listen(bus: RedisEventBus, options?: Parameters<RedisEventBus['subscribe']>[1]) {
  const seen: DomainEvent[] = [];
  const heard = eventCounts();
  bus.subscribe((event) => {
    seen.push(event);
    heard.add('heard');
  }, options);
  return { seen, until: (count: number) => heard.until('heard', count) };
}

function caller(userId: number, sessionId: number): Caller {
  return {
    userId,
    sessionId,
    tokenHash: `hash-${sessionId}`,
    expiresAt: Date.now() + 60_000,
    companyId: 1,
    ownTenantId: 't-1',
    authorities: new Set(),
    isAdmin: false,
    token: null,
  };
}

describe('the Redis event bus', () => {
  it('delivers at once on its own instance and through Redis on the others, never its own twice', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b');
    await live(a, b);
    const byA = listen(a.bus);
    const byB = listen(b.bus, { resources: ['users'] });
    const [seenByA, seenByB] = [byA.seen, byB.seen];

    a.bus.publish(archived);
    a.bus.publish({ resource: 'roles', kind: 'updated', ids: [3], tenantId: null });
    // Synchronous on the publishing instance, as in-process.
    expect(seenByA).toEqual([archived, { resource: 'roles', kind: 'updated', ids: [3], tenantId: null }]);
    await byB.until(1);
    const fromB: DomainEvent = { resource: 'users', kind: 'updated', ids: [8], tenantId: 't-1' };
    b.bus.publish(fromB);
    await byA.until(3);
    // Never its own twice. Redis delivers the channel's events to a subscriber in the order it took
    // them: once B hears one A sent after hearing B's, and A one B sent after that, any echo of
    // B's (or of A's) would have come before.
    const afterB: DomainEvent = { resource: 'users', kind: 'updated', ids: [9], tenantId: 't-1' };
    a.bus.publish(afterB);
    await byB.until(3);
    const afterA: DomainEvent = { resource: 'users', kind: 'updated', ids: [10], tenantId: 't-1' };
    b.bus.publish(afterA);
    await byA.until(5);
    expect(seenByB).toEqual([archived, fromB, afterB, afterA]);
    expect(seenByA.slice(2)).toEqual([fromB, afterB, afterA]);
  });

  it('evicts the session cache of every instance (a sign-out on A ends the cached session on B)', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b');
    await live(a, b);
    const cacheOnB = new SessionCache(5_000, 100, () => b.bus.isLive());
    b.bus.subscribe(
      (event) => {
        for (const id of event.ids) cacheOnB.evictSession(id);
      },
      { resources: ['sessions'] },
    );
    // Subscribed after the cache's subscriber: once this one heard the event, that one has evicted.
    const onB = listen(b.bus, { resources: ['sessions'] });
    cacheOnB.set('hash-41', caller(4, 41), Date.now());
    cacheOnB.set('hash-42', caller(4, 42), Date.now());

    a.bus.publish({ resource: 'sessions', kind: 'deleted', ids: [41], tenantId: 't-1' });
    await onB.until(1);
    expect(cacheOnB.get('hash-41', Date.now())).toBeUndefined();
    expect(cacheOnB.get('hash-42', Date.now())?.sessionId).toBe(42);
  });

  it('does not let the session cache serve while its subscription is down, and flushes it when it is back', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const relay = await startRedisRelay();
    cleanups.push(() => relay.stop());
    const a = instance(prefix, 'a', relay.url);
    const b = instance(prefix, 'b');
    await live(a, b);
    const cache = new SessionCache(60_000, 100, () => a.bus.isLive());
    let resyncs = 0;
    a.bus.onResync(() => {
      resyncs += 1;
      cache.flush();
    });
    const now = Date.now();
    cache.set('hash-1', caller(1, 1), now);
    expect(cache.get('hash-1', now)?.userId).toBe(1);

    await relay.stop();
    await a.events.until('close', 1);
    expect(a.bus.isLive()).toBe(false);
    // Every request now resolves its session from the database: nothing is served, nothing kept.
    expect(cache.get('hash-1', now)).toBeUndefined();
    cache.set('hash-2', caller(2, 2), now);
    expect(cache.get('hash-2', now)).toBeUndefined();
    // An eviction A cannot hear: B signs user 1 out, and its event is lost to A.
    b.bus.publish({ resource: 'sessions', kind: 'deleted', ids: [1], tenantId: 't-1' });
    // Publishing while down still delivers locally and does not throw.
    const local: DomainEvent[] = [];
    a.bus.subscribe((event) => void local.push(event));
    a.bus.publish(archived);
    expect(local).toEqual([archived]);

    await relay.start();
    await a.events.until('live', 2, 10_000);
    expect(a.bus.isLive()).toBe(true);
    expect(resyncs).toBe(1);
    // What it held before the outage is gone with whatever it missed.
    expect(cache.get('hash-1', Date.now())).toBeUndefined();
    cache.set('hash-3', caller(3, 3), Date.now());
    expect(cache.get('hash-3', Date.now())?.userId).toBe(3);
  });

  it('runs while Redis is down from the start, without throwing', async () => {
    const prefix = testPrefix();
    const a = instance(prefix, 'a', DOWN_REDIS_URL);
    const seen: DomainEvent[] = [];
    a.bus.subscribe((event) => void seen.push(event));
    a.bus.publish(archived);
    a.bus.publish(archived);
    expect(seen).toEqual([archived, archived]);
    // The sync point: a command sent on the same connection after both PUBLISHes fails after theirs
    // (no offline queue: each fails as it is sent, and their handlers run in that order), so both
    // failures have been handled once this one's is.
    await expect(a.redis.command.publish(`${prefix}:after`, 'x')).rejects.toThrow();
    expect(a.bus.isLive()).toBe(false);
    expect(a.log.calls.filter((call) => call.message === 'domain event not sent to the other instances')).toHaveLength(
      1,
    );
  });

  it('ignores malformed messages on its channel', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    await a.events.until('live', 1);
    const { seen, until } = listen(a.bus);
    const other = new Redis(REDIS_URL);
    cleanups.push(async () => void (await other.quit()));
    const channel = `${prefix}:domain-events`;
    await other.publish(channel, 'not json');
    await other.publish(
      channel,
      JSON.stringify({ instanceId: 'x', event: { resource: 'nope', kind: 'updated', ids: [], tenantId: null } }),
    );
    await other.publish(channel, JSON.stringify({ instanceId: 'x', event: { ...archived, ids: ['1'] } }));
    await other.publish(channel, JSON.stringify({ instanceId: 'x', event: archived }));
    // Redis delivers one publisher's messages in order: the malformed ones were handled before.
    await until(1);
    expect(seen).toEqual([archived]);
    expect(a.log.calls.filter((call) => call.message === 'ignored a malformed domain event')).toHaveLength(3);
  });
});
