// `npm test`: everything, on a fresh clone. Installs dependencies and (as root) Debian's Chromium
// when missing, then runs the scripts' own tests, the licensing formats' tests, the server's API
// tests on PGlite (and on PostgreSQL when TEST_DATABASE_URL is set), the console's tests, and the
// browser tests against the whole stack. Without Chromium every other suite still runs, and the run then fails saying
// how to install it. The last line, `N passed, N failed`, is what CI reads.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium, ensureConsoleBuilt, ensureDependencies, root } from './lib.mjs';

ensureDependencies();
const chromiumMissing = ensureChromium();
ensureConsoleBuilt();

const reports = mkdtempSync(path.join(tmpdir(), 'opsdeck-reports-'));
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

const results = [];
for (const [index, suite] of suites.entries()) {
  const report = path.join(reports, `${index}.json`);
  console.log(`\n=== ${suite.name} ===`);
  if (suite.kind === 'playwright' && chromiumMissing) {
    console.log(chromiumMissing);
    results.push({ ...suite, code: 1, seconds: 0, passed: 0, failed: 1, skipped: 0 });
    continue;
  }
  const env = {
    ...process.env,
    ...suite.env,
    ...(suite.kind === 'playwright' ? { PLAYWRIGHT_JSON_OUTPUT_NAME: report } : {}),
  };
  const started = Date.now();
  const [command, ...args] = commandOf(suite.kind, report);
  const run = spawnSync(command, args, { cwd: path.join(root, suite.workspace), stdio: 'inherit', env });
  results.push({
    ...suite,
    code: run.status ?? 1,
    seconds: (Date.now() - started) / 1000,
    ...countTests(suite.kind, report),
  });
}
rmSync(reports, { recursive: true, force: true });

function commandOf(kind, report) {
  if (kind === 'vitest')
    return ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  if (kind === 'playwright') return ['npx', 'playwright', 'test'];
  // node:test, printed as it runs and counted from its TAP summary.
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
    if (kind === 'node') {
      const tap = readFileSync(report, 'utf8');
      const count = (name) => Number(tap.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? Number.NaN);
      const counts = { passed: count('pass'), failed: count('fail'), skipped: count('skipped') + count('todo') };
      if (Object.values(counts).some(Number.isNaN)) throw new Error('no TAP summary');
      return counts;
    }
    const data = JSON.parse(readFileSync(report, 'utf8'));
    if (kind === 'vitest')
      return { passed: data.numPassedTests, failed: data.numFailedTests, skipped: data.numPendingTests ?? 0 };
    const stats = data.stats;
    return { passed: stats.expected, failed: stats.unexpected, skipped: stats.skipped };
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

console.log('\n=== summary ===');
for (const result of results) {
  const verdict = result.code === 0 ? 'ok  ' : 'FAIL';
  console.log(
    `${verdict} ${result.name.padEnd(22)} ${result.passed} passed, ${result.failed} failed (${result.seconds.toFixed(0)} s)`,
  );
}
if (chromiumMissing) console.log(`\n${chromiumMissing}\n`);
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
const broken = results.filter((result) => result.code !== 0).length;
const skipped = results.reduce((sum, result) => sum + result.skipped, 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(broken > 0 || failed > 0 ? 1 : 0);
