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
import { asOwner, currentDatabaseScope, type DatabaseScope } from '../platform/tenancy';
import { cacheStatements } from './pglite-statements';
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
 * (docs/architecture.md, "Facts about the stack"), so migrations run here, inside the server
 * process, never from a second one.
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
  // Its own start-up statements (the array types it reads) run before any role exists.
  await client.waitReady;
  scopeEveryStatement(client);
  const db = drizzlePglite(cacheStatements(client), { schema });
  await asOwner(() => migratePglite(db, { migrationsFolder }));
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
 * What a connection must have set before it runs a statement for `scope` (docs/tenancy.md, "The
 * wall in the database"): the role whose queries meet row-level security (`none`, the login itself,
 * for the owner's schema changes), and the two settings the policies read. A tenant id is a UUID
 * (access.ts refuses any other), checked again here because the PGlite path writes it as a literal.
 */
type ConnectionSettings = { key: string; role: string; scope: string; tenantId: string };

const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const settingsCache = new Map<string, ConnectionSettings>();

function settingsFor(scope: DatabaseScope): ConnectionSettings {
  const key = scope.kind === 'tenant' ? scope.tenantId : scope.kind;
  let settings = settingsCache.get(key);
  if (settings) return settings;
  if (scope.kind === 'tenant' && !TENANT_ID.test(scope.tenantId)) throw new Error('a tenant id is a UUID');
  settings = {
    key,
    role: scope.kind === 'owner' ? 'none' : 'opsdeck_app',
    scope: scope.kind,
    tenantId: scope.kind === 'tenant' ? scope.tenantId.toLowerCase() : '',
  };
  // Tenants are few (companies); the cache holds one small record each.
  settingsCache.set(key, settings);
  return settings;
}

const SETTINGS_SQL =
  "select set_config('role', $1, false), set_config('opsdeck.scope', $2, false), set_config('opsdeck.tenant_id', $3, false)";

/**
 * Makes every statement PGlite runs meet the scope of the work that sent it. PGlite has one
 * connection, shared by all requests, and runs one statement at a time under its query lock: the
 * settings are changed under that lock, right before a statement of another scope, so no other
 * statement can come between (a stream of one company's requests changes nothing). Settings
 * changed inside a transaction are undone by its rollback, so after such a transaction they are
 * set again.
 */
function scopeEveryStatement(client: PGlite) {
  type Locked = { _runExclusiveQuery: <T>(work: () => Promise<T>) => Promise<T> };
  const locked = client as unknown as Locked;
  const runLocked = locked._runExclusiveQuery.bind(client);
  let applied: string | undefined;
  let changedInTransaction = false;
  locked._runExclusiveQuery = <T>(statement: () => Promise<T>) => {
    const settings = settingsFor(currentDatabaseScope());
    return runLocked(async () => {
      const inTransaction = client.isInTransaction();
      if (changedInTransaction && !inTransaction) {
        applied = undefined;
        changedInTransaction = false;
      }
      if (applied !== settings.key) {
        applied = undefined;
        try {
          await client.execProtocol(simpleQuery(settingsLiteral(settings)), { syncToFs: false });
          applied = settings.key;
          changedInTransaction ||= inTransaction;
        } catch (error) {
          // An aborted transaction refuses every statement but its ROLLBACK, which needs no scope
          // and must still run; anything else refuses the statement.
          if ((error as { code?: string }).code !== IN_FAILED_TRANSACTION) throw error;
        }
      }
      return statement();
    });
  };
}

const IN_FAILED_TRANSACTION = '25P02';

const settingsLiteral = (settings: ConnectionSettings) =>
  SETTINGS_SQL.replace('$1', `'${settings.role}'`)
    .replace('$2', `'${settings.scope}'`)
    .replace('$3', `'${settings.tenantId}'`);

/** A frontend Query message (the simple protocol): 'Q', its length, the text, a zero byte. */
function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(text, 'utf8');
  const message = Buffer.alloc(body.length + 6);
  message.write('Q', 0, 'ascii');
  message.writeInt32BE(body.length + 5, 1);
  body.copy(message, 5);
  return message;
}

/**
 * A pool whose connections meet the scope of the work that borrows them (PostgreSQL). Each
 * connection remembers the settings it has; a borrower of another scope sets them first (one
 * round trip, none in a stream of one company's requests). A transaction's statements each check
 * again (work inside one may change its scope), and a rollback forgets what was set inside it.
 */
class ScopedPool extends pg.Pool {
  readonly #applied = new WeakMap<pg.PoolClient, string>();

  // The promise form only (Drizzle's): pg-pool's callback forms are not used here.
  override async connect(): Promise<pg.PoolClient> {
    const client = await super.connect();
    return new Proxy(client, {
      get: (target, property) => {
        if (property === 'query') return (config: unknown, values?: unknown) => this.#run(target, config, values);
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  // The promise form only, as above.
  override async query(config: unknown, values?: unknown) {
    const client = await super.connect();
    try {
      const result = await this.#run(client, config, values);
      client.release();
      return result;
    } catch (error) {
      // A connection that failed leaves the pool; one that answered an error stays.
      client.release(isDatabaseUnavailable(error) ? (error as Error) : undefined);
      throw error;
    }
  }

  async #run(client: pg.PoolClient, config: unknown, values: unknown) {
    const text = typeof config === 'string' ? config : (config as { text?: string }).text;
    if (text && /^\s*rollback/i.test(text)) {
      // Needs no scope (and an aborted transaction would refuse the settings).
      this.#applied.delete(client);
      return client.query(text);
    }
    const settings = settingsFor(currentDatabaseScope());
    if (this.#applied.get(client) !== settings.key) {
      this.#applied.delete(client);
      await client.query(SETTINGS_SQL, [settings.role, settings.scope, settings.tenantId]);
      this.#applied.set(client, settings.key);
    }
    return client.query(config as pg.QueryConfig, values as unknown[]);
  }
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
  const pool = new ScopedPool({
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
    await asOwner(() => migratePg(db, { migrationsFolder }));
  } catch (error) {
    // The caller may try again (PostgreSQL still starting): leave no pool behind. Ending a pool
    // whose connections failed may fail as well; the migration's own failure is the one the
    // caller logs, and carries this one along.
    await pool.end().catch((endError: unknown) => {
      if (error && typeof error === 'object') Object.assign(error, { poolEndError: endError });
    });
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
