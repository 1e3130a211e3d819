import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A copy of the built console (apps/web/dist) for the run, which every worker's server serves
 * (WEB_DIST): a build made meanwhile beside the run (`npm start`, a benchmark) empties and refills
 * apps/web/dist, which would otherwise answer 404 to the pages and chunks of the tests running.
 */
export default function globalSetup() {
  const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) return;
  const copy = mkdtempSync(path.join(tmpdir(), 'opsdeck-e2e-console-'));
  cpSync(dist, copy, { recursive: true });
  process.env.E2E_WEB_DIST = copy;
  return () => rmSync(copy, { recursive: true, force: true });
}
