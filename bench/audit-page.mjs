// @ts-check
// The audit page (GET /api/audit, issue 19) over a database seeded by bench/seed-audit.ts
// (5,000,000 records over two years, 50 companies): starts the server on it (DEMO=0,
// LOG_LEVEL=warn, the provider admin's password set), signs in as the provider admin (every
// company's records) and as the head of the biggest company (head1@audit.bench.test, 20 % of the
// records), and sends each page at a fixed rate (`--rate`, default 20 a second, open loop: a request
// leaves on its schedule whether or not the ones before have answered, at most `--in-flight` at a
// time) for `--seconds` (20), after a few requests one at a time: p50/p95/p99/max from each
// request's scheduled start to the end of its answer, the rate kept, the server's CPU per request,
// and "alone", the median of ten requests sent one at a time just before (the service time
// without queueing). Ten records a page, as the console asks. For each of the two:
//
// - page 1 and page 50, newest first, no filter;
// - a search for a word many names hold (`--common`, default "tanaka": a last name, in about one
//   record in ten: the total is capped at 10,000), one fewer hold (`--rare`, default
//   "unattended": a licence's name, about one in a hundred and twenty) and one none does (`--miss`);
// - a filter by action (`--action`, default user.update), by actor (the head's user id: one actor of
//   thirty of the big company) and by entity (`entityType=workflow&entityId=` the big company's
//   workflow 1042: a few hundred records).
//
//   node bench/audit-page.mjs --database-url postgres://postgres@127.0.0.1:5432/opsdeck_bench_audit
//
// `--only <text>` runs the scenarios whose name (and role) holds it, or one of its |-separated
// texts. BENCH_CPU_PROF=<directory> writes the server's CPU profile there. Answers other than 2xx
// fail the run (exit code 1, after the last scenario). Everything it starts is killed when it exits.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { loadAverage, median, ms, once, openLoop, root, signedInHeaders, startServer, waitFor } from './lib.mjs';
import { AGENT_SECRET, options, serverNodeArgs, table } from './live-lib.mjs';

const args = options({
  databaseUrl: '',
  rate: 20,
  seconds: 20,
  inFlight: 20,
  common: 'tanaka',
  rare: 'unattended',
  miss: 'zzqx',
  action: 'user.update',
  entity: 'workflow:1042',
  only: '',
  port: 8394,
});
if (!args.databaseUrl) throw new Error('name the seeded database: --database-url URL');
const HEAD = { email: 'head1@audit.bench.test', password: 'bench-password' };
const ADMIN = { email: 'admin@opsdeck.test', password: 'bench-admin-password' };
const base = `http://127.0.0.1:${args.port}`;
/** @type {string[]} */
const failures = [];
/** Whether `--only` (texts separated by |) takes the scenario of this name. */
const wanted = (/** @type {string} */ name) => args.only.split('|').some((part) => name.includes(part));

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

// The head of the big company and the size of the log, straight from the database.
const client = new pg.Client({ connectionString: args.databaseUrl });
await client.connect();
const head = (
  await client.query(
    `select u.id, u.tenant_id as "tenantId", c.name,
       (select count(*)::int from audit_log a where a.tenant_id = u.tenant_id) as records,
       (select count(*)::int from audit_log) as "allRecords"
     from users u join companies c on c.tenant_id = u.tenant_id where u.email_address = $1`,
    [HEAD.email],
  )
).rows[0];
await client.end();
if (!head) throw new Error(`no ${HEAD.email}: seed with bench/seed-audit.ts first`);
console.log(
  `PostgreSQL: the audit page, ${args.rate} req/s for ${args.seconds} s each (at most ${args.inFlight} in flight); ` +
    `${head.allRecords.toLocaleString('en')} records, ${head.name} ${head.records.toLocaleString('en')} ` +
    `(head ${HEAD.email}, user ${head.id}); load average ${loadAverage()}`,
);

const server = startServer({
  port: args.port,
  env: {
    DATABASE_URL: args.databaseUrl,
    DEMO: '0',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: ADMIN.password,
    AGENT_SECRET,
  },
  nodeArgs: serverNodeArgs(),
});
const pid = /** @type {number} */ (server.child.pid);
/** @type {(string | number)[][]} */
const rows = [['scenario', 'who', 'total', 'alone', 'p50', 'p95', 'p99', 'max', 'req/s', 'CPU/req', 'load']];
try {
  const startedAt = performance.now();
  await waitFor(`${base}/api/health`, 300_000);
  console.log(`  server up in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  const who = { admin: await signedInHeaders(args.port, ADMIN), head: await signedInHeaders(args.port, HEAD) };
  const [entityType, entityId] = args.entity.split(':');
  /** @type {[string, string][]} */
  const pages = [
    ['page 1', 'page=1&size=10'],
    ['page 50', 'page=50&size=10'],
    [`search "${args.common}" (common)`, `page=1&size=10&search=${encodeURIComponent(args.common)}`],
    [`search "${args.rare}" (rare)`, `page=1&size=10&search=${encodeURIComponent(args.rare)}`],
    [`search "${args.miss}" (none)`, `page=1&size=10&search=${encodeURIComponent(args.miss)}`],
    [`action ${args.action}`, `page=1&size=10&action=${encodeURIComponent(args.action)}`],
    [`actor ${head.id} (the head)`, `page=1&size=10&actor=${head.id}`],
    [
      `entity ${entityType} ${entityId}`,
      `page=1&size=10&entityType=${encodeURIComponent(entityType ?? '')}&entityId=${encodeURIComponent(entityId ?? '')}`,
    ],
  ];
  for (const role of /** @type {const} */ (['admin', 'head'])) {
    for (const [name, query] of pages) {
      const title = `${name} (${role})`;
      if (!wanted(title)) continue;
      const url = `${base}/api/audit?${query}`;
      const headers = who[role];
      // One at a time until it is no faster than the one before (what an earlier scenario left drained).
      let probe = await once(url, headers);
      for (let previous = Number.POSITIVE_INFINITY, tries = 0; probe.status === 200 && tries < 10; tries += 1) {
        probe = await once(url, headers);
        if (probe.ms >= previous * 0.8) break;
        previous = probe.ms;
      }
      if (probe.status !== 200) {
        failures.push(`${title}: ${probe.status} ${JSON.stringify(probe.body).slice(0, 200)}`);
        console.log(`  ${title.padEnd(44)} FAILED: ${probe.status} ${JSON.stringify(probe.body).slice(0, 200)}`);
        continue;
      }
      /** @type {number[]} */
      const alone = [];
      for (let i = 0; i < 10; i += 1) alone.push((await once(url, headers)).ms);
      const aloneMedian = median(alone);
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
      const total = `${probe.body.total.toLocaleString('en')}${probe.body.totalCapped ? '+' : ''}`;
      console.log(
        `  ${title.padEnd(44)} ${total.padStart(7)}  alone ${ms(aloneMedian).padStart(6)}  p50 ${ms(result.p50).padStart(6)}  ` +
          `p95 ${ms(result.p95).padStart(6)}  p99 ${ms(result.p99).padStart(6)}  max ${ms(result.max).padStart(6)} ms  ` +
          `${result.rate.toFixed(1)} req/s${result.skipped ? ` (${result.skipped} skipped)` : ''}  ` +
          `CPU ${result.cpuMs.toFixed(1)} ms/req${bad ? `  FAILED: ${bad}` : ''}  load ${load}`,
      );
      rows.push([
        name,
        role,
        total,
        ms(aloneMedian),
        ms(result.p50),
        ms(result.p95),
        ms(result.p99),
        ms(result.max),
        result.rate.toFixed(1),
        result.cpuMs.toFixed(1),
        load,
      ]);
    }
  }
} finally {
  await server.stop();
}

console.log(`\n${table(rows)}\nload average at the end: ${loadAverage()}`);
if (failures.length > 0) {
  console.error(`\n${failures.length} scenario(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
