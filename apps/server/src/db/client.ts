import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { databaseFailureReason, isDatabaseUnavailable } from '../platform/database-errors';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Every query function takes either the database or a caller's transaction. */
export type Executor = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs `select 1`: resolves when the database answers, rejects when it does not. */
  ping: () => Promise<void>;
  /**
   * Where failures outside any request go (a pooled connection lost while idle, when PostgreSQL
   * stops or restarts): the app logs them. They never end the process.
   */
  onBackgroundError: (listener: (error: Error) => void) => void;
  close: () => Promise<void>;
};

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir: string | undefined; loadDataDir?: Blob };

/**
 * Opens the database and applies the committed migrations. PGlite has no lock between processes
 * (STACK.md), so migrations run here, inside the server process, never from a second one.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') return openPostgres(options.url, options.poolSize ?? 10);
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const client = new PGlite({
    // Trigram indexes serve the users list's substring search (migration 0003 creates the extension).
    extensions: { pg_trgm },
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    // PGlite runs in this process: its failures reach the query that caused them, nothing else.
    onBackgroundError: () => {},
    close: () => client.close(),
  };
}

/**
 * Waiting this long for a connection from the pool (or for PostgreSQL to accept one) is a failure
 * (answered 503), so requests do not queue forever while the database is away.
 */
export const CONNECTION_TIMEOUT_MS = 3_000;

/**
 * A node-postgres pool that survives PostgreSQL going away. An idle client whose server ends it
 * ("terminating connection due to administrator command") emits `error` on the pool, and a client
 * lent to a transaction emits it on itself: with no listener, either ends the process. Failed
 * clients leave the pool (pg-pool drops those no longer queryable), and new ones are opened on
 * demand, so the server serves again as soon as PostgreSQL accepts connections.
 */
async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    // Notices a dead peer (a host gone, not just a server stopped) on idle connections.
    keepAlive: true,
  });
  let report: (error: Error) => void = () => {};
  pool.on('error', (error) => report(error));
  // A lent client whose connection fails goes back at once, with the error (so the pool drops it),
  // and its borrower's own release becomes a no-op: Drizzle's transaction() sends BEGIN before its
  // try/finally, so a connection lost at BEGIN would otherwise hold a pool slot for ever, and a
  // few such would starve the pool after the database is back. The query or transaction the client
  // was serving gets the same error and answers 503.
  const lent = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => lent.add(client));
  pool.on('release', (_error, client) => lent.delete(client));
  pool.on('connect', (client) =>
    client.on('error', (error) => {
      if (!lent.has(client)) return;
      const release = client.release;
      client.release = () => {};
      release(error);
    }),
  );
  const db = drizzlePg(pool, { schema });
  try {
    await migratePg(db, { migrationsFolder });
  } catch (error) {
    // The caller may try again (PostgreSQL still starting): leave no pool behind.
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    onBackgroundError: (listener) => {
      report = listener;
    },
    close: () => pool.end(),
  };
}

/**
 * PostgreSQL may start after the server (a compose file, a reboot): while it refuses connections,
 * try again every 2 s for a minute before giving up. Any other failure (a wrong URL, a failed
 * migration) ends the start at once.
 */
export async function openDatabaseWhenReachable(
  options: DatabaseOptions,
  onRetry: (reason: string) => void,
  attempts = 30,
): Promise<Database> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await openDatabase(options);
    } catch (error) {
      if (options.kind !== 'postgres' || !isDatabaseUnavailable(error) || attempt >= attempts) throw error;
      onRetry(databaseFailureReason(error));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

/**
 * Runs raw SQL (recursive CTEs and the like, which the query builder does not express) and gives
 * its rows; both drivers answer with `{ rows }`. Keep int8 columns out, or cast them to int.
 */
export async function selectRows<T extends Record<string, unknown>>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
