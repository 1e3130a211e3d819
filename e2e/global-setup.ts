import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropDatabase, E2E_DATABASE_URL, freshDatabase, SEED_DATABASE, SEEDED_DATABASE_ENV } from './tests/postgres';
import { freePort, TestServer } from './tests/server';

/**
 * Before the workers start:
 *
 * - A copy of the built console (apps/web/dist) for the run, which every worker's server serves
 *   (WEB_DIST): a build made meanwhile beside the run (`npm start`, a benchmark) empties and
 *   refills apps/web/dist, which would otherwise answer 404 to the pages and chunks of the tests.
 * - One data directory with the demo seeded (a server started once with DEMO=1 and stopped),
 *   which each worker's server starts from a copy of (tests/fixtures.ts): the migrations and the
 *   demo seed run once, not once per worker (and once more per worker restarted after a failure).
 *   On PostgreSQL (E2E_DATABASE_URL: tests/postgres.ts), the database SEED_DATABASE seeded with
 *   the demo (seed-postgres.ts) and the data directory that keeps its licence signing key: each
 *   worker's server starts on a copy of both.
 */
export default async function globalSetup() {
  const made: string[] = [];
  const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
  if (existsSync(path.join(dist, 'index.html'))) {
    const copy = mkdtempSync(path.join(tmpdir(), 'opsdeck-e2e-console-'));
    made.push(copy);
    cpSync(dist, copy, { recursive: true });
    process.env.E2E_WEB_DIST = copy;
  }

  const seeded = mkdtempSync(path.join(tmpdir(), 'opsdeck-e2e-seeded-'));
  made.push(seeded);
  if (E2E_DATABASE_URL) {
    const url = await freshDatabase(SEED_DATABASE);
    const seeding = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'seed-postgres.ts')],
      {
        cwd: import.meta.dirname,
        env: { ...process.env, DATABASE_URL: url, DATA_DIR: seeded, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      },
    );
    if (seeding.status !== 0)
      throw new Error(`seeding the demo in ${url} failed (${seeding.status ?? seeding.signal}):\n${seeding.stderr}`);
    process.env.E2E_SEEDED_DATA_DIR = seeded;
    process.env[SEEDED_DATABASE_ENV] = SEED_DATABASE;
    return async () => {
      for (const directory of made) rmSync(directory, { recursive: true, force: true });
      await dropDatabase(SEED_DATABASE);
    };
  }
  const server = new TestServer(await freePort(Number(process.env.E2E_PORT ?? 8181) - 1), seeded);
  await server.start();
  // Stopped of itself (its database closed), or the copies could be torn: then each worker seeds its own.
  if (await server.stop(30_000)) process.env.E2E_SEEDED_DATA_DIR = seeded;

  return () => {
    for (const directory of made) rmSync(directory, { recursive: true, force: true });
  };
}
