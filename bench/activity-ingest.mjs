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
// BENCH_SERVER_LOG=FILE keeps the server's log there (LOG_LEVEL=warn: its failures only).
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
  spans: 50,
  port: 8394,
  serverUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  keep: 0,
});
/** @type {string[]} */
const failures = [];

/** A bench/activity-sql.ts command on the database of `env`. */
const activitySql = (/** @type {Record<string, string>} */ env, /** @type {string} */ command) =>
  benchSql('bench/activity-sql.ts', command, env);

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
    ...(process.env.BENCH_SERVER_LOG ? { logFile: process.env.BENCH_SERVER_LOG } : {}),
  });
  try {
    await waitFor(`http://127.0.0.1:${args.port}/api/health`);
    await waitForLive(liveUrl(args.port));
    const round = await ingestRound({
      script: 'bench/activity-worker.mjs',
      counted: 'spans',
      port: args.port,
      workers: args.workers,
      agents: fleet,
      run: { seconds: args.seconds, resendEvery: args.resendEvery, spans: args.spans },
      pid: /** @type {number} */ (server.child.pid),
      env,
    });
    if (round.failedConnects) failures.push(`${label}: ${round.failedConnects} agents could not connect`);
    const { seconds, sum, refused, steady } = round;
    const spans = sum('spans');
    const frames = sum('frames');
    const resentSpans = sum('resentSpans');
    const extended = sum('extended');
    const fresh = spans - resentSpans - extended;
    console.log(
      `  ${spans.toLocaleString('en')} spans in ${frames.toLocaleString('en')} frames receipted in ${seconds.toFixed(1)} s: ` +
        `**${Math.round(spans / seconds).toLocaleString('en')} spans/s** (per second: median ${percentile(steady, 50)}, ` +
        `min ${steady[0] ?? 0}, max ${steady.at(-1) ?? 0}); of them ${fresh.toLocaleString('en')} new ` +
        `(${Math.round(fresh / seconds).toLocaleString('en')}/s), ${extended.toLocaleString('en')} ends moved, ` +
        `${resentSpans.toLocaleString('en')} resent unchanged` +
        (Object.keys(refused).length ? `; refused: ${JSON.stringify(refused)}` : '; none refused'),
    );
    console.log(costLine(round, spans, 'span'));
    if (Object.keys(refused).length) failures.push(`${label}: refused ${JSON.stringify(refused)}`);

    // The agents have gone (their open spans end at their last word); the server stops once those are written.
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
    await server.stop();
  }
}

await onEachBackend('activity', measure, {
  backends: args.backends,
  serverUrl: args.serverUrl,
  keep: Boolean(args.keep),
});

if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
