// @ts-check
// The users list with 100,000 users in one company: a page of 10, sorted and searched, at a
// fixed request rate (autocannon's overallRate), on PostgreSQL and on the embedded PGlite, signed
// in as the company's head. Reports p50/p99 latency and the rate the server kept, per scenario,
// and fails (exit code 1, after the last scenario) if any answer is not 2xx.
// `node bench/users-list.mjs` (or `npm run users-list -w bench`); BENCH_USERS, BENCH_RATE,
// BENCH_SECONDS, BENCH_CONNECTIONS (default: one per 5 req/s, at least 10), BENCH_DATABASE_URL
// change the defaults, BENCH_BACKENDS=postgres or =pglite runs one of the two,
// BENCH_ONLY=<text>[|<text>…] only the scenarios whose name contains one of the texts, and
// BENCH_CPU=1 measures the server's CPU per answer too (openLoopScenario).
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

const usersCount = Number(process.env.BENCH_USERS ?? 100_000);
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
const port = 8293;
const head = { email: 'head@bench.test', password: 'bench-password' };

const SCENARIOS = [
  { name: 'page 1, sorted by name', query: 'page=1&size=10&sort=fullName,asc' },
  { name: 'page 500, sorted by e-mail desc', query: 'page=500&size=10&sort=email,desc' },
  { name: 'searched "ander", sorted by name', query: 'page=1&size=10&sort=fullName,asc&search=ander' },
  { name: 'searched "ander", page 50, by department', query: 'page=50&size=10&sort=department,asc&search=ander' },
  { name: 'searched, no match', query: 'page=1&size=10&sort=fullName,asc&search=zzzz' },
  { name: 'searched "an" (most users), by name', query: 'page=1&size=10&sort=fullName,asc&search=an' },
  { name: 'page 500, sorted by role', query: 'page=500&size=10&sort=role,asc' },
];

/** @type {string[]} */
const failures = [];

/** @param {Record<string, string>} env */
function seed(env) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/seed-users.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BENCH_USERS: String(usersCount), ...env },
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
    const auth = await signedInHeaders(port, head);
    console.log(
      `\n${label}: ${usersCount} users, ${rate} req/s for ${duration} s, ${connections} connections ` +
        `(${new Date().toISOString()}, load ${loadAverage()})`,
    );
    for (const scenario of SCENARIOS.filter((entry) => only.some((text) => entry.name.includes(text)))) {
      const url = `http://127.0.0.1:${port}/api/user/get-user-list?${scenario.query}`;
      const common = { label, name: scenario.name, url, headers: auth, rate, duration, connections, failures };
      if (cpu) await openLoopScenario({ ...common, pid: Number(server.child.pid) });
      else await paceScenario(common);
    }
    console.log(`  (${new Date().toISOString()}, load ${loadAverage()})`);
  } finally {
    await server.stop();
  }
}

await onEachBackend('users', measureBackend);

if (failures.length > 0) {
  console.error(`\n${failures.length} scenario(s) had answers other than 2xx:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
