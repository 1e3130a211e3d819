import pg from 'pg';

/**
 * The browser tests on PostgreSQL (`npm run test:e2e:postgres`, and CI after `npm test`): with
 * E2E_DATABASE_URL set (a server where its user may create and drop databases), every server of
 * the run has a database of its own there instead of its embedded PGlite. global-setup.ts seeds
 * one with the demo (SEED_DATABASE), and each worker's server (tests/fixtures.ts) starts on a
 * fresh copy of it, `opsdeck_e2e_w<its parallel index>`, dropped and made again at its start.
 */
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL || undefined;

/** The database global-setup.ts seeds with the demo, which the workers' databases are copies of. */
export const SEED_DATABASE = 'opsdeck_e2e_seed';
/** Set by global-setup.ts once SEED_DATABASE holds the demo and nobody is connected to it. */
export const SEEDED_DATABASE_ENV = 'E2E_SEEDED_DATABASE';

export const workerDatabase = (parallelIndex: number) => `opsdeck_e2e_w${parallelIndex}`;

/** E2E_DATABASE_URL with another database. */
export function databaseUrl(name: string): string {
  if (!E2E_DATABASE_URL) throw new Error('E2E_DATABASE_URL is not set');
  const url = new URL(E2E_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Drops `name` (ending its sessions: a worker killed before its teardown leaves its server's) and
 * creates it again, empty or as a copy of `template`. Returns its URL.
 */
export async function freshDatabase(name: string, template?: string): Promise<string> {
  await onServer(async (client) => {
    await client.query(`drop database if exists ${quoted(name)} with (force)`);
    await client.query(`create database ${quoted(name)}${template ? ` template ${quoted(template)}` : ''}`);
  });
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await onServer((client) => client.query(`drop database if exists ${quoted(name)} with (force)`));
}
