// @ts-check
// The monitor dashboard in the browser with all sixteen widgets, on a database seeded by
// bench/seed-activity.ts (1,000 people × 30 days on PostgreSQL): starts the server on it with the
// built console (run `npm run build -w apps/web` first), signs in as the company's head
// (head@monitor.bench.test), makes all sixteen widgets visible in their layout, and opens
// /dashboard/report/monitor for the last `--days` days (30) in Chromium (the browser's zone
// `--tz`, Europe/Berlin) `--runs` times (5), each in a fresh browser context (no cache: the first
// visit of a user), then again in the same context (warm: the console's files cached). A run's
// time is from the navigation's start until every card shows its data
// (or its empty message) and no chart is still loading: the page complete, as a person sees it.
// `--user <id>` filters the page by that person (the `user` filter of the page's address).
// `--trace 1` prints every request of each visit: when it left and when its answer was in.
// Prints each run, the median and the slowest; the aim (issue 17) is at most 1.5 s.
//
//   node bench/monitor-page.mjs --database-url postgres://postgres@127.0.0.1:5432/monitor_bench
//   node bench/monitor-page.mjs --data-dir /tmp/opsdeck-monitor
//
// A card that shows an error, or a page not complete within 30 s, fails the run (exit code 1).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { loadAverage, percentile, root, signedInHeaders, startServer, waitFor } from './lib.mjs';
import { AGENT_SECRET, options, serverNodeArgs } from './live-lib.mjs';

const args = options({
  databaseUrl: '',
  dataDir: '',
  runs: 5,
  days: 30,
  tz: 'Europe/Berlin',
  user: 0,
  port: 8395,
  trace: 0,
});
if (!args.databaseUrl === !args.dataDir)
  throw new Error('name the seeded database: --database-url URL or --data-dir DIR');
if (!existsSync(path.join(root, 'apps/web/dist/index.html')))
  throw new Error('the console is not built: npm run build -w apps/web');
const HEAD = { email: 'head@monitor.bench.test', password: 'bench-password' };
const base = `http://127.0.0.1:${args.port}`;

const server = startServer({
  port: args.port,
  ...(args.dataDir ? { dataDir: String(args.dataDir) } : {}),
  env: {
    ...(args.databaseUrl ? { DATABASE_URL: String(args.databaseUrl) } : {}),
    DEMO: '0',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: 'bench-admin',
    AGENT_SECRET,
  },
  nodeArgs: serverNodeArgs(),
});
const launch = JSON.parse(readFileSync(path.join(root, 'e2e/chromium.json'), 'utf8'));
const browser = await chromium.launch({ executablePath: launch.executablePath, args: launch.args });
let failed = false;
try {
  await waitFor(`${base}/api/health`);
  const headers = await signedInHeaders(args.port, HEAD);
  const call = async (/** @type {string} */ url, /** @type {RequestInit} */ init = {}) => {
    const response = await fetch(`${base}/api${url}`, { ...init, headers });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const me = await call('/user/profile/current-user');
  const catalogue = /** @type {{ widgetKey: string }[]} */ (await call('/widget'));
  await call(`/user/updateVisibleWidgets/${me.id}`, {
    method: 'POST',
    body: JSON.stringify({
      currentVisibleWidgets: catalogue.map((widget, i) => ({
        widgetKey: widget.widgetKey,
        widgetOrder: i + 1,
        widgetColumnNumber: (i % 2) + 1,
      })),
    }),
  });

  // The range's days in the browser's zone: the page's own dateFrom/dateTo (any millisecond of a day names it).
  const now = Date.now();
  const dateFrom = now - (args.days - 1) * 86_400_000;
  const person = args.user ? `&user=${args.user}` : '';
  const url = `${base}/dashboard/report/monitor?dateFrom=${dateFrom}&dateTo=${now}${person}`;
  console.log(
    `Monitor page, ${catalogue.length} widgets, ${args.days} days, ${args.user ? `person ${args.user}` : 'the whole company'}, ${args.databaseUrl ? 'PostgreSQL' : 'PGlite'}; load average ${loadAverage()}`,
  );
  /**
   * Opens the page and answers the milliseconds from the navigation's start until it is complete:
   * sixteen bodies with data or their empty message, and nothing still loading inside them.
   * @param {import('@playwright/test').Page} page
   */
  const visit = async (page) => {
    const started = performance.now();
    /** @type {Map<import('@playwright/test').Request, [number, number]>} */
    const requests = new Map();
    const onRequest = (/** @type {import('@playwright/test').Request} */ request) =>
      requests.set(request, [performance.now() - started, Number.NaN]);
    const onDone = (/** @type {import('@playwright/test').Request} */ request) => {
      const times = requests.get(request);
      if (times) times[1] = performance.now() - started;
    };
    if (args.trace) {
      page.on('request', onRequest);
      page.on('requestfinished', onDone);
    }
    await page.goto(url);
    await page.waitForFunction(
      (count) => {
        const bodies = [...document.querySelectorAll('[data-widget-state]')];
        if (bodies.some((body) => body.getAttribute('data-widget-state') === 'error')) return 'error';
        const done = bodies.filter((body) => ['data', 'empty'].includes(body.getAttribute('data-widget-state') ?? ''));
        return done.length === count && !document.querySelector('[data-widget] [aria-busy="true"]');
      },
      catalogue.length,
      { timeout: 30_000, polling: 'raf' },
    );
    const took = performance.now() - started;
    if (args.trace) {
      // When each card reached its state, and when the last busy chart settled (from the page's own clock).
      const marks = await page.evaluate(() => /** @type {any} */ (window).__widgetMarks ?? []);
      for (const [at, what] of marks) console.log(`    ${String(Math.round(at)).padStart(5)} ms  ${what}`);
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      // Each request of the visit: when it left and when its answer was in, from the navigation's start.
      for (const [request, [from, to]] of [...requests].sort((a, b) => a[1][0] - b[1][0]))
        console.log(
          `    ${String(Math.round(from)).padStart(5)} → ${String(Math.round(to)).padStart(5)} ms  ${new URL(request.url()).pathname}`,
        );
    }
    const errors = await page.locator('[data-widget-state="error"]').count();
    if (errors) {
      failed = true;
      console.log(`  ${errors} widgets answered an error`);
    }
    return took;
  };
  /** @type {{ cold: number[], warm: number[] }} */
  const times = { cold: [], warm: [] };
  for (let run = 0; run < args.runs; run += 1) {
    // Cold: a fresh context, nothing cached (a first visit); warm: the same page opened again in it
    // (the console's files cached, as for someone who uses it every day; every answer fetched again).
    const context = await browser.newContext({ timezoneId: String(args.tz), viewport: { width: 1400, height: 900 } });
    await context.addInitScript((token) => localStorage.setItem('opsdeck.authToken', token), headers['x-auth-token']);
    if (args.trace)
      await context.addInitScript(() => {
        const marks = /** @type {[number, string][]} */ ([]);
        /** @type {any} */ (window).__widgetMarks = marks;
        new MutationObserver((records) => {
          for (const record of records) {
            const element = /** @type {Element} */ (record.target);
            const card = element.closest('[data-widget]')?.getAttribute('data-widget') ?? '';
            const value = element.getAttribute(record.attributeName ?? '');
            if (record.attributeName === 'data-widget-state') marks.push([performance.now(), `${card} ${value}`]);
            else if (record.attributeName === 'aria-busy' && card)
              marks.push([performance.now(), `${card} busy=${value}`]);
          }
        }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-widget-state', 'aria-busy'] });
      });
    const page = await context.newPage();
    const cold = await visit(page);
    await page.goto('about:blank');
    const warm = await visit(page);
    times.cold.push(cold);
    times.warm.push(warm);
    console.log(`  run ${run + 1}: complete in ${Math.round(cold)} ms cold, ${Math.round(warm)} ms warm`);
    await context.close();
  }
  for (const [name, list] of Object.entries(times)) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(
      `  ${name}: median ${Math.round(percentile(sorted, 50))} ms, slowest ${Math.round(sorted.at(-1) ?? 0)} ms (aim ≤ 1,500 ms)`,
    );
  }
  console.log(`  load average at the end ${loadAverage()}`);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
