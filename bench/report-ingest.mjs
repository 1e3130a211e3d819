// @ts-check
// Execution reports through the live channel, and the rollups kept exact meanwhile. Seeds
// `--companies` companies (default 4) with 10 workflows each and `--agents` licence keys (default
// 200) with bench/seed-live.ts, starts the server (DEMO=0, LOG_LEVEL=warn, AGENT_SECRET), connects
// the agents from `--workers` client processes (bench/ingest-worker.mjs, default 2), and has every
// agent send `/agent/execution` reports with a receipt for `--seconds` (default 30), each as soon
// as the receipt of the one before is back (one in flight per agent: a session's frames are handled
// in order anyway); one report in `--resend-every` (100) is sent twice. Then the server stops and
// bench/report-sql.ts compares the three rollups with a GROUP BY over the stored logs: "equal", or
// the rows that differ; and the logs stored with the reports acknowledged (less the resends).
//
//   node bench/report-ingest.mjs [--backends postgres,pglite] [--agents 200 --seconds 30]
//
// PostgreSQL: a database of its own (opsdeck_bench_ingest_<time>) on `--server-url`'s server
// (default the machine's, through its `postgres` database), dropped afterwards unless `--keep 1`;
// PGlite: a fresh directory, removed afterwards. Prints reports per second, the receipts' latency,
// the server's CPU and the machine's load. Exit code 1 if any report was refused or the rollups differ.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadAverage, percentile, processState, removeOnExit, root, startServer, waitFor } from './lib.mjs';
import {
  backendsCpu,
  liveUrl,
  machineCpu,
  options,
  seedLive,
  serverEnv,
  serverNodeArgs,
  split,
  startWorker,
  waitForLive,
} from './live-lib.mjs';

const args = options({
  backends: 'postgres,pglite',
  agents: 200,
  companies: 4,
  seconds: 30,
  workers: 2,
  resendEvery: 100,
  port: 8394,
  serverUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  keep: 0,
});
/** @type {string[]} */
const failures = [];

/**
 * A client process (bench/ingest-worker.mjs) whose `progress` messages count what it has had receipted so far.
 */
function startCountingWorker() {
  const worker = startWorker('bench/ingest-worker.mjs');
  let count = 0;
  worker.on('progress', (/** @type {any} */ message) => {
    count = message.receipts;
  });
  return { ...worker, receipts: () => count };
}

/**
 * Runs bench/report-sql.ts `verify` on the database of `env` (the server stopped).
 * @param {Record<string, string>} env
 */
async function verify(env) {
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/report-sql.ts', 'verify'], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`verify failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
}

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function measure(label, env) {
  console.log(
    `\n${label}: ${args.agents} agents over ${args.companies} companies, ${args.seconds} s; load average ${loadAverage()}`,
  );
  const seeded = seedLive(env, { companies: args.companies, keys: args.agents, workflows: 10 });
  const server = startServer({
    port: args.port,
    ...(env.DATA_DIR ? { dataDir: env.DATA_DIR } : {}),
    env: serverEnv(env),
    nodeArgs: serverNodeArgs(),
  });
  const pid = /** @type {number} */ (server.child.pid);
  /** @type {ReturnType<typeof startCountingWorker>[]} */
  const workers = [];
  try {
    await waitFor(`http://127.0.0.1:${args.port}/api/health`);
    await waitForLive(liveUrl(args.port));
    for (let i = 0; i < args.workers; i += 1) workers.push(startCountingWorker());
    const slices = split(seeded.agents, workers.length);
    const connected = await Promise.all(
      workers.map((worker, i) => {
        const done = worker.next('connected');
        worker.tell({
          type: 'agents',
          url: liveUrl(args.port),
          secret: serverEnv({}).AGENT_SECRET,
          agents: slices[i] ?? [],
          concurrency: 50,
        });
        return done;
      }),
    );
    const agents = connected.reduce((sum, each) => sum + each.connected, 0);
    const failedConnects = connected.reduce((sum, each) => sum + each.failed, 0);
    console.log(`  ${agents} agents connected${failedConnects ? `, ${failedConnects} failed` : ''}`);
    if (failedConnects) failures.push(`${label}: ${failedConnects} agents could not connect`);

    const database = env.DATABASE_URL ? new URL(env.DATABASE_URL).pathname.slice(1) : '';
    const clientsCpu = () =>
      workers.reduce((sum, worker) => sum + processState(/** @type {number} */ (worker.child.pid)).cpu, 0);
    const before = {
      server: processState(pid),
      machine: machineCpu(),
      load: loadAverage(),
      backends: backendsCpu(database),
      clients: clientsCpu(),
    };
    /** @type {number[]} */
    const perSecond = [];
    let last = 0;
    const ticker = setInterval(() => {
      const now = workers.reduce((sum, worker) => sum + worker.receipts(), 0);
      perSecond.push(now - last);
      last = now;
    }, 1000);
    const results = await Promise.all(
      workers.map((worker) => {
        const done = worker.next('done');
        worker.tell({ type: 'run', seconds: args.seconds, resendEvery: args.resendEvery });
        return done;
      }),
    );
    clearInterval(ticker);
    const after = {
      server: processState(pid),
      machine: machineCpu(),
      load: loadAverage(),
      backends: backendsCpu(database),
      clients: clientsCpu(),
    };
    let backendSeconds = 0;
    for (const [backend, cpu] of after.backends) backendSeconds += cpu - (before.backends.get(backend) ?? 0);
    const seconds = Math.max(...results.map((each) => each.seconds));
    const sum = (/** @type {string} */ field) => results.reduce((total, each) => total + each[field], 0);
    const receipts = sum('receipts');
    const resends = sum('resends');
    /** @type {Record<string, number>} */
    const refused = {};
    for (const each of results)
      for (const [key, n] of Object.entries(each.refused)) refused[key] = (refused[key] ?? 0) + n;
    const latencies = results.flatMap((each) => each.latencies).sort((a, b) => a - b);
    const serverCpu = after.server.cpu - before.server.cpu;
    const machineBusy = (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total);
    const steady = perSecond.slice(2, -1).sort((a, b) => a - b);
    console.log(
      `  ${receipts.toLocaleString('en')} reports acknowledged in ${seconds.toFixed(1)} s: ` +
        `**${Math.round(receipts / seconds).toLocaleString('en')}/s** (per second: median ${percentile(steady, 50)}, ` +
        `min ${steady[0] ?? 0}, max ${steady.at(-1) ?? 0}); ${resends} of them resends` +
        (Object.keys(refused).length ? `; refused: ${JSON.stringify(refused)}` : '; none refused'),
    );
    console.log(
      `  receipt latency p50 ${percentile(latencies, 50).toFixed(1)} / p95 ${percentile(latencies, 95).toFixed(1)} / ` +
        `p99 ${percentile(latencies, 99).toFixed(1)} / max ${(latencies.at(-1) ?? 0).toFixed(0)} ms; ` +
        `server CPU ${((serverCpu / seconds) * 100).toFixed(0)} % of a core (${((serverCpu * 1e6) / Math.max(1, receipts)).toFixed(0)} µs a report), ` +
        (database ? `PostgreSQL backends ${((backendSeconds / seconds) * 100).toFixed(0)} %, ` : '') +
        `client processes ${(((after.clients - before.clients) / seconds) * 100).toFixed(0)} %; ` +
        `machine ${(machineBusy * 100).toFixed(0)} % busy (2 cores); load ${before.load} → ${after.load}`,
    );
    if (Object.keys(refused).length) failures.push(`${label}: refused ${JSON.stringify(refused)}`);

    for (const worker of workers.splice(0)) await worker.stop();
    await server.stop();
    const checked = await verify(env);
    const expectedLogs = receipts - resends;
    console.log(
      `  rollups vs GROUP BY over the logs: ${checked.equal ? 'EQUAL' : 'DIFFERENT'} ` +
        `(${checked.logs.toLocaleString('en')} logs stored, ${expectedLogs.toLocaleString('en')} reports acknowledged once; ` +
        `${checked.countedInRollups.toLocaleString('en')} runs counted in the 15-minute rollups; checked in ${checked.seconds.toFixed(1)} s)`,
    );
    if (!checked.equal) {
      failures.push(`${label}: rollups differ from the logs`);
      console.log(`  differences: ${JSON.stringify(checked.differences, null, 1)}`);
    }
    if (checked.logs !== expectedLogs)
      failures.push(`${label}: ${checked.logs} logs stored, ${expectedLogs} acknowledged`);
  } finally {
    for (const worker of workers) await worker.stop();
    await server.stop();
  }
}

for (const backend of args.backends.split(',')) {
  if (backend === 'postgres') {
    const database = `opsdeck_bench_ingest_${Date.now()}`;
    const client = new pg.Client({ connectionString: args.serverUrl });
    await client.connect();
    await client.query(`create database ${database}`);
    const url = new URL(args.serverUrl);
    url.pathname = `/${database}`;
    try {
      await measure('PostgreSQL', { DATABASE_URL: url.toString() });
    } finally {
      if (args.keep) console.log(`  kept ${url}`);
      else await client.query(`drop database if exists ${database} with (force)`);
      await client.end();
    }
  } else if (backend === 'pglite') {
    const made = mkdtempSync(path.join(tmpdir(), 'opsdeck-bench-ingest-'));
    const dir = args.keep ? made : removeOnExit(made);
    try {
      await measure('PGlite', { DATA_DIR: dir });
    } finally {
      if (args.keep) console.log(`  kept ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    }
  } else throw new Error(`unknown backend ${backend}`);
}

if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
