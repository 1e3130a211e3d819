// @ts-check
// GET /api/test with an API token (`Authorization: Bearer odt_…`) against the same call with a
// session token (X-Auth-Token), in one run on one server: the server's CPU time per request (from
// /proc, steadier on a shared machine than requests per second) and requests per second, the two
// header kinds measured in turn, BENCH_ROUNDS times (5), in alternating order; the result is the
// median of each round's ratio. Aim: a bearer token within 5 % of a session token.
// BENCH_SECONDS (5), BENCH_CONNECTIONS (50), BENCH_LOG_LEVEL (info).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { loadAverage, startServer, waitFor } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const port = 8293;
const base = `http://127.0.0.1:${port}`;

const server = startServer({ port, env: { DEMO: '1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' } });

/** @param {number} pid User plus system CPU time of the process so far, in milliseconds. */
function cpuMs(pid) {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * @param {number} pid
 * @param {Record<string, string>} headers
 */
async function measure(pid, headers) {
  const before = cpuMs(pid);
  const result = await autocannon({ url: `${base}/api/test`, connections, duration, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `answered ${result.non2xx} non-2xx, ${result.errors} errors: ${JSON.stringify(result.statusCodeStats)}`,
    );
  return {
    perSecond: result.requests.average,
    p99: result.latency.p99,
    cpuMicros: ((cpuMs(pid) - before) * 1000) / result.requests.total,
  };
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** @param {string} name @param {{ perSecond: number, p99: number, cpuMicros: number }} m */
const line = (name, m) =>
  `  ${name.padEnd(22)} ${m.perSecond.toFixed(0).padStart(7)} req/s   p99 ${m.p99} ms   ${m.cpuMicros.toFixed(1).padStart(6)} µs CPU/request`;

try {
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server did not start');
  await waitFor(`${base}/api/health`);
  const json = { 'x-app-key': 'opsdeck-console', 'content-type': 'application/json' };
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: 'admin@opsdeck.test', password: 'opsdeck-demo' }),
  });
  const { token: session } = await login.json();
  const made = await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { ...json, 'x-auth-token': session },
    body: JSON.stringify({ name: 'bench', expiresAt: Date.now() + 86_400_000, scopes: ['VIEW_TASK'] }),
  });
  if (made.status !== 201) throw new Error(`token not made: ${made.status} ${await made.text()}`);
  const { token } = await made.json();
  const companies = await (
    await fetch(`${base}/api/company`, { headers: { ...json, 'x-auth-token': session } })
  ).json();
  const tenant = { 'x-app-key': 'opsdeck-console', 'x-tenant-id': companies[0].tenantId };
  /** @type {Record<string, Record<string, string>>} */
  const kinds = {
    'X-Auth-Token': { ...tenant, 'x-auth-token': session },
    'Authorization: Bearer': { ...tenant, authorization: `Bearer ${token}` },
  };
  console.log(`load average ${loadAverage()}; ${rounds} rounds of ${duration} s, ${connections} connections`);
  // Warm-up (JIT, both caches), not measured.
  for (const headers of Object.values(kinds)) await measure(pid, headers);
  /** @type {number[]} */
  const cpuRatios = [];
  /** @type {number[]} */
  const rateRatios = [];
  for (let round = 1; round <= rounds; round++) {
    // Alternate which goes first: the neighbours' load drifts within a round.
    const order = round % 2 ? ['X-Auth-Token', 'Authorization: Bearer'] : ['Authorization: Bearer', 'X-Auth-Token'];
    /** @type {Record<string, { perSecond: number, p99: number, cpuMicros: number }>} */
    const results = {};
    for (const kind of order) results[kind] = await measure(pid, kinds[kind] ?? {});
    const session = results['X-Auth-Token'];
    const bearer = results['Authorization: Bearer'];
    if (!session || !bearer) throw new Error('a measurement is missing');
    cpuRatios.push(bearer.cpuMicros / session.cpuMicros);
    rateRatios.push(bearer.perSecond / session.perSecond);
    console.log(`round ${round} of ${rounds}`);
    console.log(line('X-Auth-Token', session));
    console.log(line('Authorization: Bearer', bearer));
    console.log(
      `  bearer / session: CPU per request ${cpuRatios.at(-1)?.toFixed(3)}, requests/s ${rateRatios.at(-1)?.toFixed(3)}`,
    );
  }
  const listed = await (await fetch(`${base}/api/token`, { headers: kinds['X-Auth-Token'] })).json();
  console.log(`bearer / session, CPU per request: ${median(cpuRatios).toFixed(3)} (median of ${rounds}; aim ≤ 1.05)`);
  console.log(`bearer / session, requests/s:      ${median(rateRatios).toFixed(3)} (median; aim ≥ 0.95)`);
  console.log(
    `the token's last use as listed: ${JSON.stringify(listed.find((/** @type {any} */ t) => t.name === 'bench'))}`,
  );
  console.log(`load average ${loadAverage()}`);
} finally {
  await server.stop();
}
