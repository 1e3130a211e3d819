// `npm run test:e2e:postgres [-- playwright arguments]`: the browser tests once more, with every
// worker's server on PostgreSQL rather than its embedded PGlite (e2e/tests/postgres.ts).
// E2E_DATABASE_URL names the server (else TEST_DATABASE_URL); its user must be allowed to create and
// drop databases: the run makes opsdeck_e2e_seed and opsdeck_e2e_w<n> there, and drops them after.
// Installs what `npm test` installs first (dependencies, Chromium as root, the console's build).
// The last line is `N passed, N failed` as `npm test` prints it; with `--add-summary FILE`, the counts of
// the last such line of FILE (`npm test`'s output, in CI: .ci/run) are added to this run's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium, ensureConsoleBuilt, ensureDependencies, root } from './lib.mjs';

const args = process.argv.slice(2);
const addIndex = args.indexOf('--add-summary');
const addSummary = addIndex >= 0 ? args.splice(addIndex, 2)[1] : undefined;

const url = process.env.E2E_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!url) {
  console.error(
    'Set E2E_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server whose user may create databases, ' +
      'e.g. E2E_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:e2e:postgres',
  );
  process.exit(2);
}

ensureDependencies();
const chromiumMissing = ensureChromium();
ensureConsoleBuilt();

const counts = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();
if (chromiumMissing) {
  console.log(chromiumMissing);
  counts.failed = 1;
} else {
  const reports = mkdtempSync(path.join(tmpdir(), 'opsdeck-e2e-postgres-'));
  const report = path.join(reports, 'report.json');
  const result = spawnSync('npx', ['playwright', 'test', ...args], {
    cwd: path.join(root, 'e2e'),
    stdio: 'inherit',
    env: { ...process.env, E2E_DATABASE_URL: url, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  try {
    const { stats } = JSON.parse(readFileSync(report, 'utf8'));
    // A flaky test passed on its retry (CI retries once: e2e/playwright.config.ts).
    Object.assign(counts, {
      passed: stats.expected + stats.flaky,
      failed: stats.unexpected,
      skipped: stats.skipped,
    });
  } catch {
    counts.failed = 1;
  }
  if (result.status !== 0 && counts.failed === 0) counts.failed = 1;
  rmSync(reports, { recursive: true, force: true });
}
const seconds = Math.round((Date.now() - started) / 1000);
console.log(
  `\nbrowser (Chromium, PostgreSQL): ${counts.passed} passed, ${counts.failed} failed (${seconds} s, ${new URL(url).host})`,
);

if (addSummary) {
  const lines = readFileSync(addSummary, 'utf8').split('\n');
  const last = lines.reverse().find((line) => /^\d+ passed, \d+ failed/.test(line));
  const [, passed, failed, skipped] = last?.match(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/) ?? [];
  if (passed === undefined) counts.failed += 1;
  counts.passed += Number(passed ?? 0);
  counts.failed += Number(failed ?? 0);
  counts.skipped += Number(skipped ?? 0);
}
console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
process.exit(counts.failed > 0 ? 1 : 0);
