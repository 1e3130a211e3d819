import { z } from 'zod';

const DatabaseKind = z.enum(['pglite', 'postgres']);
/** Present only when the server is configured with REDIS_URL (several instances). */
const RedisState = z.enum(['up', 'down']);

/** `GET /api/health` answers 200 with this while the database (and Redis, when configured) answers a probe. */
export const Health = z
  .object({ status: z.literal('ok'), database: DatabaseKind, redis: z.literal('up').optional(), version: z.string() })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof Health>;

/**
 * …and 503 with this (and `Retry-After`) while one does not: the server is up and will serve again
 * by itself once the database (or Redis) is back. It carries the error body's `key` and `message` too.
 */
export const HealthDegraded = z
  .object({
    status: z.literal('degraded'),
    database: DatabaseKind,
    redis: RedisState.optional(),
    version: z.string(),
    key: z.literal('ERROR_SERVICE_UNAVAILABLE'),
    message: z.string(),
  })
  .meta({ id: 'HealthDegraded' });
export type HealthDegraded = z.infer<typeof HealthDegraded>;
