// @ts-check
// Live channel, latency: how long an agent's queue change takes to reach a console. One server
// (PGlite by default; BENCH_BACKENDS as elsewhere), seeded by bench/seed-live.ts with `--agents`
// keys spread evenly over `--companies` companies (4: 2,500 agents each for 10,000). Every agent
// connects (bench/live-worker.mjs: a minimal STOMP client over `ws`, `--workers` client processes),
// then sends an `/agent/queue` change every `--every` seconds for `--seconds`, staggered evenly
// over the interval (10,000 agents every 10 s: 1,000 changes a second into the server), the send
// time (Date.now()) in the entry's name. One console, signed in as the first company's head (a
// Company Administrator: VIEW_WORKFLOW_EVENTS), in a client process of its own and subscribed as
// the Events page is, measures on `/topic/queue/{t}` the time from each of its company's agents'
// sends to its arrival: every agent loads the server, the console sees a quarter of them. Reports
// p50/p95/p99/max, the messages expected and received, the server's CPU and RSS.
// `--hostile 1` adds, for the whole measurement, the slow and hostile consoles of
// bench/live-hostile.mjs (20 holding half a frame, one flooding SENDs, one making 10,000
// SUBSCRIBEs, each reconnecting when closed) and reports how each was closed.
// `node bench/live-latency.mjs [--agents 10000] [--seconds 60] [--every 10] [--companies 4] [--hostile 1]`
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  loadAverage,
  onEachBackend,
  percentile,
  processState,
  removeOnExit,
  signedInHeaders,
  startServer,
  waitFor,
} from './lib.mjs';
import { startHostile } from './live-hostile.mjs';
import {
  consoleHeaders,
  liveUrl,
  options,
  rssMiB,
  seedLive,
  serverEnv,
  serverNodeArgs,
  split,
  startWorker,
  table,
  waitForLive,
} from './live-lib.mjs';

const opts = options({
  agents: 10_000,
  seconds: 60,
  every: 10,
  companies: 4,
  workers: 2,
  concurrency: 100,
  hostile: 0,
});
const port = 8391;
const url = liveUrl(port);
process.env.BENCH_BACKENDS ??= 'pglite';

/** @type {string[]} */
const failures = [];
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function measure(label, env) {
  const seeded = seedLive(env, { companies: opts.companies, keys: opts.agents });
  const logDir = removeOnExit(mkdtempSync(path.join(tmpdir(), 'opsdeck-live-log-')));
  const logFile = path.join(logDir, 'server.log');
  const server = startServer({ port, env: serverEnv(env), logFile, nodeArgs: serverNodeArgs() });
  /** @type {import('./live-lib.mjs').Worker[]} */
  const workers = [];
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    await waitForLive(url);
    const pid = /** @type {number} */ (server.child.pid);
    const company = /** @type {(typeof seeded.companies)[number]} */ (seeded.companies[0]);
    const token = (await signedInHeaders(port, company))['x-auth-token'];
    const watched = seeded.agents.filter((agent) => agent.company === 0).length;

    for (let i = 0; i < opts.workers; i += 1) workers.push(startWorker());
    const started = performance.now();
    const results = await Promise.all(
      split(seeded.agents, opts.workers).map((agents, i) => {
        const worker = /** @type {import('./live-lib.mjs').Worker} */ (workers[i]);
        worker.tell({ type: 'agents', url, secret: serverEnv({}).AGENT_SECRET, agents, concurrency: opts.concurrency });
        return worker.next('connected');
      }),
    );
    const failed = results.reduce((sum, result) => sum + result.failed, 0);
    console.log(
      `\n${label}: ${opts.agents - failed} of ${opts.agents} agents connected in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s over ${opts.companies} companies; ` +
        `RSS ${rssMiB(pid).toFixed(0)} MiB; load average ${loadAverage()}`,
    );
    if (failed > 0) failures.push(`${label}: ${failed} agents did not connect`);

    // The console connects once the agents are in (the Events page opened on a busy installation).
    const watcher = startWorker();
    workers.push(watcher);
    const t = company.tenantId;
    const topic = `/topic/queue/${t}`;
    watcher.tell({
      type: 'console',
      url,
      headers: consoleHeaders(token),
      subscriptions: [
        '/user/topic/errors',
        '/user/topic/active-agents',
        '/topic/active-agents',
        '/user/topic/identity',
        `/topic/connect/${t}`,
        `/topic/disconnect/${t}`,
        `/topic/workflows/${t}`,
        topic,
      ],
      latencyTopic: topic,
    });
    await watcher.next('console-ready');
    await sleep(1000);

    const rate = opts.agents / opts.every;
    console.log(
      `  ${opts.agents} agents send a queue change every ${opts.every} s (${rate.toFixed(0)}/s) for ${opts.seconds} s; ` +
        `the console watches ${watched} of them; load average ${loadAverage()}`,
    );
    const hostile = opts.hostile ? startHostile({ url, headers: consoleHeaders(token), tenantId: t }) : undefined;
    const before = processState(pid);
    const emitting = workers.slice(0, -1).map((worker) => {
      worker.tell({ type: 'emit', everyMs: opts.every * 1000, seconds: opts.seconds, total: opts.agents });
      return worker.next('emitted');
    });
    let peak = rssMiB(pid);
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
    }, 1000);
    const emitted = await Promise.all(emitting);
    clearInterval(sampler);
    const after = processState(pid);
    const hostileCloses = hostile?.stop();
    if (hostileCloses) console.log(`  hostile clients closed: ${JSON.stringify(hostileCloses)}`);
    await sleep(2000);
    const sent = emitted.reduce((sum, result) => sum + result.sent, 0);
    watcher.tell({ type: 'report' });
    const report = await watcher.next('report');
    /** @type {number[]} */
    const latencies = report.latencies.sort((/** @type {number} */ a, /** @type {number} */ b) => a - b);
    const expected = Math.round((sent * watched) / opts.agents);
    const p = (/** @type {number} */ q) => percentile(latencies, q);
    const cpu = after.cpu - before.cpu;
    const rows = [
      [
        'agents',
        'sent',
        'to the console: expected',
        'received',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
        'server CPU',
        'RSS peak',
        'load',
      ],
      [
        opts.agents,
        sent,
        expected,
        latencies.length,
        p(50),
        p(95),
        p(99),
        latencies.at(-1) ?? 0,
        `${((cpu / opts.seconds) * 100).toFixed(0)} % (${((cpu / sent) * 1e6).toFixed(0)} µs/change)`,
        `${peak.toFixed(0)} MiB`,
        loadAverage(),
      ],
    ];
    console.log(`\n${label}, 2 cores:\n${table(rows)}`);
    console.log(`  aim: p95 ≤ 100 ms: ${p(95) <= 100 ? 'met' : 'NOT met'}`);
    if (report.dropped) failures.push(`${label}: the console was dropped ${JSON.stringify(report.errors)}`);
    if (latencies.length < expected * 0.99)
      failures.push(`${label}: the console received ${latencies.length} of ${expected} changes`);
    const agentReports = await Promise.all(
      workers.slice(0, -1).map((worker) => {
        worker.tell({ type: 'report' });
        return worker.next('report');
      }),
    );
    const dropped = agentReports.reduce((sum, each) => sum + each.dropped, 0);
    /** @type {Record<string, number>} */
    const errors = {};
    for (const each of agentReports)
      for (const [key, n] of Object.entries(each.errors)) errors[key] = (errors[key] ?? 0) + /** @type {number} */ (n);
    if (dropped > 0 || Object.keys(errors).length > 0)
      failures.push(`${label}: ${dropped} agents dropped, refusals ${JSON.stringify(errors)}`);
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await server.stop();
    const log = readFileSync(logFile, 'utf8').trim().split('\n').slice(6).join('\n');
    if (log) console.log(`  server log (warnings and errors, first 2,000 characters):\n${log.slice(0, 2000)}`);
    rmSync(logDir, { recursive: true, force: true });
  }
}

await onEachBackend('live', measure);
if (failures.length > 0) {
  console.error(`\n${failures.length} thing(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
process.exit(0);
