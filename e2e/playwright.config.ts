import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const chromium = JSON.parse(readFileSync(path.join(import.meta.dirname, 'chromium.json'), 'utf8')) as {
  executablePath: string;
  args: string[];
};
const executablePath = process.env.CHROMIUM_PATH ?? chromium.executablePath;
// As root, Chromium raises its browser and GPU threads to nice -8, and on two cores the other
// suites of `npm test` beside it then wait (their heavier tests ran past their timeouts):
// chromium-fair.sh starts it without the capability to, when it can.
const fair = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');

// Each worker starts a server of its own (tests/fixtures.ts: port E2E_PORT + its index, its own data
// directory and embedded database, seeded with the demo) and runs its files one after another;
// E2E_WORKERS sets how many run at once.
const workers = Number(process.env.E2E_WORKERS ?? Math.max(2, Math.min(4, availableParallelism() + 1)));

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  // A hang guard, not a measure: the longest flows (a department's whole life, an activity's)
  // run past 30 s when the server suites' fault tests share the two cores with them.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    // Recorded on a failed test's retry only: a trace of every test (its screencast and DOM
    // snapshots) cost a third of the suite's CPU on two cores (docs/performance.md, "The test suite").
    trace: 'on-first-retry',
    launchOptions: fair
      ? {
          executablePath: path.join(import.meta.dirname, 'chromium-fair.sh'),
          args: chromium.args,
          env: { ...process.env, E2E_CHROMIUM: executablePath },
        }
      : { executablePath, args: chromium.args },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
