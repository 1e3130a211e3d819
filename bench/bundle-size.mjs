// @ts-check
// The console's initial JavaScript, as a browser gets it: Chromium opens /login on a running
// server and every script response is counted at the size it crossed the wire (the server sends
// the build's precompressed files), and also at its gzip size. Then the same after signing in.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { root, startServer, waitFor } from './lib.mjs';

const port = Number(process.env.BENCH_PORT ?? 8284);
execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
const server = startServer({ port, env: { DEMO: '1', LOG_LEVEL: 'warn' } });
const launch = JSON.parse(readFileSync(path.join(root, 'e2e/chromium.json'), 'utf8'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? launch.executablePath,
  args: launch.args,
});

/**
 * @param {import('@playwright/test').Page} page
 * @param {() => Promise<unknown>} action
 * @returns {Promise<Map<string, { wire: number, encoding: string }>>}
 */
async function scriptsOf(page, action) {
  const sizes = new Map();
  /** @param {import('@playwright/test').Response} response */
  const onResponse = async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const url = new URL(response.url()).pathname;
    const wire = Number((await response.headerValue('content-length')) ?? 0);
    sizes.set(url, { wire, encoding: (await response.headerValue('content-encoding')) ?? 'identity' });
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return sizes;
}

/**
 * @param {string} label
 * @param {Map<string, { wire: number, encoding: string }>} sizes
 */
function report(label, sizes, aim = true) {
  let total = 0;
  for (const [url, { wire, encoding }] of sizes) {
    total += wire;
    console.log(`  ${url.padEnd(48)} ${(wire / 1024).toFixed(1).padStart(7)} kB ${encoding}`);
  }
  console.log(
    `${label}: ${(total / 1024).toFixed(1)} kB of JavaScript over the wire${aim ? ' (aim: at most 250 kB)' : ''}`,
  );
}

try {
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  const context = await browser.newContext({ extraHTTPHeaders: { 'accept-encoding': 'gzip' } });
  const page = await context.newPage();
  report('/login, gzip', await scriptsOf(page, () => page.goto(`http://localhost:${port}/login`)));
  const signedIn = await scriptsOf(page, async () => {
    await page.getByLabel('Email').fill('admin@opsdeck.test');
    await page.getByLabel('Password', { exact: true }).fill('opsdeck-demo');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/dashboard\//);
  });
  report('then signing in (added chunks), gzip', signedIn, false);
  const brotli = await browser.newContext();
  const page2 = await brotli.newPage();
  report('/login, brotli', await scriptsOf(page2, () => page2.goto(`http://localhost:${port}/login`)));
} finally {
  await browser.close();
  await server.stop();
}
