import { afterEach, describe, expect, it } from 'vitest';
import { countEmitted, DOWN_REDIS_URL, quietLog, REDIS_URL, startRedisRelay, until } from '../../test/redis';
import { AppError } from './errors';
import { isRedisUnavailable, openRedis, type RedisConnections, withRedis } from './redis';

const opened: RedisConnections[] = [];
const open = (url: string, log = quietLog()) => {
  const redis = openRedis({ url, name: 'opsdeck-test', log });
  opened.push(redis);
  return redis;
};

afterEach(async () => {
  await Promise.all(opened.splice(0).map((redis) => redis.close()));
});

describe('openRedis', () => {
  it('connects without being awaited, and closes', async () => {
    const redis = open(REDIS_URL);
    const subscriber = redis.subscriber('test');
    await until(() => redis.status() === 'ready', 5_000, 'ready');
    expect(subscriber.status).toBe('ready');
    await redis.ping();
    await redis.close();
    expect(redis.status()).toBe('down');
  });

  it('starts while Redis is down, keeps retrying, logs the outage once, and fails commands with 503', async () => {
    const log = quietLog();
    const redis = open(DOWN_REDIS_URL, log);
    const subscriber = redis.subscriber('test');
    const commandFailures = countEmitted(redis.command, ['error']);
    const subscriberFailures = countEmitted(subscriber, ['error']);
    // Several attempts (200 ms apart and more) on two connections: still one line.
    await Promise.all([commandFailures.until('error', 3), subscriberFailures.until('error', 3)]);
    expect(redis.status()).toBe('down');
    expect(log.calls.filter((call) => call.level === 'warn')).toEqual([
      { level: 'warn', message: 'redis unavailable' },
    ]);
    const failure = await withRedis(() => redis.command.get('anything')).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ statusCode: 503, key: 'ERROR_SERVICE_UNAVAILABLE' });
    await expect(redis.ping()).rejects.toThrow();
  });

  it('recovers by itself when Redis returns, logging the end of the outage', async () => {
    const relay = await startRedisRelay();
    try {
      const log = quietLog();
      const redis = open(relay.url, log);
      await until(() => redis.status() === 'ready', 5_000, 'ready');
      const failures = countEmitted(redis.command, ['error']);
      await relay.stop();
      await until(() => redis.status() === 'down', 5_000, 'down');
      // Two more attempts to reconnect, both refused: the outage is still one line.
      await failures.more('error', 2);
      expect(log.calls.map((call) => call.message)).toEqual(['redis unavailable']);
      await relay.start();
      await until(() => redis.status() === 'ready', 5_000, 'ready again');
      await redis.ping();
      expect(log.calls.map((call) => call.message)).toEqual(['redis unavailable', 'redis available']);
    } finally {
      await relay.stop();
    }
  });

  it('lets a starting server wait a bounded moment for Redis', async () => {
    expect(await open(REDIS_URL).whenReady(5_000)).toBe(true);
    const startedAt = Date.now();
    expect(await open(DOWN_REDIS_URL).whenReady(300)).toBe(false);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it('tells a Redis that is away from a command Redis refused', async () => {
    const redis = open(REDIS_URL);
    await until(() => redis.status() === 'ready', 5_000, 'ready');
    const refused = await redis.command.call('NO-SUCH-COMMAND').catch((err: unknown) => err);
    expect(isRedisUnavailable(refused)).toBe(false);
    await expect(withRedis(() => redis.command.call('NO-SUCH-COMMAND'))).rejects.not.toBeInstanceOf(AppError);
    expect(isRedisUnavailable(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(true);
    expect(isRedisUnavailable(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isRedisUnavailable(new TypeError('x is not a function'))).toBe(false);
  });
});
