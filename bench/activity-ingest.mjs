// @ts-check
// Activity spans through the live channel, and the activity rollups kept exact meanwhile. Seeds
// `--companies` companies (default 4) and `--agents` licence keys (default 200) with
// bench/seed-live.ts, a user for each key (its e-mail: the spans have a person) and a status and a
// task a company (bench/activity-sql.ts people), starts the server (DEMO=0, LOG_LEVEL=warn,
// AGENT_SECRET), connects the agents from `--workers` client processes (bench/activity-worker.mjs,
// default 2), and has every agent send `/agent/activity` frames of `--spans` events (default 50)
// with a receipt for `--seconds` (default 30), each as soon as the receipt of the one before is
// back: the spans it left open in its last frame now ended, and new ones (a fifth open). One frame
// in `--resend-every` (100) is sent twice. Then the agents disconnect (their open spans end at
// their last word), the server stops, and bench/activity-sql.ts compares both rollups with a
// GROUP BY over the stored spans: "equal", or the rows that differ.
//
//   node bench/activity-ingest.mjs [--backends postgres,pglite] [--agents 200 --seconds 30 --spans 50]
//
// PostgreSQL: a database of its own (opsdeck_bench_activity_<time>) on `--server-url`'s server
// (default the machine's, through its `postgres` database), dropped afterwards unless `--keep 1`;
// PGlite: a fresh directory, removed afterwards. Prints spans per second (every span of every
// receipted frame, resends included, and the new spans alone), the receipts' latency, the server's
// CPU and the machine's load. Exit code 1 if any span was refused or the rollups differ.
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
  spans: 50,
  port: 8394,
  serverUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  keep: 0,
});
/** @type {string[]} */
const failures = [];

/**
 * A client process (bench/activity-worker.mjs) whose `progress` messages count what it has had receipted so far.
 */
function startCountingWorker() {
  const worker = startWorker('bench/activity-worker.mjs');
  let count = 0;
  worker.on('progress', (/** @type {any} */ message) => {
    count = message.spans;
  });
  return { ...worker, receipts: () => count };
}

/**
 * Runs a bench/activity-sql.ts command on the database of `env` (no server running on PGlite's).
 * @param {Record<string, string>} env
 * @param {string} command
 */
async function activitySql(env, command) {
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/activity-sql.ts', command], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${command} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
}

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function measure(label, env) {
  console.log(
    `\n${label}: ${args.agents} agents over ${args.companies} companies, frames of ${args.spans} spans, ${args.seconds} s; load average ${loadAverage()}`,
  );
  const seeded = seedLive(env, { companies: args.companies, keys: args.agents, workflows: 1 });
  const subjects = await activitySql(env, 'people');
  const fleet = seeded.agents.map((agent) => {
    const tenantId = seeded.companies[agent.company]?.tenantId ?? '';
    return { ...agent, statusId: subjects.statuses[tenantId], taskId: subjects.tasks[tenantId] };
  });
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
    const slices = split(fleet, workers.length);
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
        worker.tell({ type: 'run', seconds: args.seconds, resendEvery: args.resendEvery, spans: args.spans });
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
    const spans = sum('spans');
    const frames = sum('frames');
    const resentSpans = sum('resentSpans');
    const extended = sum('extended');
    /** @type {Record<string, number>} */
    const refused = {};
    for (const each of results)
      for (const [key, n] of Object.entries(each.refused)) refused[key] = (refused[key] ?? 0) + n;
    const latencies = results.flatMap((each) => each.latencies).sort((a, b) => a - b);
    const serverCpu = after.server.cpu - before.server.cpu;
    const machineBusy = (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total);
    const steady = perSecond.slice(2, -1).sort((a, b) => a - b);
    const fresh = spans - resentSpans - extended;
    console.log(
      `  ${spans.toLocaleString('en')} spans in ${frames.toLocaleString('en')} frames receipted in ${seconds.toFixed(1)} s: ` +
        `**${Math.round(spans / seconds).toLocaleString('en')} spans/s** (per second: median ${percentile(steady, 50)}, ` +
        `min ${steady[0] ?? 0}, max ${steady.at(-1) ?? 0}); of them ${fresh.toLocaleString('en')} new ` +
        `(${Math.round(fresh / seconds).toLocaleString('en')}/s), ${extended.toLocaleString('en')} ends moved, ` +
        `${resentSpans.toLocaleString('en')} resent unchanged` +
        (Object.keys(refused).length ? `; refused: ${JSON.stringify(refused)}` : '; none refused'),
    );
    console.log(
      `  receipt latency (a frame) p50 ${percentile(latencies, 50).toFixed(1)} / p95 ${percentile(latencies, 95).toFixed(1)} / ` +
        `p99 ${percentile(latencies, 99).toFixed(1)} / max ${(latencies.at(-1) ?? 0).toFixed(0)} ms; ` +
        `server CPU ${((serverCpu / seconds) * 100).toFixed(0)} % of a core (${((serverCpu * 1e6) / Math.max(1, spans)).toFixed(0)} µs a span), ` +
        (database ? `PostgreSQL backends ${((backendSeconds / seconds) * 100).toFixed(0)} %, ` : '') +
        `client processes ${(((after.clients - before.clients) / seconds) * 100).toFixed(0)} %; ` +
        `machine ${(machineBusy * 100).toFixed(0)} % busy; load ${before.load} → ${after.load}`,
    );
    if (Object.keys(refused).length) failures.push(`${label}: refused ${JSON.stringify(refused)}`);

    for (const worker of workers.splice(0)) await worker.stop();
    // The agents' going ends their open spans; the server stops once those are written.
    await server.stop();
    const checked = await activitySql(env, 'verify');
    console.log(
      `  rollups vs GROUP BY over the spans: ${checked.equal ? 'EQUAL' : 'DIFFERENT'} ` +
        `(${checked.spans.toLocaleString('en')} spans stored, ${fresh.toLocaleString('en')} new sent; ` +
        `${checked.closed.toLocaleString('en')} closed, ${checked.people} people, ` +
        `${checked.rollupRows.toLocaleString('en')} 15-minute rows; checked in ${checked.seconds.toFixed(1)} s)`,
    );
    if (!checked.equal) {
      failures.push(`${label}: rollups differ from the spans`);
      console.log(`  differences: ${JSON.stringify(checked.differences, null, 1)}`);
    }
    if (checked.spans !== fresh) failures.push(`${label}: ${checked.spans} spans stored, ${fresh} new sent`);
    if (checked.closed !== checked.spans) failures.push(`${label}: ${checked.spans - checked.closed} spans left open`);
  } finally {
    for (const worker of workers) await worker.stop();
    await server.stop();
  }
}

for (const backend of args.backends.split(',')) {
  if (backend === 'postgres') {
    const database = `opsdeck_bench_activity_${Date.now()}`;
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
    const made = mkdtempSync(path.join(tmpdir(), 'opsdeck-bench-activity-'));
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
