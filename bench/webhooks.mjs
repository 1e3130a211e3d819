// @ts-check
// Webhooks (issue 20; docs/webhooks.md): the server as `npm start` runs it (a child process, on a
// fresh PostgreSQL database and then a fresh PGlite directory: BENCH_BACKENDS), with
// WEBHOOK_ALLOW_LOOPBACK=1, and a receiver in this process on 127.0.0.1 that answers 204 at once
// and notes when each `webhook-id` arrived. Three figures:
//
// 1. Latency, change to receiver: `--rate` (20) test events a second for `--seconds` (15), each
//    `POST /api/webhook/{id}/test` (a change through the API: its audit record, the event and its
//    delivery in one transaction); from the request's start to the delivery's arrival, p50/p95.
//    Aim: ≤ 200 ms / 1 s.
// 2. The backlog of a receiver that was down: the receiver closed, `--backlog` (10,000) test events
//    made (their first attempts find nobody: each waits for its retry); the receiver back, then one
//    new event (what keeps happening on a live installation); the time until every event arrived,
//    and how many arrived twice. The first success brings the endpoint's waiting deliveries forward
//    (sender.ts), so the rate of that catch-up is the sender's throughput. Aims: within 15 minutes,
//    none twice; ≥ 500 deliveries a second.
// 3. What the outbox adds to a change: users archived (`DELETE /api/user/archive/{id}`),
//    alternating between a company with an endpoint for `user.archived` (the event and its
//    delivery written in the change's transaction)
//    and one with none, `--writes` (300) each, BENCH_GAP_MS (20) ms apart (each change's delivery
//    is over before the next change); p50 of each. Aim: ≤ 1 ms.
//
//   node bench/webhooks.mjs [--rate 20 --seconds 15 --backlog 10000 --writes 300]
//   BENCH_BACKENDS=postgres node bench/webhooks.mjs
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { apiClient, loadAverage, median, ms, onEachBackend, percentile, startServer, waitFor } from './lib.mjs';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '15' },
    backlog: { type: 'string', default: '10000' },
    writes: { type: 'string', default: '300' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const backlog = Number(values.backlog);
const writes = Number(values.writes);
const ADMIN = { email: 'admin@webhooks.bench.test', password: 'bench-admin-password' };
const PASSWORD = 'Bench-Password-2026!x';
const sleep = (/** @type {number} */ time) => new Promise((resolve) => setTimeout(resolve, time));

/** The receiver: arrivals by webhook-id (each a list, to count repeats). */
function receiver() {
  /** @type {Map<string, number[]>} */
  const arrivals = new Map();
  const server = createServer((request, response) => {
    const id = String(request.headers['webhook-id']);
    const list = arrivals.get(id) ?? [];
    list.push(performance.now());
    arrivals.set(id, list);
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  return {
    arrivals,
    /** @param {number} port */
    listen: (port) => new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server.address()))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/** Runs `count` calls of `call(k)`, `concurrency` at a time. */
async function inParallel(
  /** @type {number} */ count,
  /** @type {number} */ concurrency,
  /** @type {(k: number) => Promise<unknown>} */ call,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const k = next;
        next += 1;
        await call(k);
      }
    }),
  );
}

/** @type {string[]} */
const summary = [];

await onEachBackend('webhooks', async (label, env) => {
  console.log(`\n${label}: load average ${loadAverage()}`);
  const port = 8297;
  const server = startServer({
    port,
    env: {
      ...env,
      DEMO: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      WEBHOOK_ALLOW_LOOPBACK: '1',
      LOG_LEVEL: 'warn',
    },
  });
  const hooks = receiver();
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    const api = apiClient(`http://127.0.0.1:${port}`);
    const { token } = await api.expect(200, 'POST', '/api/login', {
      body: { username: ADMIN.email, password: ADMIN.password },
    });
    const address = /** @type {import('node:net').AddressInfo} */ (await hooks.listen(0));
    const url = `http://127.0.0.1:${address.port}/hooks`;
    const endpoint = await api.expect(201, 'POST', '/api/webhook', { token, body: { url, events: ['user.created'] } });

    // 1. Latency.
    /** @type {Map<string, number>} */
    const sentAt = new Map();
    const total = rate * seconds;
    const started = performance.now();
    const calls = [];
    for (let k = 0; k < total; k += 1) {
      const due = started + (k * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const at = performance.now();
      calls.push(
        api.expect(201, 'POST', `/api/webhook/${endpoint.id}/test`, { token }).then((delivery) => {
          sentAt.set(delivery.eventId, at);
        }),
      );
    }
    await Promise.all(calls);
    const deadline = performance.now() + 30_000;
    while ([...sentAt.keys()].some((id) => !hooks.arrivals.has(id)) && performance.now() < deadline) await sleep(50);
    const latencies = [...sentAt.entries()]
      .map(([id, at]) => (hooks.arrivals.get(id)?.[0] ?? Number.NaN) - at)
      .sort((a, b) => a - b);
    const lost = latencies.filter((value) => Number.isNaN(value)).length;
    const line1 = `${label}: change → receiver, ${total} test events at ${rate}/s: p50 ${ms(percentile(latencies, 50))} ms, p95 ${ms(percentile(latencies, 95))} ms, max ${ms(latencies.at(-1 - lost) ?? 0)} ms, not arrived ${lost}`;
    console.log(`  ${line1}`);
    summary.push(line1);

    // 2. The backlog of a receiver that was down.
    await hooks.close();
    hooks.arrivals.clear();
    const made = performance.now();
    /** @type {string[]} */
    const waiting = [];
    await inParallel(backlog, 16, async () => {
      const delivery = await api.expect(201, 'POST', `/api/webhook/${endpoint.id}/test`, { token });
      waiting.push(delivery.eventId);
    });
    const madeIn = performance.now() - made;
    console.log(
      `  ${backlog} events made while the receiver was down, in ${(madeIn / 1000).toFixed(1)} s; waiting 6 s for their first attempts`,
    );
    await sleep(6_000);
    await hooks.listen(address.port);
    const back = performance.now();
    const fresh = await api.expect(201, 'POST', `/api/webhook/${endpoint.id}/test`, { token });
    waiting.push(fresh.eventId);
    const limit = back + 15 * 60_000;
    while (waiting.some((id) => !hooks.arrivals.has(id)) && performance.now() < limit) await sleep(100);
    const caughtUp = performance.now() - back;
    const missing = waiting.filter((id) => !hooks.arrivals.has(id)).length;
    const twice = [...hooks.arrivals.values()].filter((times) => times.length > 1).length;
    const firstArrival = Math.min(...[...hooks.arrivals.values()].map((times) => times[0] ?? Number.POSITIVE_INFINITY));
    const lastArrival = Math.max(...[...hooks.arrivals.values()].map((times) => times[0] ?? 0));
    const throughput = (waiting.length - missing) / ((lastArrival - firstArrival) / 1000);
    const line2 = `${label}: ${waiting.length} waiting deliveries all arrived ${(caughtUp / 1000).toFixed(1)} s after the receiver came back (missing ${missing}, twice ${twice}); ${throughput.toFixed(0)} deliveries/s from the first arrival to the last`;
    console.log(`  ${line2}`);
    summary.push(line2);

    // 3. What the outbox adds to a change.
    const companies = [];
    for (const name of ['Hooked Ltd', 'Quiet Ltd']) {
      const slug = name.split(' ')[0]?.toLowerCase();
      const company = await api.expect(201, 'POST', '/api/company', {
        token,
        body: {
          name,
          industryType: 'logistics',
          head: {
            firstName: 'Bench',
            lastName: 'Head',
            emailAddress: `head@${slug}.bench.test`,
            credential: { newPassword: PASSWORD, confirmPassword: PASSWORD },
          },
        },
      });
      const role = await api.expect(200, 'POST', '/api/usergroup', {
        token,
        tenantId: company.tenantId,
        body: { name: 'Bench staff', newAuthorityName: [] },
      });
      companies.push({ ...company, roleId: role.id, slug });
    }
    const [hooked, quiet] = companies;
    if (!hooked || !quiet) throw new Error('companies not made');
    await api.expect(201, 'POST', '/api/webhook', {
      token,
      tenantId: hooked.tenantId,
      body: { url, events: ['user.archived'] },
    });
    // The provider-wide endpoint would hear both companies: it goes.
    await api.expect(200, 'DELETE', `/api/webhook/${endpoint.id}`, { token });
    // The users archived below, made first (each creation's argon2 would drown a 1 ms difference).
    /** @type {{ hooked: number[], quiet: number[] }} */
    const people = { hooked: [], quiet: [] };
    for (let k = 0; k < writes + 20; k += 1) {
      for (const company of [hooked, quiet]) {
        const user = await api.expect(200, 'POST', '/api/user/register', {
          token,
          body: {
            companyId: company.id,
            firstName: 'Bench',
            lastName: `User ${k}`,
            emailAddress: `user${k}@${company.slug}.bench.test`,
            credential: { newPassword: PASSWORD, confirmPassword: PASSWORD },
            groups: [company.roleId],
          },
        });
        people[company === hooked ? 'hooked' : 'quiet'].push(user.id);
      }
    }
    /** @type {{ hooked: number[], quiet: number[] }} */
    const times = { hooked: [], quiet: [] };
    for (let k = 0; k < writes + 20; k += 1) {
      const order = k % 2 === 0 ? ['hooked', 'quiet'] : ['quiet', 'hooked'];
      for (const which of /** @type {('hooked' | 'quiet')[]} */ (order)) {
        const at = performance.now();
        await api.expect(200, 'DELETE', `/api/user/archive/${people[which][k]}`, { token });
        if (k >= 20) times[which].push(performance.now() - at);
        // The delivery that follows a change is done before the next change starts: the figure is
        // what the change itself pays, not its delivery's work overlapping the next request.
        await sleep(Number(process.env.BENCH_GAP_MS ?? 20));
      }
    }
    const p50 = { hooked: median(times.hooked), quiet: median(times.quiet) };
    const line3 = `${label}: a user archived, ${writes} each, p50 with a listening endpoint ${ms(p50.hooked)} ms, without ${ms(p50.quiet)} ms: the outbox adds ${(p50.hooked - p50.quiet).toFixed(2)} ms`;
    console.log(`  ${line3}`);
    summary.push(line3);
  } finally {
    await hooks.close().catch(() => undefined);
    await server.stop();
  }
});

console.log(`\n${summary.join('\n')}\nload average ${loadAverage()}`);
