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
import { loadAverage, onEachBackend, percentile, startServer, waitFor } from './lib.mjs';
import {
  benchSql,
  costLine,
  ingestRound,
  liveUrl,
  options,
  seedLive,
  serverEnv,
  serverNodeArgs,
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

/** bench/report-sql.ts `verify` on the database of `env` (the server stopped). */
const verify = (/** @type {Record<string, string>} */ env) => benchSql('bench/report-sql.ts', 'verify', env);

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
  try {
    await waitFor(`http://127.0.0.1:${args.port}/api/health`);
    await waitForLive(liveUrl(args.port));
    const round = await ingestRound({
      script: 'bench/ingest-worker.mjs',
      counted: 'receipts',
      port: args.port,
      workers: args.workers,
      agents: seeded.agents,
      run: { seconds: args.seconds, resendEvery: args.resendEvery },
      pid: /** @type {number} */ (server.child.pid),
      env,
    });
    if (round.failedConnects) failures.push(`${label}: ${round.failedConnects} agents could not connect`);
    const { seconds, sum, refused, steady } = round;
    const receipts = sum('receipts');
    const resends = sum('resends');
    console.log(
      `  ${receipts.toLocaleString('en')} reports acknowledged in ${seconds.toFixed(1)} s: ` +
        `**${Math.round(receipts / seconds).toLocaleString('en')}/s** (per second: median ${percentile(steady, 50)}, ` +
        `min ${steady[0] ?? 0}, max ${steady.at(-1) ?? 0}); ${resends} of them resends` +
        (Object.keys(refused).length ? `; refused: ${JSON.stringify(refused)}` : '; none refused'),
    );
    console.log(costLine(round, receipts, 'report'));
    if (Object.keys(refused).length) failures.push(`${label}: refused ${JSON.stringify(refused)}`);

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
    await server.stop();
  }
}

await onEachBackend('ingest', measure, {
  backends: args.backends,
  serverUrl: args.serverUrl,
  keep: Boolean(args.keep),
});

if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
