import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPreparedDatabase, openTestDatabase } from '../../../test/database';
import { createCompany, createUser } from '../../../test/factories';
import { deleteKeys, quietLog, REDIS_URL, startRedisRelay, testPrefix, until } from '../../../test/redis';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Mailer } from '../../platform/mail';
import { openRedis } from '../../platform/redis';
import { createRedisEventBus } from '../../platform/redis-event-bus';
import { createAuthService } from './service';

let database: Database;
let config: Config;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ database, config, close } = await openPreparedDatabase(openTestDatabase));
});
afterAll(() => close());

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const mailer: Mailer = { send: async () => {}, describe: () => 'nowhere' };

/** One server instance's auth service, its domain events going through Redis. */
function instance(prefix: string, instanceId: string, url = REDIS_URL) {
  const log = quietLog();
  const redis = openRedis({ url, name: `test-${instanceId}`, log });
  const events = createRedisEventBus({ redis, prefix, instanceId, log });
  cleanups.push(async () => {
    await events.close();
    await redis.close();
  });
  const auth = createAuthService({
    db: database.db,
    config,
    mailer,
    log: log as unknown as FastifyBaseLogger,
    events,
  });
  return { auth, events };
}

describe('sessions across instances', () => {
  it('a sign-out on one instance ends the session cached on another', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b');
    await until(() => a.events.isLive() && b.events.isLive(), 5_000, 'both subscribed');
    const company = await createCompany(database.db);
    const user = await createUser(database.db, { company });
    const { token } = await a.auth.login(user.email, user.password, '127.0.0.1');
    const onB = await b.auth.resolveCaller(token);
    expect(onB?.userId).toBe(user.id);
    // Cached on B now: answered without a round trip.
    expect(b.auth.resolveCaller(token)).not.toBeInstanceOf(Promise);

    const caller = await a.auth.resolveCaller(token);
    await a.auth.logout(caller!.tokenHash);
    // Well within the cache's 5 s: evicted by the event, not by age.
    await until(() => b.auth.resolveCaller(token) instanceof Promise, 1_000, 'B to evict');
    expect(await b.auth.resolveCaller(token)).toBeNull();
  });

  it('resolves every request from the database while its events may be missed, and flushes on resync', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deleteKeys(prefix));
    const relay = await startRedisRelay();
    cleanups.push(() => relay.stop());
    const a = instance(prefix, 'a');
    const b = instance(prefix, 'b', relay.url);
    await until(() => a.events.isLive() && b.events.isLive(), 5_000, 'both subscribed');
    const company = await createCompany(database.db);
    const user = await createUser(database.db, { company });
    const first = await a.auth.login(user.email, user.password, '127.0.0.1');
    const second = await a.auth.login(user.email, user.password, '127.0.0.1');
    await b.auth.resolveCaller(first.token);
    await b.auth.resolveCaller(second.token);
    expect(b.auth.resolveCaller(first.token)).not.toBeInstanceOf(Promise);

    await relay.stop();
    await until(() => !b.events.isLive(), 5_000, 'B to notice');
    // Not served from the cache while B may miss events...
    expect(b.auth.resolveCaller(first.token)).toBeInstanceOf(Promise);
    // ...so a sign-out on A whose event B cannot hear is seen at once.
    await a.auth.logout((await a.auth.resolveCaller(first.token))!.tokenHash);
    expect(await b.auth.resolveCaller(first.token)).toBeNull();

    await relay.start();
    await until(() => b.events.isLive(), 10_000, 'B to resubscribe');
    // Flushed: the next request reads the database (and caches again).
    expect(b.auth.resolveCaller(second.token)).toBeInstanceOf(Promise);
    expect((await b.auth.resolveCaller(second.token))?.userId).toBe(user.id);
    expect(b.auth.resolveCaller(second.token)).not.toBeInstanceOf(Promise);
  });
});
