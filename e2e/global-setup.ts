import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  const server = new TestServer(await freePort(Number(process.env.E2E_PORT ?? 8181) - 1), seeded);
  await server.start();
  // Stopped of itself (its database closed), or the copies could be torn: then each worker seeds its own.
  if (await server.stop(30_000)) process.env.E2E_SEEDED_DATA_DIR = seeded;

  return () => {
    for (const directory of made) rmSync(directory, { recursive: true, force: true });
  };
}
