// What `npm test` (scripts/test.mjs) reads from each suite's machine-readable report: how many
// tests passed, failed and were skipped, and the names of the failed ones with the first line of
// their error. The names go into the summary at the very end of the run, the part of a long CI
// log that is always kept, so a red run says what broke without the suite's whole output.

const MESSAGE_LENGTH = 200;

/**
 * @param {'node' | 'vitest' | 'playwright'} kind
 * @param {string} text the report: TAP for node:test, JSON for Vitest and Playwright
 * @returns {{ passed: number, failed: number, skipped: number, failures: string[] }}
 */
export function readReport(kind, text) {
  if (kind === 'node') return readTap(text);
  const data = JSON.parse(text);
  return kind === 'vitest' ? readVitest(data) : readPlaywright(data);
}

function readTap(tap) {
  const count = (name) => Number(tap.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? Number.NaN);
  const counts = { passed: count('pass'), failed: count('fail'), skipped: count('skipped') + count('todo') };
  if (Object.values(counts).some(Number.isNaN)) throw new Error('no TAP summary');
  // A failed subtest fails its parent too; the innermost line names the test itself. A test's
  // subtests are printed between its `# Subtest:` line and its own `not ok`, indented deeper.
  const lines = tap.split('\n');
  const failures = [];
  lines.forEach((line, index) => {
    const match = line.match(/^(\s*)not ok \d+ - (.*)$/);
    if (!match) return;
    const indent = match[1];
    let start = index - 1;
    while (start > 0 && !lines[start].startsWith(`${indent}# Subtest: `)) start -= 1;
    const failedSubtest = lines
      .slice(start, index)
      .some((earlier) => earlier.startsWith(`${indent} `) && /^\s*not ok /.test(earlier));
    if (!failedSubtest) failures.push(match[2]);
  });
  return { ...counts, failures };
}

function readVitest(data) {
  const failures = [];
  for (const file of data.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(describe(test.fullName, test.failureMessages?.[0]));
    // A file that fails before or around its tests (an import, a beforeAll) has no failed test.
    if (file.status === 'failed' && failedTests.length === 0) failures.push(describe(file.name, file.message));
  }
  return {
    passed: data.numPassedTests,
    failed: data.numFailedTests,
    skipped: data.numPendingTests ?? 0,
    failures,
  };
}

function readPlaywright(data) {
  const failures = [];
  const visit = (suite, titles) => {
    const path = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.findLast((result) => result.error)?.error?.message;
        failures.push(describe([...path, spec.title].join(' › '), error));
      }
    }
    for (const child of suite.suites ?? []) visit(child, path);
  };
  for (const suite of data.suites ?? []) visit(suite, []);
  const { stats } = data;
  return { passed: stats.expected, failed: stats.unexpected, skipped: stats.skipped, failures };
}

function describe(name, message) {
  const firstLine = String(message ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes in error messages
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
  if (!firstLine) return name;
  const short = firstLine.length > MESSAGE_LENGTH ? `${firstLine.slice(0, MESSAGE_LENGTH)}…` : firstLine;
  return `${name}: ${short}`;
}
