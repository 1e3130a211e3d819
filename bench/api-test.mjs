// @ts-check
// GET /api/test (app key, session token, tenant header, response schema) against a bare Fastify
// hello world: the ratio of requests per second, and of the server's CPU time per request
// (steadier on this shared machine than requests per second). The two are measured in turn,
// BENCH_ROUNDS times (3), and the median of each round's ratio is the result: neighbours' load
// drifts over a run, and a ratio of two measurements taken seconds apart drifts far less.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { root, startServer, waitFor } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const helloPort = 8291;
const opsdeckPort = 8292;

const hello = spawn(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `import Fastify from 'fastify';
     const app = Fastify();
     app.get('/hello', async () => ({ hello: 'world' }));
     await app.listen({ port: ${helloPort}, host: '127.0.0.1' });`,
  ],
  { cwd: `${root}/apps/server`, stdio: 'inherit' },
);
const opsdeck = startServer({
  port: opsdeckPort,
  env: { DEMO: '1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' },
});

/**
 * User plus system CPU time of a process so far, in milliseconds (Linux clock ticks of 10 ms).
 * @param {number} pid
 */
function cpuMs(pid) {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** @typedef {autocannon.Result & { cpuMicros: number }} Measured */

/**
 * @param {string} url
 * @param {number} pid
 * @param {Record<string, string>} [headers]
 * @returns {Promise<Measured>}
 */
async function measure(url, pid, headers = {}) {
  const before = cpuMs(pid);
  const result = await autocannon({ url, connections, duration, headers });
  if (result.non2xx > 0)
    throw new Error(`${url} answered ${result.non2xx} non-2xx: ${JSON.stringify(result.statusCodeStats)}`);
  return { ...result, cpuMicros: ((cpuMs(pid) - before) * 1000) / result.requests.total };
}

/**
 * @param {string} name
 * @param {Measured} result
 */
function row(name, result) {
  console.log(
    `${name.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   ${result.cpuMicros.toFixed(1).padStart(6)} µs CPU/request`,
  );
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

try {
  if (hello.pid === undefined || opsdeck.child.pid === undefined) throw new Error('a server did not start');
  const helloPid = hello.pid;
  const opsdeckPid = opsdeck.child.pid;
  await waitFor(`http://127.0.0.1:${helloPort}/hello`);
  await waitFor(`http://127.0.0.1:${opsdeckPort}/api/health`);
  const json = { 'x-app-key': 'opsdeck-console', 'content-type': 'application/json' };
  const login = await fetch(`http://127.0.0.1:${opsdeckPort}/api/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: 'admin@opsdeck.test', password: 'opsdeck-demo' }),
  });
  const { token } = await login.json();
  const session = { 'x-app-key': 'opsdeck-console', 'x-auth-token': token };
  const companies = await (await fetch(`http://127.0.0.1:${opsdeckPort}/api/company`, { headers: session })).json();
  const testHeaders = { ...session, 'x-tenant-id': companies[0].tenantId };

  const helloUrl = `http://127.0.0.1:${helloPort}/hello`;
  const testUrl = `http://127.0.0.1:${opsdeckPort}/api/test`;
  // Warm both up (JIT, caches), then measure each in turn.
  await measure(helloUrl, helloPid);
  await measure(testUrl, opsdeckPid, testHeaders);
  /** @type {number[]} */
  const requestRatios = [];
  /** @type {number[]} */
  const cpuRatios = [];
  for (let round = 1; round <= rounds; round++) {
    const bare = await measure(helloUrl, helloPid);
    // The same server's cheapest route: what the shared hook, headers and request log cost.
    const health = await measure(`http://127.0.0.1:${opsdeckPort}/api/health`, opsdeckPid);
    const test = await measure(testUrl, opsdeckPid, testHeaders);
    console.log(`round ${round} of ${rounds}`);
    row('bare Fastify hello world', bare);
    row('GET /api/health (no auth)', health);
    row('GET /api/test', test);
    requestRatios.push(test.requests.average / bare.requests.average);
    cpuRatios.push(bare.cpuMicros / test.cpuMicros);
    console.log(
      `  ratio of requests/s ${requestRatios.at(-1)?.toFixed(2)}, of CPU/request ${cpuRatios.at(-1)?.toFixed(2)}`,
    );
  }
  console.log(
    `ratio of requests/s: ${median(requestRatios).toFixed(2)} (median of ${rounds} rounds; ${connections} connections, ${duration} s each)`,
  );
  console.log(
    `ratio of CPU/request: ${median(cpuRatios).toFixed(2)} (median; hello world's CPU per request over /api/test's)`,
  );
} finally {
  hello.kill('SIGTERM');
  await opsdeck.stop();
}
