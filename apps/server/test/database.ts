import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { prepareData } from '../src/boot';
import { type Config, loadConfig } from '../src/config';
import { type Database, openDatabase } from '../src/db/client';

/** The migrated PGlite data directory (a tar file) test/global-setup.ts made for the run. */
export const PGLITE_TEMPLATE_ENV = 'OPSDECK_TEST_PGLITE_TEMPLATE';
/** The migrated template database test/global-setup.ts made on TEST_DATABASE_URL's server. */
export const POSTGRES_TEMPLATE_ENV = 'OPSDECK_TEST_POSTGRES_TEMPLATE';

/**
 * A fresh, migrated database for one test file. TEST_DB=postgres uses a new database on
 * TEST_DATABASE_URL's server (dropped afterwards); anything else an in-memory PGlite. Both are
 * copies of the run's migrated template when there is one (migrating each would take seconds);
 * the migrations then find nothing left to apply.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB !== 'postgres') {
    const template = process.env[PGLITE_TEMPLATE_ENV];
    const loadDataDir = template ? new Blob([await readFile(template)]) : undefined;
    return openDatabase({ kind: 'pglite', dataDir: undefined, ...(loadDataDir ? { loadDataDir } : {}) });
  }
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return openPostgresTestDatabase(url);
}

/**
 * A new database on a PostgreSQL server, dropped on close: for a test that needs several
 * processes on one database (PGlite is one process's), whichever TEST_DB runs.
 */
export async function openPostgresTestDatabase(
  url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
): Promise<Database & { url: string }> {
  const name = `opsdeck_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // The template is on TEST_DATABASE_URL's server only.
  const template = url === process.env.TEST_DATABASE_URL ? process.env[POSTGRES_TEMPLATE_ENV] : undefined;
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();

  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: testUrl.toString(), poolSize: 4 });
  return {
    ...database,
    url: testUrl.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * Whether this run of the server suite is the one for the tests that bring their own processes
 * and databases (child servers on their own PGlite, a private PostgreSQL cluster). `npm test` runs
 * the suite once per database; those tests do not use the suite's database, so a second run would
 * only repeat them beside the browser suite. The PGlite run, which always runs, takes them.
 */
export const RUNS_OWN_PROCESS_TESTS = process.env.TEST_DB !== 'postgres';

/**
 * A database readied as the server readies it at start (migrations, the provider admin), with a
 * data directory of its own, for a test that drives services or queries without the HTTP app.
 * `open` is `openTestDatabase` (the run's TEST_DB) or `openPostgresTestDatabase` (a test that
 * needs PostgreSQL's several connections whichever TEST_DB runs). `close()` removes both.
 */
export async function openPreparedDatabase<D extends Database>(
  open: () => Promise<D>,
): Promise<{ database: D; config: Config; close: () => Promise<void> }> {
  const database = await open();
  const config = loadConfig({ DATA_DIR: await mkdtemp(path.join(tmpdir(), 'opsdeck-test-')), DEMO: '0' });
  await prepareData(database, config);
  return {
    database,
    config,
    close: async () => {
      await database.close();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}
