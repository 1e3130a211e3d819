// What the summary of `npm test` says of a red suite: the failed tests by name, so that the end
// of a long CI log names what broke.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readReport } from './test-report.mjs';

describe('readReport', () => {
  test('names the failed node:test tests, innermost first, from a real TAP report', () => {
    const base = mkdtempSync(path.join(tmpdir(), 'opsdeck-tap-'));
    try {
      const file = path.join(base, 'sample.test.mjs');
      writeFileSync(
        file,
        [
          "import { describe, test } from 'node:test';",
          "describe('group', () => { test('passes', () => {}); test('fails inside', () => { throw new Error('x'); }); });",
          "test('fails alone', () => { throw new Error('y'); });",
          "test.skip('skipped', () => {});",
        ].join('\n'),
      );
      // Without the parent run's NODE_TEST_CONTEXT, which would make the child report to it instead.
      const { NODE_TEST_CONTEXT: _, ...env } = process.env;
      const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], { encoding: 'utf8', env });
      const report = readReport('node', run.stdout);
      assert.deepEqual(report, { passed: 1, failed: 2, skipped: 1, failures: ['fails inside', 'fails alone'] });
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test('names the failed Vitest tests with the first line of their error, and a file that failed on its own', () => {
    const report = readReport(
      'vitest',
      JSON.stringify({
        numPassedTests: 3,
        numFailedTests: 1,
        numPendingTests: 2,
        testResults: [
          {
            name: '/repo/apps/server/src/a.test.ts',
            status: 'failed',
            assertionResults: [
              { fullName: 'users archives a user', status: 'passed', failureMessages: [] },
              {
                fullName: 'users refuses another company',
                status: 'failed',
                failureMessages: ['\u001b[31mAssertionError: expected 200 to be 403\u001b[39m\n    at a.test.ts:10'],
              },
            ],
          },
          {
            name: '/repo/apps/server/src/b.test.ts',
            status: 'failed',
            message: 'Hook timed out in 10000ms.\nmore',
            assertionResults: [],
          },
          { name: '/repo/apps/server/src/c.test.ts', status: 'passed', assertionResults: [] },
        ],
      }),
    );
    assert.deepEqual(report, {
      passed: 3,
      failed: 1,
      skipped: 2,
      failures: [
        'users refuses another company: AssertionError: expected 200 to be 403',
        '/repo/apps/server/src/b.test.ts: Hook timed out in 10000ms.',
      ],
    });
  });

  test('names the failed Playwright tests by file, describe and title, and leaves out the flaky ones', () => {
    const report = readReport(
      'playwright',
      JSON.stringify({
        stats: { expected: 5, unexpected: 1, flaky: 1, skipped: 0 },
        suites: [
          {
            title: 'users.spec.ts',
            specs: [],
            suites: [
              {
                title: 'Users',
                specs: [
                  {
                    title: 'archives a user',
                    tests: [
                      {
                        status: 'unexpected',
                        results: [
                          { error: { message: 'first try' } },
                          { error: { message: 'Timed out 5000ms\nCall log' } },
                        ],
                      },
                    ],
                  },
                  { title: 'came back', tests: [{ status: 'flaky', results: [{ error: { message: 'once' } }, {}] }] },
                ],
              },
            ],
          },
        ],
      }),
    );
    assert.deepEqual(report, {
      passed: 5,
      failed: 1,
      skipped: 0,
      failures: ['users.spec.ts › Users › archives a user: Timed out 5000ms'],
    });
  });

  test('cuts a long error line', () => {
    const long = 'x'.repeat(500);
    const { failures } = readReport(
      'vitest',
      JSON.stringify({
        numPassedTests: 0,
        numFailedTests: 1,
        testResults: [
          { status: 'failed', assertionResults: [{ fullName: 't', status: 'failed', failureMessages: [long] }] },
        ],
      }),
    );
    assert.equal(failures[0], `t: ${'x'.repeat(200)}…`);
  });
});
