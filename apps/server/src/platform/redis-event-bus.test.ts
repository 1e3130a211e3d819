import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DOWN_REDIS_URL,
  deleteKeys,
  quietLog,
  REDIS_URL,
  sleep,
  startRedisRelay,
  testPrefix,
  until,
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

function instance(prefix: string, instanceId: string, url = REDIS_URL, log = quietLog()) {
  const redis: RedisConnections = openRedis({ url, name: `test-${instanceId}`, log });
  const bus: RedisEventBus = createRedisEventBus({ redis, prefix, instanceId, log });
  cleanups.push(async () => {
    await bus.close();
    await redis.close();
  });
  return { redis, bus, log };
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
    await until(() => a.bus.isLive() && b.bus.isLive(), 5_000, 'both subscribed');
    const seenByA: DomainEvent[] = [];
    const seenByB: DomainEvent[] = [];
    a.bus.subscribe((event) => void seenByA.push(event));
    b.bus.subscribe((event) => void seenByB.push(event), { resources: ['users'] });

    a.bus.publish(archived);
    a.bus.publish({ resource: 'roles', kind: 'updated', ids: [3], tenantId: null });
    // Synchronous on the publishing instance, as in-process.
    expect(seenByA).toEqual([archived, { resource: 'roles', kind: 'updated', ids: [3], tenantId: null }]);
    await until(() => seenByB.length === 1, 5_000, 'B to hear');
    const fromB: DomainEvent = { resource: 'users', kind: 'updated', ids: [8], tenantId: 't-1' };
    b.bus.publish(fromB);
    await until(() => seenByA.length === 3, 5_000, 'A to hear');
    // Never its own twice. Redis delivers the channel's events to a subscriber in the order it took
    // them: once B hears one A sent after hearing B's, and A one B sent after that, any echo of
    // B's (or of A's) would have come before.
    const afterB: DomainEvent = { resource: 'users', kind: 'updated', ids: [9], tenantId: 't-1' };
    a.bus.publish(afterB);
    await until(() => seenByB.length === 3, 5_000, 'B to hear A after its own');
    const afterA: DomainEvent = { resource: 'users', kind: 'updated', ids: [10], tenantId: 't-1' };
    b.bus.publish(afterA);
    await until(() => seenByA.length === 5, 5_000, 'A to hear B after its own');
    expect(seenByB).toEqual([archived, fromB, afterB, afterA]);
    expect(seenByA.slice(2)).toEqual([fromB, afterB, afterA]);
  });

  it('evicts the session cache of every instance (a sign-out on A ends the cached session on B)', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b');
    await until(() => a.bus.isLive() && b.bus.isLive(), 5_000, 'both subscribed');
    const cacheOnB = new SessionCache(5_000, 100, () => b.bus.isLive());
    b.bus.subscribe(
      (event) => {
        for (const id of event.ids) cacheOnB.evictSession(id);
      },
      { resources: ['sessions'] },
    );
    cacheOnB.set('hash-41', caller(4, 41), Date.now());
    cacheOnB.set('hash-42', caller(4, 42), Date.now());

    a.bus.publish({ resource: 'sessions', kind: 'deleted', ids: [41], tenantId: 't-1' });
    await until(() => cacheOnB.get('hash-41', Date.now()) === undefined, 5_000, 'eviction on B');
    expect(cacheOnB.get('hash-42', Date.now())?.sessionId).toBe(42);
  });

  it('does not let the session cache serve while its subscription is down, and flushes it when it is back', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const relay = await startRedisRelay();
    cleanups.push(() => relay.stop());
    const a = instance(prefix, 'a', relay.url);
    const b = instance(prefix, 'b');
    await until(() => a.bus.isLive() && b.bus.isLive(), 5_000, 'both subscribed');
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
    await until(() => !a.bus.isLive(), 5_000, 'A to notice');
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
    await until(() => a.bus.isLive(), 10_000, 'A to resubscribe');
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
    await sleep(300);
    expect(a.bus.isLive()).toBe(false);
    expect(a.log.calls.filter((call) => call.message === 'domain event not sent to the other instances')).toHaveLength(
      1,
    );
  });

  it('ignores malformed messages on its channel', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    await until(() => a.bus.isLive(), 5_000, 'subscribed');
    const seen: DomainEvent[] = [];
    a.bus.subscribe((event) => void seen.push(event));
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
    await until(() => seen.length === 1, 5_000, 'the valid one');
    expect(seen).toEqual([archived]);
    expect(a.log.calls.filter((call) => call.message === 'ignored a malformed domain event')).toHaveLength(3);
  });
});
