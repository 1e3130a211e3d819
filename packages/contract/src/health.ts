import { z } from 'zod';

const DatabaseKind = z.enum(['pglite', 'postgres']);

/** `GET /api/health` answers 200 with this while the database answers a probe. */
export const Health = z
  .object({ status: z.literal('ok'), database: DatabaseKind, version: z.string() })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof Health>;

/**
 * …and 503 with this (and `Retry-After`) while it does not: the server is up and will serve again
 * by itself once the database is back. It carries the error body's `key` and `message` too.
 */
export const HealthDegraded = z
  .object({
    status: z.literal('degraded'),
    database: DatabaseKind,
    version: z.string(),
    key: z.literal('ERROR_SERVICE_UNAVAILABLE'),
    message: z.string(),
  })
  .meta({ id: 'HealthDegraded' });
export type HealthDegraded = z.infer<typeof HealthDegraded>;
