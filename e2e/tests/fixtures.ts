import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
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
 */
export const test = base.extend<object, { server: TestServer }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function asks for from its first parameter.
    async ({}, use, workerInfo) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), `opsdeck-e2e-${workerInfo.parallelIndex}-`));
      // A copy of the run's seeded data directory (global-setup.ts), else seeded at its first start.
      const seeded = process.env.E2E_SEEDED_DATA_DIR;
      if (seeded) cpSync(seeded, dataDir, { recursive: true });
      const server = new TestServer(await freePort(FIRST_PORT + workerInfo.parallelIndex), dataDir);
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
      }
    },
    // Opening a copy of the seeded database (or seeding one) on a machine busy with the other workers.
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
});
