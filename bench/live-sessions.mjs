// @ts-check
// Live channel, sessions: how much memory the server holds per connected agent, and how fast
// agents connect. One server (PGlite by default; BENCH_BACKENDS=postgres or =postgres,pglite),
// seeded by bench/seed-live.ts with the keys of the largest count (10,000 keys, 100 licences of 100,
// spread over 4 companies, 10 workflows each), then simulated agents (bench/live-worker.mjs, a
// minimal STOMP client over `ws`, in 2 client processes) connect in steps up to each count of
// `--counts` (CONNECT with the agent headers of docs/live-channel.md, SUBSCRIBE
// /user/queue/workflows and /user/queue/commands, heart-beats every 10 s), each step followed by a
// hold of `--hold` seconds.
// One console of the first company watches throughout, subscribed as the Events page is
// (`--console 0`: none). Reports the server's VmRSS (/proc/<pid>/status) before any agent, after
// each step's connects and at the end of its hold, the connect rate, failures and drops, and the
// server's CPU during the hold.
// `node bench/live-sessions.mjs [--counts 1000,10000] [--hold 30] [--workers 2] [--concurrency 100]`
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  loadAverage,
  onEachBackend,
  processState,
  removeOnExit,
  signedInHeaders,
  startServer,
  waitFor,
} from './lib.mjs';
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

const opts = options({ counts: [1000, 10_000], hold: 30, workers: 2, concurrency: 100, companies: 4, console: 1 });
const port = 8390;
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
  const max = Math.max(...opts.counts);
  const seeded = seedLive(env, { companies: opts.companies, keys: max });
  const logDir = removeOnExit(mkdtempSync(path.join(tmpdir(), 'opsdeck-live-log-')));
  const logFile = path.join(logDir, 'server.log');
  const server = startServer({ port, env: serverEnv(env), logFile, nodeArgs: serverNodeArgs() });
  /** @type {import('./live-lib.mjs').Worker[]} */
  const workers = [];
  /** @type {import('./live-lib.mjs').Worker | undefined} */
  let watcher;
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    await waitForLive(url);
    const pid = /** @type {number} */ (server.child.pid);
    const company = /** @type {(typeof seeded.companies)[number]} */ (seeded.companies[0]);
    const token = (await signedInHeaders(port, company))['x-auth-token'];
    await sleep(3000);
    const before = rssMiB(pid);
    console.log(
      `\n${label}: ${max} keys over ${opts.companies} companies, ${opts.workers} client processes, ` +
        `${opts.concurrency} connects in flight each; load average ${loadAverage()}`,
    );
    console.log(`  server RSS before any agent: ${before.toFixed(0)} MiB`);

    if (opts.console) {
      watcher = startWorker();
      const t = company.tenantId;
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
          `/topic/queue/${t}`,
        ],
        latencyTopic: `/topic/queue/${t}`,
      });
      await watcher.next('console-ready');
    }
    for (let i = 0; i < opts.workers; i += 1) workers.push(startWorker());

    /** @type {(string | number)[][]} */
    const rows = [
      [
        'agents',
        'failed',
        'connect s',
        'connects/s',
        'p50/p99 ms',
        'RSS connected',
        'RSS after hold',
        'MiB/1k agents',
        'server CPU in hold',
        'load',
      ],
      ['0', '', '', '', '', `${before.toFixed(0)} MiB`, '', '', '', loadAverage()],
    ];
    let from = 0;
    let connectedTotal = 0;
    for (const count of [...opts.counts].sort((a, b) => a - b)) {
      const slice = seeded.agents.slice(from, count);
      const parts = split(slice, opts.workers);
      const cpuBefore = processState(pid).cpu;
      const started = performance.now();
      const done = parts.map((agents, i) => {
        const worker = /** @type {import('./live-lib.mjs').Worker} */ (workers[i]);
        worker.tell({ type: 'agents', url, secret: serverEnv({}).AGENT_SECRET, agents, concurrency: opts.concurrency });
        return worker.next('connected');
      });
      const results = await Promise.all(done);
      const seconds = (performance.now() - started) / 1000;
      const connectCpu = processState(pid).cpu - cpuBefore;
      const failed = results.reduce((sum, result) => sum + result.failed, 0);
      /** @type {Record<string, number>} */
      const reasons = {};
      for (const result of results)
        for (const [reason, n] of Object.entries(result.reasons)) reasons[reason] = (reasons[reason] ?? 0) + n;
      if (failed > 0) failures.push(`${label}, ${count}: ${failed} connects failed ${JSON.stringify(reasons)}`);
      const p50 = Math.max(...results.map((result) => result.took[0]));
      const p99 = Math.max(...results.map((result) => result.took[1]));
      const connectedRss = rssMiB(pid);
      console.log(
        `  ${count} agents: ${slice.length} connects in ${seconds.toFixed(1)} s ` +
          `(${(slice.length / seconds).toFixed(0)}/s, server CPU ${connectCpu.toFixed(1)} s), ${failed} failed` +
          `${failed ? ` ${JSON.stringify(reasons)}` : ''}; RSS ${connectedRss.toFixed(0)} MiB; holding ${opts.hold} s`,
      );
      const holdCpu = processState(pid).cpu;
      let peak = connectedRss;
      for (let s = 0; s < opts.hold; s += 1) {
        await sleep(1000);
        peak = Math.max(peak, rssMiB(pid));
      }
      const held = rssMiB(pid);
      const cpu = processState(pid).cpu - holdCpu;
      const reports = await Promise.all(
        workers.map((worker) => {
          worker.tell({ type: 'report' });
          return worker.next('report');
        }),
      );
      const open = reports.reduce((sum, report) => sum + report.open, 0);
      const dropped = reports.reduce((sum, report) => sum + report.dropped, 0);
      connectedTotal += slice.length - failed;
      if (open !== connectedTotal || dropped > 0) {
        failures.push(`${label}, ${count}: ${open} of ${connectedTotal} agents open, ${dropped} dropped`);
      }
      rows.push([
        String(count),
        String(failed),
        seconds.toFixed(1),
        (slice.length / seconds).toFixed(0),
        `${p50.toFixed(0)}/${p99.toFixed(0)}`,
        `${connectedRss.toFixed(0)} MiB`,
        `${held.toFixed(0)} MiB (peak ${peak.toFixed(0)})`,
        (((held - before) / count) * 1000).toFixed(1),
        `${((cpu / opts.hold) * 100).toFixed(1)} %`,
        loadAverage(),
      ]);
      console.log(
        `    after the hold: RSS ${held.toFixed(0)} MiB (peak ${peak.toFixed(0)}), ${open} agents open, ` +
          `${dropped} dropped, server CPU ${cpu.toFixed(1)} s in ${opts.hold} s`,
      );
      from = count;
    }
    if (watcher) {
      watcher.tell({ type: 'report' });
      const report = await watcher.next('report');
      const lines = Object.entries(report.byDestination).map(
        ([destination, seen]) =>
          `${destination.replace(/\/[0-9a-f-]{36}$/, '/{t}')} ${seen.messages} (${(seen.bytes / 1024 / 1024).toFixed(1)} MiB)`,
      );
      console.log(`  the console received: ${lines.join('; ')}${report.dropped ? '; it was DROPPED' : ''}`);
      if (report.dropped) failures.push(`${label}: the console was dropped (${JSON.stringify(report.errors)})`);
    }
    console.log(`\n${label}, 2 cores, load average at the end ${loadAverage()}:\n${table(rows)}`);
    const top = Math.max(...opts.counts);
    const final = Number.parseFloat(String(rows.at(-1)?.[6]));
    console.log(`  aim: ${top} agents in at most 1 GB: ${final <= 1024 ? 'met' : 'NOT met'} (${final} MiB)`);
  } finally {
    await Promise.all([...workers, ...(watcher ? [watcher] : [])].map((worker) => worker.stop()));
    await server.stop();
    const log = readFileSync(logFile, 'utf8').trim();
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
