import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../src/db/client';

/**
 * A fresh, migrated database for one test file. TEST_DB=postgres uses a new database on
 * TEST_DATABASE_URL's server (dropped afterwards); anything else an in-memory PGlite.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB !== 'postgres') return openDatabase({ kind: 'pglite', dataDir: undefined });
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
  await admin.query(`create database ${name}`);
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
