import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { DOWN_REDIS_URL, quietLog, REDIS_URL, until } from '../../test/redis';
import type { Database } from '../db/client';
import { registerHealth } from './database-health';
import { openRedis, type RedisConnections } from './redis';
import { serializerCompiler } from './serializers';

const database = {
  kind: 'pglite',
  ping: async () => {},
  onBackgroundError: () => {},
} as unknown as Database;

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function healthOf(redis?: RedisConnections) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerHealth(app, database, '1.2.3', redis);
  closing.push(() => app.close());
  const response = await app.inject({ method: 'GET', url: '/api/health' });
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], body: response.json() };
}

function redisAt(url: string) {
  const redis = openRedis({ url, name: 'opsdeck-test-health', log: quietLog() });
  closing.push(() => redis.close());
  return redis;
}

describe('GET /api/health with Redis', () => {
  it('says nothing of Redis when it is not configured', async () => {
    expect(await healthOf()).toMatchObject({
      status: 200,
      body: { status: 'ok', database: 'pglite', version: '1.2.3' },
    });
    expect((await healthOf()).body).not.toHaveProperty('redis');
  });

  it('reports redis up while it answers', async () => {
    const redis = redisAt(REDIS_URL);
    await until(() => redis.status() === 'ready', 5_000, 'ready');
    expect(await healthOf(redis)).toMatchObject({ status: 200, body: { status: 'ok', redis: 'up' } });
  });

  it('answers 503 with ERROR_SERVICE_UNAVAILABLE and redis down while Redis is away', async () => {
    const redis = redisAt(DOWN_REDIS_URL);
    expect(await healthOf(redis)).toEqual({
      status: 503,
      retryAfter: '5',
      body: {
        status: 'degraded',
        database: 'pglite',
        redis: 'down',
        version: '1.2.3',
        key: 'ERROR_SERVICE_UNAVAILABLE',
        message: expect.any(String),
      },
    });
  });
});
