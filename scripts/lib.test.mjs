// The scripts' own rules, run by `npm test` (the "scripts" suite): when the console is rebuilt,
// and what happens without Chromium.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { CONSOLE_INPUTS, CONSOLE_STAMP, chromiumPlan, consoleBuildIsStale, hashInputs } from './lib.mjs';

/** A miniature clone: one file in each place the console is built from, plus a build. */
function fixture() {
  const base = mkdtempSync(path.join(tmpdir(), 'opsdeck-scripts-test-'));
  const files = {
    'package.json': '{"workspaces":[]}',
    'package-lock.json': '{"lockfileVersion":3}',
    'tsconfig.base.json': '{}',
    'apps/web/package.json': '{}',
    'apps/web/index.html': '<div id="root"></div>',
    'apps/web/vite.config.ts': 'export default {};',
    'apps/web/tsconfig.json': '{}',
    'apps/web/public/favicon.svg': '<svg/>',
    'apps/web/src/main.tsx': 'export {};',
    'packages/contract/package.json': '{}',
    'packages/contract/src/id.ts': 'export {};',
    'apps/web/dist/index.html': '<html></html>',
    'apps/web/node_modules/x/index.js': '',
  };
  for (const [file, content] of Object.entries(files)) write(base, file, content);
  return base;
}

function write(base, file, content) {
  mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
  writeFileSync(path.join(base, file), content);
}

/** What `ensureConsoleBuilt` records after a successful build. */
function stamp(base) {
  writeFileSync(path.join(base, CONSOLE_STAMP), `${hashInputs(base, CONSOLE_INPUTS)}\n`);
}

const made = [];
after(() => {
  for (const base of made) rmSync(base, { recursive: true, force: true });
});

describe('the console build', () => {
  test('is stale without a build or without the record of its inputs, fresh right after one', () => {
    const base = fixture();
    made.push(base);
    assert.equal(consoleBuildIsStale(base), true);
    stamp(base);
    assert.equal(consoleBuildIsStale(base), false);
    rmSync(path.join(base, 'apps/web/dist/index.html'));
    assert.equal(consoleBuildIsStale(base), true);
  });

  for (const [what, file] of [
    ['the lockfile (an upgrade)', 'package-lock.json'],
    ['a public file', 'apps/web/public/favicon.svg'],
    ['a new public file', 'apps/web/public/robots.txt'],
    ['the TypeScript base configuration', 'tsconfig.base.json'],
    ["the console's TypeScript configuration", 'apps/web/tsconfig.json'],
    ['a source', 'apps/web/src/main.tsx'],
    ['the contract', 'packages/contract/src/id.ts'],
    ['the Vite configuration', 'apps/web/vite.config.ts'],
  ]) {
    test(`is rebuilt after a change to ${what}`, () => {
      const base = fixture();
      made.push(base);
      stamp(base);
      write(base, file, 'changed');
      assert.equal(consoleBuildIsStale(base), true);
    });
  }

  test('is rebuilt after a change even when the changed file is older than the build (git checkout)', () => {
    const base = fixture();
    made.push(base);
    stamp(base);
    write(base, 'apps/web/src/main.tsx', 'export const changed = true;');
    const longAgo = new Date('2001-01-01');
    utimesSync(path.join(base, 'apps/web/src/main.tsx'), longAgo, longAgo);
    assert.equal(consoleBuildIsStale(base), true);
  });

  test('is not rebuilt for what the build does not read: installed packages, its own output, times', () => {
    const base = fixture();
    made.push(base);
    stamp(base);
    write(base, 'apps/web/node_modules/x/index.js', 'changed');
    write(base, 'apps/web/dist/assets/index.js', 'changed');
    const now = new Date();
    utimesSync(path.join(base, 'apps/web/src/main.tsx'), now, now);
    assert.equal(consoleBuildIsStale(base), false);
  });
});

describe('Chromium for the browser tests', () => {
  const none = () => false;
  test('is ready when installed, or when CHROMIUM_PATH names a binary that exists', () => {
    assert.equal(chromiumPlan({ env: {}, exists: () => true, uid: 1000 }), 'ready');
    assert.equal(
      chromiumPlan({ env: { CHROMIUM_PATH: '/opt/chrome' }, exists: (p) => p === '/opt/chrome', uid: 1000 }),
      'ready',
    );
  });
  test('is installed from Debian by root', () => {
    assert.equal(chromiumPlan({ env: {}, exists: none, uid: 0 }), 'install');
  });
  test('is reported missing to anyone else, and to a CHROMIUM_PATH that does not exist', () => {
    assert.equal(chromiumPlan({ env: {}, exists: none, uid: 1000 }), 'missing');
    assert.equal(chromiumPlan({ env: { CHROMIUM_PATH: '/nowhere' }, exists: none, uid: 0 }), 'missing');
  });
});
