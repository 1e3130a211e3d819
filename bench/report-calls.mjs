// @ts-check
// The report calls on a database seeded by bench/seed-execution-logs.ts (10,000,000 logs on
// PostgreSQL, 1,000,000 on PGlite): starts the server on it (DEMO=0, LOG_LEVEL=warn), signs in as
// the biggest company's head and as the provider administrator (every company), and sends each
// call at a fixed rate (`--rate`, default 50 a second, open loop: a request leaves on its schedule
// whether or not the ones before have answered, at most `--in-flight` at a time) for `--seconds`
// (20) after a few requests one at a time: p50/p95/p99/max of the time from each request's
// scheduled start to the end of its answer, the rate kept, the server's CPU per request (on PGlite
// the database's too: it runs in the server's process), and "alone": the median of ten requests
// sent one at a time just before, the service time without queueing.
//
// - metrics, use-counts, total-hours (`--tz`, Europe/Berlin) of the current month of that zone up
//   to now, each checked against the same answer computed by a plain GROUP BY over the raw logs
//   (bench/report-sql.ts, run directly on the database before the server starts, `--sql-runs`
//   times): the table gives both times and their ratio;
// - exceptions and logs: page 1 of today, page 500 of the month (10 a page), and a search of the
//   month for a word some runs hold (`--hit`, default "timeout"), one most runs of a workflow hold
//   (`--common`, default "invoice": its total is capped) and one none does (`--miss`);
// - a CSV of the logs (`format=csv`) over whole UTC days holding at least 1,000,000 logs (of the
//   biggest company if it has them, else of every company): rows, rows per second, and the
//   server's RSS (/proc/<pid>/status, every 50 ms) before and at its peak during the download.
//
//   node bench/report-calls.mjs --database-url postgres://postgres@127.0.0.1:5432/opsdeck_bench_reports
//   node bench/report-calls.mjs --data-dir /tmp/opsdeck-reports-pglite
//
// BENCH_CPU_PROF=<directory> writes the server's CPU profile there. `--only <text>` runs the
// scenarios whose name (and role) holds it, or one of its |-separated texts (`--only csv`, `--only
// 'search|page 500'`, `--only "metrics, month admin"`). Answers other than 2xx, answers that differ from the GROUP BY, or a CSV short of its rows fail the run
// (exit code 1, after the last scenario). Everything it starts is killed when it exits.
import { spawnSync } from 'node:child_process';
import {
  loadAverage,
  median,
  ms,
  once,
  openLoop,
  processState,
  root,
  signedInHeaders,
  startOf,
  startServer,
  waitFor,
} from './lib.mjs';
import { AGENT_SECRET, options, serverNodeArgs, table } from './live-lib.mjs';

const args = options({
  databaseUrl: '',
  dataDir: '',
  rate: 50,
  seconds: 20,
  inFlight: 50,
  tz: 'Europe/Berlin',
  hit: 'timeout',
  miss: 'zzqx',
  common: 'invoice',
  only: '',
  sqlRuns: 5,
  port: 8393,
});
if (!args.databaseUrl === !args.dataDir)
  throw new Error('name the seeded database: --database-url URL or --data-dir DIR');
/** @type {Record<string, string>} */
const dbEnv = args.databaseUrl ? { DATABASE_URL: args.databaseUrl } : { DATA_DIR: args.dataDir };
const backend = args.databaseUrl ? 'PostgreSQL' : 'PGlite';
const HEAD_PASSWORD = 'bench-password';
const ADMIN = { email: 'admin@opsdeck.test', password: 'bench-admin' };
const base = `http://127.0.0.1:${args.port}`;
/** @type {string[]} */
const failures = [];
/** Whether `--only` (texts separated by |) takes the scenario of this name. */
const wanted = (/** @type {string} */ name) => args.only.split('|').some((part) => name.includes(part));

/**
 * Runs bench/report-sql.ts on the database (the server is not running then).
 * @param {string} command
 * @param {unknown} [input]
 */
function reportSql(command, input = {}) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/report-sql.ts', command, JSON.stringify(input)],
    {
      cwd: root,
      env: { ...process.env, ...dbEnv },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`report-sql ${command} failed:\n${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines.at(-1) ?? '{}');
}

const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) => JSON.stringify(a) === JSON.stringify(b);

// ----- the plan, and the plain GROUP BYs, straight on the database --------------------------------

const commit = spawnSync('git', ['log', '-1', '--format=%h %cd', '--date=format:%Y-%m-%d %H:%M'], {
  cwd: root,
  encoding: 'utf8',
});
const dirty = spawnSync('git', ['status', '--porcelain', '--', 'apps/server/src', 'packages/contract/src'], {
  cwd: root,
  encoding: 'utf8',
});
const changed = dirty.stdout
  .split('\n')
  .filter(Boolean)
  .map((line) => line.slice(3));
console.log(`server code: ${commit.stdout.trim()}${changed.length ? `; not committed: ${changed.join(', ')}` : ''}`);
const now = Date.now();
const monthFrom = startOf('month', now, args.tz);
const todayFrom = startOf('day', now, args.tz);
console.log(
  `${backend}: report calls, ${args.rate} req/s for ${args.seconds} s each (at most ${args.inFlight} in flight); ` +
    `month ${new Date(monthFrom).toISOString()} → now (${args.tz}); load average ${loadAverage()}`,
);
const plan = reportSql('plan', { to: now });
const big = plan.companies[0];
if (!big?.email) throw new Error('no company with a head: seed with bench/seed-execution-logs.ts first');
const totalLogs = plan.companies.reduce(
  (/** @type {number} */ sum, /** @type {{ logs: number }} */ c) => sum + c.logs,
  0,
);
console.log(
  `  ${plan.companies.length} companies, ${totalLogs.toLocaleString('en')} logs; the biggest: ${big.name} ` +
    `(${big.logs.toLocaleString('en')} logs, head ${big.email})`,
);

const wantsAggregates = ['metrics, month', 'use-counts, month', `total-hours, month, ${args.tz}`]
  .flatMap((name) => [`${name} head`, `${name} admin`])
  .some(wanted);
/** @type {Record<string, { metrics: any, useCounts: any, totalHours: any }>} */
const plain = {};
if (wantsAggregates) {
  const started = performance.now();
  const grouped = reportSql('group-by', {
    from: monthFrom,
    to: now,
    tz: args.tz,
    scopes: [big.tenantId, null],
    runs: args.sqlRuns,
  });
  for (const answer of grouped.answers) plain[answer.tenantId ?? 'all'] = answer;
  console.log(
    `  the plain GROUP BYs (${args.sqlRuns} runs each) took ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
      `load average ${loadAverage()}`,
  );
}

// ----- the server ---------------------------------------------------------------------------------

const server = startServer({
  port: args.port,
  ...(args.dataDir ? { dataDir: args.dataDir } : {}),
  env: { ...dbEnv, DEMO: '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: ADMIN.password, AGENT_SECRET },
  nodeArgs: serverNodeArgs(),
});
const pid = /** @type {number} */ (server.child.pid);
/** @type {(string | number)[][]} */
const rows = [
  ['scenario', 'who', 'rows', 'alone', 'p50', 'p95', 'p99', 'max', 'req/s', 'CPU/req', 'GROUP BY', 'ratio', 'load'],
];
try {
  const startedAt = performance.now();
  await waitFor(`${base}/api/health`, 300_000);
  console.log(
    `  server up in ${((performance.now() - startedAt) / 1000).toFixed(1)} s, RSS ${(processState(pid).rss / 2 ** 20).toFixed(0)} MiB`,
  );
  const who = {
    head: await signedInHeaders(args.port, { email: big.email, password: HEAD_PASSWORD }),
    admin: await signedInHeaders(args.port, ADMIN),
  };
  const month = `from=${monthFrom}&to=${now}`;
  const today = `from=${todayFrom}&to=${now}`;

  /**
   * @typedef {{ name: string, who: 'head' | 'admin', path: string,
   *   expected?: (body: any) => string | null, rows: (body: any) => number | string, plainMs?: number[] }} Scenario
   */
  /** @type {Scenario[]} */
  const scenarios = [];
  for (const role of /** @type {const} */ (['head', 'admin'])) {
    const reference = plain[role === 'head' ? big.tenantId : 'all'];
    scenarios.push(
      {
        name: 'metrics, month',
        who: role,
        path: `/api/report/agent/metrics?${month}`,
        expected: (body) =>
          !reference || same(body, reference.metrics.answer)
            ? null
            : `GROUP BY: ${JSON.stringify(reference.metrics.answer)}`,
        rows: (body) => body.completedWorkflowCount + body.failedWorkflowCount,
        plainMs: reference?.metrics.ms,
      },
      {
        name: 'use-counts, month',
        who: role,
        path: `/api/report/agent/use-counts?${month}`,
        expected: (body) =>
          !reference || same(body, reference.useCounts.answer)
            ? null
            : `GROUP BY: ${JSON.stringify(reference.useCounts.answer)}`,
        rows: (body) => body.length,
        plainMs: reference?.useCounts.ms,
      },
      {
        name: `total-hours, month, ${args.tz}`,
        who: role,
        path: `/api/report/agent/total-hours?${month}&tz=${encodeURIComponent(args.tz)}`,
        expected: (body) => {
          if (!reference) return null;
          const byDate = new Map(
            reference.totalHours.answer.map((/** @type {any} */ day) => [day.date, day.executionTime]),
          );
          const wrong = body.filter((/** @type {any} */ day) => (byDate.get(day.date) ?? 0) !== day.executionTime);
          return wrong.length === 0
            ? null
            : `${wrong.length} days differ from the GROUP BY, e.g. ${JSON.stringify(wrong[0])} vs ${byDate.get(wrong[0].date)}`;
        },
        rows: (body) => body.length,
        plainMs: reference?.totalHours.ms,
      },
    );
  }
  for (const role of /** @type {const} */ (['head', 'admin'])) {
    for (const list of ['exceptions', 'logs']) {
      const path = `/api/report/agent/${list}`;
      const total = (/** @type {any} */ body) => body.total;
      scenarios.push(
        { name: `${list}, page 1 of today`, who: role, path: `${path}?${today}&page=1&size=10`, rows: total },
        { name: `${list}, page 500 of the month`, who: role, path: `${path}?${month}&page=500&size=10`, rows: total },
        {
          name: `${list}, search "${args.hit}", month`,
          who: role,
          path: `${path}?${month}&page=1&size=10&search=${encodeURIComponent(args.hit)}&tz=${encodeURIComponent(args.tz)}`,
          rows: total,
        },
        {
          name: `${list}, search "${args.common}" (common), month`,
          who: role,
          path: `${path}?${month}&page=1&size=10&search=${encodeURIComponent(args.common)}&tz=${encodeURIComponent(args.tz)}`,
          rows: total,
        },
        {
          name: `${list}, search "${args.miss}" (none), month`,
          who: role,
          path: `${path}?${month}&page=1&size=10&search=${encodeURIComponent(args.miss)}&tz=${encodeURIComponent(args.tz)}`,
          rows: total,
        },
      );
    }
  }

  for (const scenario of scenarios.filter((entry) => wanted(`${entry.name} ${entry.who}`))) {
    const headers = who[scenario.who];
    const url = `${base}${scenario.path}`;
    // One at a time until it is no faster than the one before (what an earlier scenario left drained).
    let probe = await once(url, headers);
    for (let previous = Number.POSITIVE_INFINITY, tries = 0; probe.status === 200 && tries < 10; tries += 1) {
      probe = await once(url, headers);
      if (probe.ms >= previous * 0.8) break;
      previous = probe.ms;
    }
    const title = `${scenario.name} (${scenario.who})`;
    if (probe.status !== 200) {
      failures.push(`${title}: ${probe.status} ${JSON.stringify(probe.body).slice(0, 200)}`);
      console.log(`  ${title.padEnd(52)} FAILED: ${probe.status} ${JSON.stringify(probe.body).slice(0, 200)}`);
      continue;
    }
    // The service time alone: ten more requests one at a time.
    /** @type {number[]} */
    const alone = [];
    for (let i = 0; i < 10; i += 1) alone.push((await once(url, headers)).ms);
    const aloneMedian = median(alone);
    const wrong = scenario.expected?.(probe.body);
    if (wrong) failures.push(`${title}: answered ${JSON.stringify(probe.body).slice(0, 300)}; ${wrong}`);
    const load = loadAverage().split(' ')[0] ?? '';
    const result = await openLoop({
      url,
      headers,
      rate: args.rate,
      seconds: args.seconds,
      inFlight: args.inFlight,
      pid,
    });
    const bad = result.errors + result.notOk;
    if (bad > 0)
      failures.push(`${title}: ${result.notOk} not 2xx ${JSON.stringify(result.statuses)}, ${result.errors} failed`);
    const plainMedian = scenario.plainMs ? median(scenario.plainMs) : 0;
    const ratio = plainMedian ? plainMedian / result.p50 : 0;
    const ratioAlone = plainMedian ? plainMedian / aloneMedian : 0;
    const count = scenario.rows(probe.body);
    console.log(
      `  ${title.padEnd(52)} ${String(typeof count === 'number' ? count.toLocaleString('en') : count).padStart(9)}  ` +
        `alone ${ms(aloneMedian).padStart(6)}  p50 ${ms(result.p50).padStart(6)}  p95 ${ms(result.p95).padStart(6)}  p99 ${ms(result.p99).padStart(6)}  ` +
        `max ${ms(result.max).padStart(6)} ms  ${result.rate.toFixed(1)} req/s` +
        (result.skipped ? ` (${result.skipped} skipped)` : '') +
        `  CPU ${result.cpuMs.toFixed(1)} ms/req` +
        (plainMedian
          ? `  GROUP BY ${ms(plainMedian)} ms (×${ratio.toFixed(0)} of p50, ×${ratioAlone.toFixed(0)} alone)`
          : '') +
        (wrong ? '  ANSWER DIFFERS' : scenario.expected ? '  = GROUP BY' : '') +
        (bad ? `  FAILED: ${bad}` : '') +
        `  load ${load}`,
    );
    rows.push([
      scenario.name,
      scenario.who,
      typeof count === 'number' ? count.toLocaleString('en') : count,
      ms(aloneMedian),
      ms(result.p50),
      ms(result.p95),
      ms(result.p99),
      ms(result.max),
      result.rate.toFixed(1),
      result.cpuMs.toFixed(1),
      plainMedian ? ms(plainMedian) : '',
      plainMedian ? `×${ratio.toFixed(0)} (×${ratioAlone.toFixed(0)} alone)` : '',
      load,
    ]);
  }

  // ----- the CSV ----------------------------------------------------------------------------------
  if (wanted('csv')) {
    const { csv } = plan;
    const role = csv.tenantId ? 'head' : 'admin';
    const url = `${base}/api/report/agent/logs?from=${csv.from}&to=${csv.to}&format=csv`;
    const before = processState(pid);
    let peak = before.rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, processState(pid).rss);
    }, 50);
    const started = performance.now();
    let bytes = 0;
    let lines = 0;
    let firstByte = 0;
    try {
      const response = await fetch(url, { headers: who[role] });
      if (!response.ok || !response.body) throw new Error(`${response.status} ${await response.text()}`);
      for await (const chunk of response.body) {
        if (!firstByte) firstByte = performance.now() - started;
        bytes += chunk.byteLength;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const after = processState(pid);
    const records = lines - 1;
    if (records !== csv.rows) failures.push(`CSV: ${records} rows, the range holds ${csv.rows}`);
    const growth = (peak - before.rss) / 2 ** 20;
    console.log(
      `  CSV of the logs (${role}, ${new Date(csv.from).toISOString().slice(0, 10)} → now): ${records.toLocaleString('en')} rows` +
        ` (${csv.rows.toLocaleString('en')} in the range), ${(bytes / 2 ** 20).toFixed(0)} MiB in ${seconds.toFixed(1)} s:` +
        ` ${Math.round(records / seconds).toLocaleString('en')} rows/s, first byte ${ms(firstByte)} ms;` +
        ` RSS ${(before.rss / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB (+${growth.toFixed(0)} MiB),` +
        ` CPU ${(after.cpu - before.cpu).toFixed(1)} s; load ${loadAverage()}`,
    );
    rows.push([
      `CSV, ${records.toLocaleString('en')} rows`,
      role,
      `${(bytes / 2 ** 20).toFixed(0)} MiB`,
      '',
      `${seconds.toFixed(1)} s`,
      `${Math.round(records / seconds).toLocaleString('en')} rows/s`,
      `RSS +${growth.toFixed(0)} MiB`,
      '',
      '',
      '',
      '',
      '',
      loadAverage().split(' ')[0] ?? '',
    ]);
  }
} finally {
  await server.stop();
}

console.log(`\n${table(rows)}\nload average at the end: ${loadAverage()}`);
if (failures.length > 0) {
  console.error(`\n${failures.length} scenario(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
