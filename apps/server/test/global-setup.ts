import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { openDatabase } from '../src/db/client';
import { PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV } from './database';

const migrationsFolder = path.join(import.meta.dirname, '../src/db/migrations');

/**
 * Migrates one database before the run, and every test file's database is a copy of it (test/database.ts):
 * applying the migrations took seconds per file, copying takes a fraction of one. On PGlite the
 * copy is a dump of its data directory (in a temporary file the workers load); on PostgreSQL
 * (TEST_DB=postgres) a template database, dropped when the run ends.
 */
export default async function setup() {
  const directory = await mkdtemp(path.join(tmpdir(), 'opsdeck-test-template-'));
  const client = new PGlite({ extensions: { pg_trgm } });
  await migrate(drizzle(client), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(directory, 'pglite.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = file;

  const url = process.env.TEST_DATABASE_URL;
  let template: string | undefined;
  if (process.env.TEST_DB === 'postgres' && url) {
    template = `opsdeck_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `create database ${template}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const database = await openDatabase({ kind: 'postgres', url: templateUrl.toString(), poolSize: 1 });
    await database.close();
    process.env[POSTGRES_TEMPLATE_ENV] = template;
  }

  return async () => {
    await rm(directory, { recursive: true, force: true });
    if (template && url) await adminQuery(url, `drop database if exists ${template} with (force)`);
  };
}

async function adminQuery(url: string, sql: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
