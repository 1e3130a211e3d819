// @ts-check
// The sixteen monitor widgets on a database seeded by bench/seed-activity.ts (1,000 people × 30
// days on PostgreSQL, 100 × 30 on PGlite): starts the server on it (DEMO=0, LOG_LEVEL=warn), signs
// in as the company's head (head@monitor.bench.test), and for each widget and case sends
// `GET /api/report/monitor/{key}?from&to&tz` at a fixed rate (`--rate`, default 10 a second, open
// loop, at most `--in-flight` at a time) for `--seconds` (5), after a few requests one at a time:
// p50/p95/p99/max from each request's scheduled start to the end of its answer, the server's CPU
// per request (on PGlite the database's too), and "alone", the median of five requests one at a
// time. The range is the last `--days` days (30) of `--tz` (Europe/Berlin) up to now: from the
// first millisecond of the day `days - 1` days before today to now. Cases:
//
// - company: no filter (the rollups' company rows, person 0);
// - person: `user=` the first seeded person (person1@monitor.bench.test);
// - department: `department=` Finance (a quarter of the people).
//
//   node bench/monitor-widgets.mjs --database-url postgres://postgres@127.0.0.1:5432/monitor_bench
//   node bench/monitor-widgets.mjs --data-dir /tmp/opsdeck-monitor
//
// `--only <text>` runs the widgets and cases whose "key case" holds one of its |-separated texts
// (`--only hourly`, `--only 'company|person'`). `--json FILE` writes the figures. Answers other
// than 2xx fail the run (exit code 1, after the last). Everything it starts is killed on exit.
import { writeFileSync } from 'node:fs';
import { loadAverage, openLoop, processState, signedInHeaders, startOf, startServer, waitFor } from './lib.mjs';
import { AGENT_SECRET, options, serverNodeArgs, table } from './live-lib.mjs';

const args = options({
  databaseUrl: '',
  dataDir: '',
  rate: 10,
  seconds: 5,
  inFlight: 20,
  days: 30,
  tz: 'Europe/Berlin',
  only: '',
  json: '',
  port: 8394,
});
if (!args.databaseUrl === !args.dataDir)
  throw new Error('name the seeded database: --database-url URL or --data-dir DIR');
/** @type {Record<string, string>} */
const dbEnv = args.databaseUrl ? { DATABASE_URL: String(args.databaseUrl) } : { DATA_DIR: String(args.dataDir) };
const backend = args.databaseUrl ? 'PostgreSQL' : 'PGlite';
const HEAD = { email: 'head@monitor.bench.test', password: 'bench-password' };
const base = `http://127.0.0.1:${args.port}`;
const WIDGETS = [
  'active_users',
  'hourly_activity',
  'top_applications',
  'application_frequency',
  'application_duration',
  'top_statuses',
  'status_summary',
  'top_tasks',
  'task_productivity',
  'employee_login_hours',
  'attendance_and_tardiness',
  'employee_utilization',
  'break_adherence',
  'action_timeline',
  'application_timeline',
  'alerts',
];
/** @type {string[]} */
const failures = [];
const wanted = (/** @type {string} */ name) =>
  String(args.only)
    .split('|')
    .some((part) => name.includes(part));
const ms = (/** @type {number} */ value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const median = (/** @type {number[]} */ values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const now = Date.now();
const from = startOf('day', now - (Number(args.days) - 1) * 86_400_000, String(args.tz));
console.log(
  `${backend}: the monitor widgets, ${args.rate} req/s for ${args.seconds} s each (at most ${args.inFlight} in flight); ` +
    `${new Date(from).toISOString()} → now (${args.tz}); load average ${loadAverage()}`,
);

const server = startServer({
  port: Number(args.port),
  ...(args.dataDir ? { dataDir: String(args.dataDir) } : {}),
  env: { ...dbEnv, DEMO: '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bench-admin', AGENT_SECRET },
  nodeArgs: serverNodeArgs(),
});
const pid = /** @type {number} */ (server.child.pid);
/** @type {(string | number)[][]} */
const rows = [['widget', 'case', 'rows', 'alone', 'p50', 'p95', 'p99', 'max', 'req/s', 'CPU/req', 'load']];
/** @type {Record<string, unknown>[]} */
const figures = [];
try {
  await waitFor(`${base}/api/health`, 300_000);
  const headers = await signedInHeaders(Number(args.port), HEAD);
  const people = await (await fetch(`${base}/api/user/getActiveUsers/false`, { headers })).json();
  const list = Array.isArray(people) ? people : (people.content ?? people.items ?? []);
  const person = list.find((/** @type {any} */ user) =>
    String(user.emailAddress ?? user.email ?? '').startsWith('person1@'),
  );
  const departments = await (await fetch(`${base}/api/department`, { headers })).json();
  const departmentList = Array.isArray(departments) ? departments : (departments.content ?? departments.items ?? []);
  const department = departmentList.find((/** @type {any} */ each) => each.name === 'Finance');
  if (!person || !department) throw new Error('no person1 or Finance: seed with bench/seed-activity.ts first');
  const cases = [
    { name: 'company', filter: '' },
    { name: 'person', filter: `&user=${person.id}` },
    { name: 'department', filter: `&department=${department.id}` },
  ];
  for (const widget of WIDGETS) {
    for (const each of cases) {
      const title = `${widget} ${each.name}`;
      if (!wanted(title)) continue;
      const url = `${base}/api/report/monitor/${widget}?from=${from}&to=${now}&tz=${encodeURIComponent(String(args.tz))}${each.filter}`;
      const once = async () => {
        const started = performance.now();
        const response = await fetch(url, { headers });
        const text = await response.text();
        return { status: response.status, text, ms: performance.now() - started };
      };
      let probe = await once();
      for (let previous = Number.POSITIVE_INFINITY, tries = 0; probe.status === 200 && tries < 5; tries += 1) {
        probe = await once();
        if (probe.ms >= previous * 0.8) break;
        previous = probe.ms;
      }
      if (probe.status !== 200) {
        failures.push(`${title}: ${probe.status} ${probe.text.slice(0, 200)}`);
        console.log(`  ${title.padEnd(40)} FAILED: ${probe.status} ${probe.text.slice(0, 200)}`);
        continue;
      }
      const body = JSON.parse(probe.text);
      const count = Array.isArray(body) ? body.length : 1;
      /** @type {number[]} */
      const alone = [];
      for (let i = 0; i < 5; i += 1) alone.push((await once()).ms);
      const load = loadAverage().split(' ')[0] ?? '';
      const result = await openLoop({
        url,
        headers,
        rate: Number(args.rate),
        seconds: Number(args.seconds),
        inFlight: Number(args.inFlight),
        pid,
      });
      const bad = result.errors + result.notOk;
      if (bad > 0) failures.push(`${title}: ${result.notOk} not 2xx, ${result.errors} failed`);
      console.log(
        `  ${title.padEnd(40)} ${String(count).padStart(6)}  alone ${ms(median(alone)).padStart(6)}  ` +
          `p50 ${ms(result.p50).padStart(6)}  p95 ${ms(result.p95).padStart(6)}  p99 ${ms(result.p99).padStart(6)}  ` +
          `max ${ms(result.max).padStart(6)} ms  ${result.rate.toFixed(1)} req/s` +
          (result.skipped ? ` (${result.skipped} skipped)` : '') +
          `  CPU ${result.cpuMs.toFixed(1)} ms/req${bad ? `  FAILED: ${bad}` : ''}  load ${load}`,
      );
      rows.push([
        widget,
        each.name,
        count,
        ms(median(alone)),
        ms(result.p50),
        ms(result.p95),
        ms(result.p99),
        ms(result.max),
        result.rate.toFixed(1),
        result.cpuMs.toFixed(1),
        load,
      ]);
      figures.push({ widget, case: each.name, rows: count, alone: median(alone), ...result, load });
    }
  }
  console.log(`  server RSS ${(processState(pid).rss / 2 ** 20).toFixed(0)} MiB`);
} finally {
  await server.stop();
}

console.log(`\n${table(rows)}\nload average at the end: ${loadAverage()}`);
if (args.json) writeFileSync(String(args.json), JSON.stringify({ backend, from, to: now, figures }, null, 2));
if (failures.length > 0) {
  console.error(`\n${failures.length} call(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
