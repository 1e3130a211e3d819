// GET /api/test (app key, session token, tenant header, zod response schema) against a bare
// Fastify hello world, in the same autocannon run: the ratio of requests per second.
import { spawn } from 'node:child_process';
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

try {
  await waitFor(`http://127.0.0.1:${helloPort}/hello`);
  await waitFor(`http://127.0.0.1:${opsdeckPort}/api/health`);
  const headers = { 'x-app-key': 'opsdeck-console', 'content-type': 'application/json' };
  const login = await fetch(`http://127.0.0.1:${opsdeckPort}/api/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: 'admin@opsdeck.test', password: 'opsdeck-demo' }),
  });
  const { token } = await login.json();
  const companies = await (
    await fetch(`http://127.0.0.1:${opsdeckPort}/api/company`, { headers: { ...headers, 'x-auth-token': token } })
  ).json();
  const tenantId = companies[0].tenantId;

  const measure = (url, extraHeaders = {}) => autocannon({ url, connections, duration, headers: extraHeaders });
  // Warm both up, then measure each in turn.
  await measure(`http://127.0.0.1:${helloPort}/hello`);
  await measure(`http://127.0.0.1:${opsdeckPort}/api/test`, {
    ...headers,
    'x-auth-token': token,
    'x-tenant-id': tenantId,
  });
  const bare = await measure(`http://127.0.0.1:${helloPort}/hello`);
  // The same server's cheapest route: what the shared hooks, headers and request log cost.
  const health = await measure(`http://127.0.0.1:${opsdeckPort}/api/health`);
  const test = await measure(`http://127.0.0.1:${opsdeckPort}/api/test`, {
    ...headers,
    'x-auth-token': token,
    'x-tenant-id': tenantId,
  });
  if (test.non2xx > 0) throw new Error(`/api/test answered ${test.non2xx} non-2xx responses`);
  const row = (name, result) =>
    console.log(
      `${name.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`,
    );
  row('bare Fastify hello world', bare);
  row('GET /api/health (no auth)', health);
  row('GET /api/test', test);
  console.log(
    `ratio ${(test.requests.average / bare.requests.average).toFixed(2)} (${connections} connections, ${duration} s each)`,
  );
} finally {
  hello.kill('SIGTERM');
  await opsdeck.stop();
}
