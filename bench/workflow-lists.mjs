// @ts-check
// The workflows table with 10,000 workflows in one directory: a page of 10 of
// `POST /api/directory/view` ({ parent, page, size: 10, sort, search?, from?, to? }), listed at
// several depths and orders, and searched (a text in a tenth of the names, a text in one, no
// match, a 30-day createDate range, both), at a fixed request rate (autocannon's overallRate), on
// PostgreSQL and on the embedded PGlite, signed in as the company's head (a Company Administrator).
// The data is seeded by bench/seed-workflows.ts (SQL, then VACUUM ANALYZE). Reports p50/p99 latency
// per scenario and fails (exit code 1, after the last scenario) if any answer is not 2xx.
// `node bench/workflow-lists.mjs` (or `npm run workflow-lists -w bench`); BENCH_WORKFLOWS,
// BENCH_RATE, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_DATABASE_URL change the defaults,
// BENCH_BACKENDS=postgres or =pglite runs one of the two, and BENCH_ONLY=<text> only the scenarios
// whose name contains it; BENCH_CPU=1 sends each scenario by `openLoop` (lib.mjs: each request
// on its own schedule) and measures the server's CPU per answer too. Issue 18's bar is BENCH_RATE=500 (docs/performance.md): the rate each
// scenario achieved is reported beside its latency, since a server that cannot keep up answers
// fewer requests a second rather than slower ones alone.
// BENCH_WALL=off measures without the database's wall (row-level security off in the benchmark's
// own database: `takeDownTheWallIfAsked` in seed-lib.ts).
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { loadAverage, onEachBackend, openLoopScenario, root, signedInHeaders, startServer, waitFor } from './lib.mjs';

const workflowsCount = Number(process.env.BENCH_WORKFLOWS ?? 10_000);
const rate = Number(process.env.BENCH_RATE ?? 20);
const duration = Number(process.env.BENCH_SECONDS ?? 20);
const only = process.env.BENCH_ONLY ?? '';
/** Enough connections that 500 req/s is not capped by one request at a time per connection. */
const connections = Number(process.env.BENCH_CONNECTIONS ?? Math.max(10, Math.ceil(rate / 10)));
/** BENCH_CPU=1: open loop, and the server's CPU per answer (as the other list benchmarks). */
const cpu = process.env.BENCH_CPU === '1';
const port = 8297;
const head = { email: 'head@bench.test', password: 'bench-password' };
const DAY = 86_400_000;
/** The seed's "now": createDate runs back 365 days from it. */
const now = Date.now();
/** A 30-day window, 60 to 30 days ago: about 30/365 of the workflows. */
const range = { from: now - 60 * DAY, to: now - 30 * DAY };

const dir = 'Workflows/Bench';
/** The middle and the last page of the directory, 10 a page. */
const middle = Math.max(1, Math.floor(workflowsCount / 20));
const last = Math.max(1, Math.ceil(workflowsCount / 10));

/** @type {{ name: string, body: Record<string, unknown> }[]} */
const SCENARIOS = [
  { name: 'page 1, by name', body: { parent: dir, page: 1, sort: 'name,asc' } },
  { name: `page ${middle}, by name`, body: { parent: dir, page: middle, sort: 'name,asc' } },
  { name: `page ${last} (last), by name desc`, body: { parent: dir, page: last, sort: 'name,desc' } },
  { name: 'page 1, by createDate desc', body: { parent: dir, page: 1, sort: 'createDate,desc' } },
  { name: `page ${middle}, by updateDate`, body: { parent: dir, page: middle, sort: 'updateDate,asc' } },
  { name: 'page 1, by size desc', body: { parent: dir, page: 1, sort: 'size,desc' } },
  { name: 'page 1, by description', body: { parent: dir, page: 1, sort: 'description,asc' } },
  { name: 'search "invoice", by name', body: { parent: dir, page: 1, sort: 'name,asc', search: 'invoice' } },
  {
    name: 'search "invoice", page 50, by createDate',
    body: { parent: dir, page: 50, sort: 'createDate,desc', search: 'invoice' },
  },
  { name: 'search "legal" (descriptions)', body: { parent: dir, page: 1, sort: 'name,asc', search: 'legal' } },
  { name: 'search "00042" (one)', body: { parent: dir, page: 1, sort: 'name,asc', search: '00042' } },
  { name: 'search, no match', body: { parent: dir, page: 1, sort: 'name,asc', search: 'zzzz' } },
  { name: '30-day range, by createDate desc', body: { parent: dir, page: 1, sort: 'createDate,desc', ...range } },
  {
    name: 'search "invoice" + 30-day range',
    body: { parent: dir, page: 1, sort: 'name,asc', search: 'invoice', ...range },
  },
  {
    name: 'search "invoice" from the root',
    body: { parent: 'Workflows', page: 1, sort: 'name,asc', search: 'invoice' },
  },
];

/** @type {string[]} */
const failures = [];

/**
 * One scenario: a probe until the server has drained the previous one (as `paceScenario` in
 * lib.mjs), the probe's page checked, then `rate` requests a second over `connections` for
 * `duration` s. Prints the total, p50/p99 and the rate achieved against the rate asked.
 * @param {{ label: string, name: string, url: string, body: string, headers: Record<string, string>, check: (page: any) => string | null }} scenario
 */
async function pace({ label, name, url, body, headers, check }) {
  const title = name.padEnd(44);
  const send = () => fetch(url, { method: 'POST', headers, body });
  let probe = await send();
  let text = await probe.text();
  for (let previous = Number.POSITIVE_INFINITY, tries = 0; probe.ok && tries < 10; tries += 1) {
    const sent = performance.now();
    probe = await send();
    text = await probe.text();
    const took = performance.now() - sent;
    if (took >= previous * 0.8) break;
    previous = took;
  }
  if (!probe.ok) {
    failures.push(`${label}, ${name}: ${probe.status} ${text.slice(0, 200)}`);
    console.log(`  ${title} FAILED: ${probe.status} ${text.slice(0, 200)}`);
    return;
  }
  const page = JSON.parse(text);
  const wrong = check(page);
  if (wrong) failures.push(`${label}, ${name}: ${wrong}`);
  const result = await autocannon({ url, method: 'POST', body, connections, overallRate: rate, duration, headers });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    failures.push(
      `${label}, ${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} ` +
        `timeouts (status codes ${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  const achieved = result.requests.total / duration;
  console.log(
    `  ${title} total ${String(page.total).padStart(6)}   ` +
      `p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   ` +
      `${achieved.toFixed(0)} of ${rate} req/s${bad > 0 ? `   FAILED: ${bad} not 2xx` : ''}`,
  );
}

/** @param {Record<string, string>} env */
function seed(env) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/seed-workflows.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      BENCH_WORKFLOWS: String(workflowsCount),
      BENCH_HEAD_EMAIL: head.email,
      BENCH_HEAD_PASSWORD: head.password,
      BENCH_NOW: String(now),
      ...env,
    },
  });
  if (result.status !== 0) throw new Error('seeding failed');
}

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function measureBackend(label, env) {
  seed(env);
  const server = startServer({ port, env: { ...env, DEMO: '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bench-admin' } });
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    const headers = await signedInHeaders(port, head);
    const url = `http://127.0.0.1:${port}/api/directory/view`;
    console.log(
      `\n${label}: ${workflowsCount} workflows in '${dir}', ${rate} req/s for ${duration} s, ${connections} connections; ` +
        `load average ${loadAverage()}`,
    );
    for (const scenario of SCENARIOS.filter((entry) => entry.name.includes(only))) {
      const body = JSON.stringify({ size: 10, ...scenario.body });
      if (cpu) {
        const pid = Number(server.child.pid);
        const common = { label, name: scenario.name, url, body, headers, rate, duration, connections, failures };
        await openLoopScenario({ ...common, pid });
        continue;
      }
      await pace({
        label,
        name: scenario.name,
        url,
        body,
        headers,
        check: (page) =>
          page.items.length === Math.min(10, Math.max(0, page.total - (page.page - 1) * 10))
            ? null
            : `${page.items.length} items on page ${page.page} of ${page.total}`,
      });
    }
    console.log(`  load average at the end: ${loadAverage()}`);
  } finally {
    await server.stop();
  }
}

await onEachBackend('workflows', measureBackend);

if (failures.length > 0) {
  console.error(`\n${failures.length} scenario(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
