// @ts-check
// The workflows table with 10,000 workflows in one directory: a page of 10 of
// `POST /api/directory/view` ({ parent, page, size: 10, sort, search?, from?, to? }), listed at
// several depths and orders, and searched (a text in a tenth of the names, a text in one, no
// match, a 30-day createDate range, both), at a fixed request rate (autocannon's overallRate), on
// PostgreSQL and on the embedded PGlite, signed in as the company's head (a Company Administrator).
// The data is seeded by bench/seed-workflows.ts (SQL, then VACUUM ANALYZE). Reports p50/p99 latency
// per scenario and fails (exit code 1, after the last scenario) if any answer is not 2xx.
// `node bench/workflow-lists.mjs` (or `npm run workflow-lists -w bench`); BENCH_WORKFLOWS,
// BENCH_RATE, BENCH_SECONDS, BENCH_DATABASE_URL change the defaults, BENCH_BACKENDS=postgres or
// =pglite runs one of the two, and BENCH_ONLY=<text> only the scenarios whose name contains it.
import { spawnSync } from 'node:child_process';
import { loadAverage, onEachBackend, paceScenario, root, signedInHeaders, startServer, waitFor } from './lib.mjs';

const workflowsCount = Number(process.env.BENCH_WORKFLOWS ?? 10_000);
const rate = Number(process.env.BENCH_RATE ?? 20);
const duration = Number(process.env.BENCH_SECONDS ?? 20);
const only = process.env.BENCH_ONLY ?? '';
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
      `\n${label}: ${workflowsCount} workflows in '${dir}', ${rate} req/s for ${duration} s, 10 connections; ` +
        `load average ${loadAverage()}`,
    );
    for (const scenario of SCENARIOS.filter((entry) => entry.name.includes(only))) {
      await paceScenario({
        label,
        name: scenario.name,
        url,
        method: 'POST',
        body: JSON.stringify({ size: 10, ...scenario.body }),
        headers,
        rate,
        duration,
        failures,
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
