// GET /api/test (app key, session token, tenant header, zod response schema) against a bare
// Fastify hello world, in the same autocannon run: the ratio of requests per second, and of the
// server's CPU time per request (steadier on this shared machine than requests per second).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { root, startServer, waitFor } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
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

/** User plus system CPU time of a process so far, in milliseconds (Linux clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function measure(url, pid, headers = {}) {
  const before = cpuMs(pid);
  const result = await autocannon({ url, connections, duration, headers });
  if (result.non2xx > 0)
    throw new Error(`${url} answered ${result.non2xx} non-2xx: ${JSON.stringify(result.statusCodeStats)}`);
  return { ...result, cpuMicros: ((cpuMs(pid) - before) * 1000) / result.requests.total };
}

function row(name, result) {
  console.log(
    `${name.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   ${result.cpuMicros.toFixed(1).padStart(6)} µs CPU/request`,
  );
}

try {
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
  await measure(helloUrl, hello.pid);
  await measure(testUrl, opsdeck.child.pid, testHeaders);
  const bare = await measure(helloUrl, hello.pid);
  // The same server's cheapest route: what the shared hooks, headers and request log cost.
  const health = await measure(`http://127.0.0.1:${opsdeckPort}/api/health`, opsdeck.child.pid);
  const test = await measure(testUrl, opsdeck.child.pid, testHeaders);

  row('bare Fastify hello world', bare);
  row('GET /api/health (no auth)', health);
  row('GET /api/test', test);
  console.log(
    `ratio of requests/s: ${(test.requests.average / bare.requests.average).toFixed(2)} (${connections} connections, ${duration} s each)`,
  );
  console.log(
    `ratio of CPU/request: ${(bare.cpuMicros / test.cpuMicros).toFixed(2)} (hello world's CPU per request over /api/test's)`,
  );
} finally {
  hello.kill('SIGTERM');
  await opsdeck.stop();
}
