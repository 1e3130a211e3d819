import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_AGENT_SECRET } from '@opsdeck/contract/live';
import { test as base } from '@playwright/test';
import { dropDatabase, E2E_DATABASE_URL, freshDatabase, SEEDED_DATABASE_ENV, workerDatabase } from './postgres';
import { freePort, TestServer } from './server';

export { expect } from '@playwright/test';

/** First port of the workers' servers: worker n (its parallel index) listens on E2E_PORT + n. */
const FIRST_PORT = Number(process.env.E2E_PORT ?? 8181);

/**
 * Playwright's `test` with a server of its own for each worker: every worker starts the whole
 * server (`node --import tsx apps/server/src/main.ts`, DEMO=1) on its own port and a data
 * directory of its own (its own embedded database with the demo: a copy of the one global-setup.ts
 * seeded for the run), and its tests' `baseURL` (pages, `request`, `browser.newContext()`) is
 * that server. So tests in parallel workers never see each
 * other's changes to the demo's data; the tests of one worker run one after another, as they did
 * on the single server of before. A test gets the server as `server` (its `url`, its `dataDir`
 * with the mail outbox, and `stop()` and `start()` for a test of a restart).
 *
 * With E2E_DATABASE_URL (tests/postgres.ts), the worker's server runs on PostgreSQL instead: on
 * `opsdeck_e2e_w<its parallel index>`, dropped and made again as a copy of the run's seeded
 * database, dropped again at the end; and, as a real installation on PostgreSQL has no demo
 * default for it, with the demo's agent secret (AGENT_SECRET) set.
 */
export const test = base.extend<object, { server: TestServer }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function asks for from its first parameter.
    async ({}, use, workerInfo) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), `opsdeck-e2e-${workerInfo.parallelIndex}-`));
      // A copy of the run's seeded data directory (global-setup.ts), else seeded at its first start.
      const seeded = process.env.E2E_SEEDED_DATA_DIR;
      if (seeded) cpSync(seeded, dataDir, { recursive: true });
      const database = E2E_DATABASE_URL ? workerDatabase(workerInfo.parallelIndex) : undefined;
      const template = process.env[SEEDED_DATABASE_ENV];
      if (database && !template) throw new Error('E2E_DATABASE_URL is set, but global-setup.ts seeded no database');
      const env: Record<string, string> = database
        ? { DATABASE_URL: await freshDatabase(database, template), AGENT_SECRET: DEMO_AGENT_SECRET }
        : {};
      const server = new TestServer(await freePort(FIRST_PORT + workerInfo.parallelIndex), dataDir, env);
      // A worker that exits without its teardown (killed on a timeout) takes its server with it.
      const kill = () => server.kill();
      process.once('exit', kill);
      try {
        await server.start();
        await use(server);
      } finally {
        await server.stop();
        process.off('exit', kill);
        rmSync(dataDir, { recursive: true, force: true });
        if (database) await dropDatabase(database);
      }
    },
    // Opening a copy of the seeded database (or seeding one) on a machine busy with the other workers.
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
});
