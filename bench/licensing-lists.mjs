// @ts-check
// The companies and accounts tables of License Management with 10,000 companies and 200,000
// accounts (one licence of 20 keys per company): a page of 10, sorted and searched, at a fixed
// request rate (autocannon's overallRate), on PostgreSQL and on the embedded PGlite, signed in as
// the provider administrator (who sees every company and every account). Reports p50/p99 latency
// per scenario and fails (exit code 1, after the last scenario) if any answer is not 2xx.
// `node bench/licensing-lists.mjs` (or `npm run licensing-lists -w bench`); BENCH_COMPANIES,
// BENCH_ACCOUNTS, BENCH_RATE, BENCH_SECONDS, BENCH_CONNECTIONS (default: one per 5 req/s, at
// least 10), BENCH_DATABASE_URL, BENCH_PORT change the defaults, BENCH_BACKENDS=postgres or
// =pglite runs one of the two, BENCH_ONLY=<text>[|<text>…] only the scenarios whose name contains
// one of the texts, and BENCH_CPU=1 measures the server's CPU per answer too (openLoopScenario).
// BENCH_WALL=off measures without the database's wall (row-level security off in the benchmark's
// own database: `takeDownTheWallIfAsked` in seed-lib.ts).
// autocannon runs in this process, on the same cores as the server: at 500 req/s it takes a
// share of them (docs/performance.md, "Lists at 500 requests a second").
import { spawnSync } from 'node:child_process';
import {
  loadAverage,
  onEachBackend,
  openLoopScenario,
  paceScenario,
  root,
  signedInHeaders,
  startServer,
  waitFor,
} from './lib.mjs';

const companiesCount = Number(process.env.BENCH_COMPANIES ?? 10_000);
const accountsCount = Number(process.env.BENCH_ACCOUNTS ?? 200_000);
const rate = Number(process.env.BENCH_RATE ?? 20);
const duration = Number(process.env.BENCH_SECONDS ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? Math.max(10, Math.ceil(rate / 5)));
const only = (process.env.BENCH_ONLY ?? '').split('|');
/**
 * BENCH_CPU=1: each scenario sent by `openLoop` (its own schedule, at most `connections` waiting)
 * and measured by the server's CPU time per answer as well, which a machine shared with other work
 * distorts far less than latency.
 */
const cpu = process.env.BENCH_CPU === '1';
/** BENCH_PORT: another port, when 8294 is taken (another session's server). */
const port = Number(process.env.BENCH_PORT ?? 8294);
const admin = { email: 'admin@bench.test', password: 'bench-admin-password' };

/** The middle page of a list of `total` rows, 10 a page. */
const middle = (/** @type {number} */ total) => Math.max(1, Math.floor(total / 20));

const SCENARIOS = [
  { name: 'companies: page 1, by name', path: '/api/company', query: 'page=1&size=10&sort=name,asc' },
  {
    name: `companies: page ${middle(companiesCount)}, by name`,
    path: '/api/company',
    query: `page=${middle(companiesCount)}&size=10&sort=name,asc`,
  },
  { name: 'companies: search "an", by name', path: '/api/company', query: 'page=1&size=10&sort=name,asc&search=an' },
  {
    name: 'companies: search "stonebridge robotics"',
    path: '/api/company',
    query: 'page=1&size=10&sort=name,asc&search=stonebridge%20robotics',
  },
  { name: 'companies: page 1, by head', path: '/api/company', query: 'page=1&size=10&sort=head,asc' },
  { name: 'companies: page 1, by industry', path: '/api/company', query: 'page=1&size=10&sort=industry,asc' },
  { name: 'accounts: page 1, by full name', path: '/api/account', query: 'page=1&size=10&sort=fullName,asc' },
  {
    name: `accounts: page ${middle(accountsCount)}, by full name`,
    path: '/api/account',
    query: `page=${middle(accountsCount)}&size=10&sort=fullName,asc`,
  },
  {
    name: 'accounts: search name "ander"',
    path: '/api/account',
    query: 'page=1&size=10&sort=fullName,asc&search=ander',
  },
  {
    name: 'accounts: search e-mail "a.okafor"',
    path: '/api/account',
    query: 'page=1&size=10&sort=fullName,asc&search=a.okafor',
  },
  {
    name: 'accounts: search MAC "5e:60:a"',
    path: '/api/account',
    query: 'page=1&size=10&sort=fullName,asc&search=5e%3A60%3Aa',
  },
  { name: 'accounts: search, no match', path: '/api/account', query: 'page=1&size=10&sort=fullName,asc&search=zzzz' },
  { name: 'accounts: page 1, by expiration', path: '/api/account', query: 'page=1&size=10&sort=expiration,asc' },
];

/** @type {string[]} */
const failures = [];

/** @param {Record<string, string>} env */
function seed(env) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/seed-licensing.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      BENCH_COMPANIES: String(companiesCount),
      BENCH_ACCOUNTS: String(accountsCount),
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
  const server = startServer({
    port,
    env: { ...env, DEMO: '0', LOG_LEVEL: 'warn', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    const auth = await signedInHeaders(port, admin);
    console.log(
      `\n${label}: ${companiesCount} companies, ${accountsCount} accounts, ${rate} req/s for ${duration} s, ` +
        `${connections} connections (${new Date().toISOString()}, load ${loadAverage()})`,
    );
    for (const scenario of SCENARIOS.filter((entry) => only.some((text) => entry.name.includes(text)))) {
      const url = `http://127.0.0.1:${port}${scenario.path}?${scenario.query}`;
      const common = { label, name: scenario.name, url, headers: auth, rate, duration, connections, failures };
      if (cpu) await openLoopScenario({ ...common, pid: Number(server.child.pid) });
      else await paceScenario(common);
    }
    console.log(`  (${new Date().toISOString()}, load ${loadAverage()})`);
  } finally {
    await server.stop();
  }
}

await onEachBackend('licensing', measureBackend);

if (failures.length > 0) {
  console.error(`\n${failures.length} scenario(s) had answers other than 2xx:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
