// `npm test`: everything, on a fresh clone. Installs dependencies and (as root) Debian's Chromium
// when missing, then runs the scripts' own tests, the licensing formats' tests, the server's API
// tests on PGlite (and on PostgreSQL when TEST_DATABASE_URL is set), the console's tests, and the
// browser tests against the whole stack: the browser suite first and alone, then the others two at a time
// (TEST_CONCURRENCY), each printed whole when it ends.
// Without Chromium every other suite still runs, and the run then fails saying how to install it. The last line,
// `N passed, N failed`, is what CI reads.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium, ensureConsoleBuilt, ensureDependencies, root } from './lib.mjs';
import { readReport } from './test-report.mjs';

ensureDependencies();
const chromiumMissing = ensureChromium();
ensureConsoleBuilt();

const reports = mkdtempSync(path.join(tmpdir(), 'opsdeck-reports-'));
// The browser suite's traces of failed tests, outside e2e/test-results: a Playwright run started
// beside this one empties that directory, under the feet of this run's workers.
const browserResults = mkdtempSync(path.join(tmpdir(), 'opsdeck-e2e-results-'));
const suites = [
  { name: 'scripts', workspace: '.', kind: 'node', env: {} },
  { name: 'licensing', workspace: 'packages/licensing', kind: 'vitest', env: {} },
  { name: 'rax', workspace: 'packages/rax', kind: 'vitest', env: {} },
  { name: 'agent', workspace: 'apps/agent', kind: 'vitest', env: {} },
  { name: 'server (PGlite)', workspace: 'apps/server', kind: 'vitest', env: { TEST_DB: 'pglite' } },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'server (PostgreSQL)', workspace: 'apps/server', kind: 'vitest', env: { TEST_DB: 'postgres' } }]
    : []),
  { name: 'console', workspace: 'apps/web', kind: 'vitest', env: {} },
  { name: 'browser (Chromium)', workspace: 'e2e', kind: 'playwright', env: {} },
];

// The browser suite runs first and alone: it spreads itself over the cores (its own workers and
// servers, e2e/playwright.config.ts), and keeps them busy; the suites beside it made every one of
// them slower, and the browser tests' waits ran out (a run of 52 minutes with 17 timeouts, where
// one after the other takes a third of that: docs/performance.md, "The test suite"). The others
// then run side by side, TEST_CONCURRENCY (2) at a time, the longest first.
// Each suite's output is kept and printed whole when it ends, so that suites never interleave.
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 2));
const results = new Array(suites.length);
const runStarted = Date.now();
const browser = suites.findIndex((suite) => suite.kind === 'playwright');
results[browser] = await runSuite(suites[browser], browser);
const order = [...suites.keys()]
  .filter((index) => index !== browser)
  .sort((a, b) => weightOf(suites[b]) - weightOf(suites[a]));
await Promise.all(
  Array.from({ length: Math.min(concurrency, order.length) }, async () => {
    for (let index = order.shift(); index !== undefined; index = order.shift()) {
      results[index] = await runSuite(suites[index], index);
    }
  }),
);

/**
 * Longest first, so that the two lanes end together: the server suites take minutes, the console's
 * a minute, the others seconds (docs/performance.md, "The test suite").
 */
function weightOf(suite) {
  if (suite.workspace === 'apps/server') return 3;
  return suite.workspace === 'apps/web' ? 2 : 1;
}

async function runSuite(suite, index) {
  const report = path.join(reports, `${index}.json`);
  if (suite.kind === 'playwright' && chromiumMissing) {
    console.log(`\n=== ${suite.name} ===\n${chromiumMissing}`);
    return { ...suite, code: 1, seconds: 0, passed: 0, failed: 1, skipped: 0, failures: [] };
  }
  const env = {
    ...process.env,
    ...suite.env,
    ...(suite.kind === 'playwright' ? { PLAYWRIGHT_JSON_OUTPUT_NAME: report } : {}),
  };
  const started = Date.now();
  console.log(`started  ${suite.name} (at ${elapsed(started)})`);
  const [command, ...args] = commandOf(suite.kind, report);
  const output = [];
  const code = await new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: path.join(root, suite.workspace),
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.once('error', (error) => {
      output.push(Buffer.from(`${error.stack ?? error}\n`));
      resolve(1);
    });
    child.once('close', (status) => resolve(status ?? 1));
  });
  const seconds = (Date.now() - started) / 1000;
  console.log(`\n=== ${suite.name} (${seconds.toFixed(0)} s, ended at ${elapsed(Date.now())}) ===`);
  process.stdout.write(Buffer.concat(output));
  return { ...suite, code, seconds, ...countTests(suite.kind, report) };
}

function elapsed(at) {
  const seconds = Math.round((at - runStarted) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
rmSync(reports, { recursive: true, force: true });
const browserFailed = results.some((result) => result.kind === 'playwright' && result.code !== 0);
if (!browserFailed) rmSync(browserResults, { recursive: true, force: true });

function commandOf(kind, report) {
  if (kind === 'vitest')
    return ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  if (kind === 'playwright') return ['npx', 'playwright', 'test', '--output', browserResults];
  // node:test, printed (spec) and counted from its TAP summary.
  return [
    process.execPath,
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${report}`,
    ...readdirSync(path.join(root, 'scripts'))
      .filter((name) => name.endsWith('.test.mjs'))
      .map((name) => path.join('scripts', name)),
  ];
}

function countTests(kind, report) {
  try {
    return readReport(kind, readFileSync(report, 'utf8'));
  } catch {
    return { passed: 0, failed: 1, skipped: 0, failures: ["(no report: see the suite's output above)"] };
  }
}

console.log(`\n=== summary (${elapsed(Date.now())}) ===`);
for (const result of results) {
  const verdict = result.code === 0 ? 'ok  ' : 'FAIL';
  console.log(
    `${verdict} ${result.name.padEnd(22)} ${result.passed} passed, ${result.failed} failed (${result.seconds.toFixed(0)} s)`,
  );
  for (const failure of result.failures) console.log(`       ✗ ${failure}`);
}
if (chromiumMissing) console.log(`\n${chromiumMissing}\n`);
else if (browserFailed) console.log(`\nTraces of the failed browser tests: ${browserResults}\n`);
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
const broken = results.filter((result) => result.code !== 0).length;
const skipped = results.reduce((sum, result) => sum + result.skipped, 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(broken > 0 || failed > 0 ? 1 : 0);
