import { afterEach, describe, expect, it } from 'vitest';
import { DOWN_REDIS_URL, quietLog, REDIS_URL, sleep, startRedisRelay, until } from '../../test/redis';
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
    redis.subscriber('test');
    // Several attempts (100-200 ms apart at first) on two connections: still one line.
    await sleep(1_200);
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
      await relay.stop();
      await until(() => redis.status() === 'down', 5_000, 'down');
      await sleep(500);
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
