// @ts-check
// The console's initial JavaScript, as a browser gets it: Chromium opens /login on a running
// server and every script response is counted at the size it crossed the wire (the server sends
// the build's precompressed files), and also at its gzip size. Then the same after signing in.
//
// Then the page after it: the time from clicking Login to the landing page's heading, in a fresh
// browser each round (nothing cached), on the loopback and on a slow network (1.6 Mbit/s down,
// 750 kbit/s up, 150 ms round trips). "typed" waits for the network to settle after the fields are
// filled, as the seconds a person takes to type allow; "at once" clicks as soon as they are filled.
// BENCH_ROUNDS (5) rounds each, the median reported, with the part after the profile's answer
// (the server's password check, slow and noisy on a busy machine, comes before it; the chunks the
// page needs are fetched after it, unless fetched ahead). Also the time from opening /login to the
// e-mail field being shown.
//
// BENCH_WEB_DIST serves another build (a copy of an older one, to compare) instead of building
// this one; BENCH_DATA_DIR keeps the server's data there (seeded once, started again in seconds).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { root, startServer, waitFor } from './lib.mjs';

const port = Number(process.env.BENCH_PORT ?? 8284);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const webDist = process.env.BENCH_WEB_DIST;
const dataDir = process.env.BENCH_DATA_DIR;
if (!webDist) execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
if (dataDir) mkdirSync(dataDir, { recursive: true });
const server = startServer({
  port,
  dataDir,
  env: { DEMO: '1', LOG_LEVEL: 'warn', ...(webDist ? { WEB_DIST: path.resolve(webDist) } : {}) },
});
const launch = JSON.parse(readFileSync(path.join(root, 'e2e/chromium.json'), 'utf8'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? launch.executablePath,
  args: launch.args,
});
const base = `http://localhost:${port}`;
const SLOW_NETWORK = { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 93_750 };

/**
 * Runs `action`, then waits until the page has had no request in flight for half a second:
 * Playwright's 'networkidle' answers at once once a page has reached it, so it cannot see the
 * requests of a later keystroke.
 * @param {import('@playwright/test').Page} page
 * @param {() => Promise<unknown>} action
 */
async function settled(page, action) {
  let inFlight = 0;
  let quietSince = performance.now();
  const started = () => {
    inFlight += 1;
  };
  const ended = () => {
    inFlight -= 1;
    if (inFlight === 0) quietSince = performance.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await action();
    quietSince = performance.now();
    while (inFlight > 0 || performance.now() - quietSince < 500) await page.waitForTimeout(50);
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

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
  await settled(page, action);
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
    `${label}: ${(total / 1024).toFixed(1)} kB of JavaScript over the wire${aim ? ' (aim: at most 180 kB gzip)' : ''}`,
  );
}

/** @param {import('@playwright/test').Page} page */
async function fillCredentials(page) {
  await page.getByLabel('Email').fill('admin@opsdeck.test');
  await page.getByLabel('Password', { exact: true }).fill('opsdeck-demo');
}

/**
 * One round in a fresh browser context: milliseconds from opening /login to the e-mail field, and
 * from clicking Login to the landing page's heading (the admin lands on the agent report).
 * @param {{ slow: boolean, typed: boolean }} how
 */
async function signInRound({ slow, typed }) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (slow) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
    }
    const opened = performance.now();
    let loginShown = 0;
    await settled(page, async () => {
      await page.goto(`${base}/login`);
      await page.getByLabel('Email').waitFor();
      loginShown = performance.now() - opened;
    });
    if (typed) await settled(page, () => fillCredentials(page));
    else await fillCredentials(page);
    const clicked = performance.now();
    const profile = page
      .waitForResponse((response) => new URL(response.url()).pathname === '/api/user/profile/current-user')
      .then(() => performance.now());
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: 'Agent Report' }).waitFor();
    const landed = performance.now();
    return { loginShown, toLanding: landed - clicked, afterProfile: landed - (await profile) };
  } finally {
    await context.close();
  }
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  await waitFor(`http://127.0.0.1:${port}/api/health`, 600_000);
  const context = await browser.newContext({ extraHTTPHeaders: { 'accept-encoding': 'gzip' } });
  const page = await context.newPage();
  report('/login, gzip', await scriptsOf(page, () => page.goto(`${base}/login`)));
  const typed = await scriptsOf(page, () => fillCredentials(page));
  report('then typing the credentials (the shell fetched ahead), gzip', typed, false);
  const signedIn = await scriptsOf(page, async () => {
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/dashboard\//);
  });
  report('then signing in (added chunks), gzip', signedIn, false);
  const brotli = await browser.newContext();
  const page2 = await brotli.newPage();
  report('/login, brotli', await scriptsOf(page2, () => page2.goto(`${base}/login`)));

  // A round first that nobody counts: the server's first sign-in warms its caches.
  await signInRound({ slow: false, typed: true });
  for (const slow of [false, true]) {
    for (const typedFirst of [true, false]) {
      const results = [];
      for (let round = 0; round < rounds; round += 1) results.push(await signInRound({ slow, typed: typedFirst }));
      const network = slow ? 'slow network' : 'loopback';
      console.log(
        `${network}, ${typedFirst ? 'typed  ' : 'at once'}: login shown ${median(results.map((r) => r.loginShown)).toFixed(0)} ms,` +
          ` Login to the landing page ${median(results.map((r) => r.toLanding)).toFixed(0)} ms,` +
          ` of which after the profile arrived ${median(results.map((r) => r.afterProfile)).toFixed(0)} ms` +
          ` (median of ${rounds}; ${results.map((r) => r.afterProfile.toFixed(0)).join(', ')})`,
      );
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
