import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// One server for the run, on its own port and a fresh embedded database seeded with the demo,
// so the browser drives the real stack (API, database, mail outbox), never a mocked API.
const port = Number(process.env.E2E_PORT ?? 8181);
if (!process.env.E2E_DATA_DIR) {
  // Made once, by the runner (its workers load this file again and inherit the variable), and
  // removed when the runner exits, passed or failed: only then has the web server been stopped,
  // which a global teardown would run before (40 MB of PGlite files a run otherwise stay behind).
  const dataDir = mkdtempSync(path.join(tmpdir(), 'opsdeck-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
const baseURL = `http://localhost:${port}`;
const chromium = JSON.parse(readFileSync(path.join(import.meta.dirname, 'chromium.json'), 'utf8')) as {
  executablePath: string;
  args: string[];
};

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? chromium.executablePath, args: chromium.args },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node --import tsx ../apps/server/src/main.ts',
    url: `${baseURL}/api/health`,
    timeout: 90_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_URL: baseURL,
      DEMO: '1',
      LOG_LEVEL: 'warn',
    },
  },
});
