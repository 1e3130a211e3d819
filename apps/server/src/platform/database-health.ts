import { Health, HealthDegraded } from '@opsdeck/contract/health';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../db/client';
import { databaseFailureReason } from './database-errors';
import { errorBody, RETRY_AFTER_SECONDS } from './errors';
import type { RedisConnections } from './redis';

/** A health answer is reused this long, so that polling `/api/health` never loads the database. */
export const HEALTH_CACHE_MS = 1_000;
/** A probe slower than this counts as "no answer" (a database that hangs is as good as gone). */
export const HEALTH_PROBE_TIMEOUT_MS = 2_000;

export type DatabaseState = 'ok' | 'unavailable';

/**
 * Whether the database answers now, by a cheap `select 1`. Concurrent callers share one probe and
 * its answer is cached for HEALTH_CACHE_MS: a burst of health checks costs one query a second.
 * With `report`, a change of state is logged (the reason once, when it stops answering), not
 * every probe.
 */
export function createDatabaseHealth(
  database: Pick<Database, 'ping'>,
  now: () => number = Date.now,
  report?: { log: Pick<FastifyBaseLogger, 'warn' | 'info'>; name: string },
) {
  let last: { state: DatabaseState; at: number } | undefined;
  let running: Promise<DatabaseState> | undefined;

  async function probe(): Promise<DatabaseState> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('health probe timed out')), HEALTH_PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([database.ping(), timeout]);
      if (last?.state === 'unavailable') report?.log.info(`health probe: ${report.name} answers again`);
      return 'ok';
    } catch (error) {
      // The state is the answer (/api/health says degraded); its reason is logged once, here.
      if (last?.state !== 'unavailable')
        report?.log.warn({ reason: databaseFailureReason(error) }, `health probe: ${report.name} does not answer`);
      return 'unavailable';
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async state(): Promise<DatabaseState> {
      if (last && now() - last.at < HEALTH_CACHE_MS) return last.state;
      running ??= probe().then((state) => {
        last = { state, at: now() };
        running = undefined;
        return state;
      });
      return running;
    },
  };
}

/**
 * `GET /api/health` (open: no app key, no session): 200 `ok` while the database answers, 503
 * `degraded` with Retry-After while it does not. Also where a lost idle connection is logged.
 * With REDIS_URL, Redis is probed the same way (a PING, shared and cached) and reported as
 * `redis: up | down`: the instances cannot act as one without it, so its absence is a 503 too.
 */
export function registerHealth(
  app: FastifyInstance,
  database: Database,
  version: string,
  redis?: Pick<RedisConnections, 'ping'>,
) {
  database.onBackgroundError((error) =>
    app.log.warn({ reason: databaseFailureReason(error) }, 'database connection lost'),
  );
  const health = createDatabaseHealth(database, Date.now, { log: app.log, name: 'database' });
  // The same shared, cached probe: only its ping differs.
  const redisHealth = redis ? createDatabaseHealth(redis, Date.now, { log: app.log, name: 'redis' }) : undefined;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: 200 while the database (and Redis, when configured) answers, 503 (degraded) while not',
        response: { 200: Health, 503: HealthDegraded },
      },
    },
    async (_request, reply) => {
      const [databaseState, redisState] = await Promise.all([health.state(), redisHealth?.state()]);
      if (databaseState === 'ok' && redisState !== 'unavailable') {
        return { status: 'ok' as const, database: database.kind, ...(redisState && { redis: 'up' as const }), version };
      }
      reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS));
      return {
        status: 'degraded' as const,
        database: database.kind,
        ...(redisState && { redis: redisState === 'ok' ? ('up' as const) : ('down' as const) }),
        version,
        ...errorBody('ERROR_SERVICE_UNAVAILABLE'),
      };
    },
  );
}
