// Fills a database with execution logs for the report benchmarks (bench/report-calls.mjs), in bulk
// through SQL rather than the live channel: `--companies` companies (default 50), each with a head
// (a Company Administrator who signs in as head<n>@reports.bench.test / bench-password; company 1
// is the big one), four departments, `--workflows` workflows (default 8) and licence keys (accounts;
// `--keys` per company, `--big-keys` for the big one); then `--logs` execution logs (default
// 1,000,000) whose runs end over the last `--months` months (default 13) up to now, `--big-share`
// of them (default half) the big company's, the rest spread over the others: about 8 % faulted
// (with an error message and activity), 1.5 % unknown, runs of 20 s to an hour; and queued runs
// (`--queued`, a share of the logs, default 0.2) over the same months. Then the rollups, summed by
// the server's own `rebuildRollups`, and VACUUM ANALYZE. Each phase is timed and printed.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/opsdeck_bench_reports \
//     node --import tsx bench/seed-execution-logs.ts --logs 10000000 --companies 50
//   DATA_DIR=/tmp/opsdeck-reports node --import tsx bench/seed-execution-logs.ts --logs 1000000
//
// The logs of a month go into a table of their own first, without indexes, one `insert … select …
// from generate_series` of at most `--chunk` rows (default 500,000) at a time; the table is then
// attached as the month's partition of execution_logs (named as opsdeck_month_partition names it),
// which builds its indexes in one sort each and checks its foreign keys: much faster than keeping
// nine indexes row by row. A month whose partition exists already (a server made it) is filled
// through the partitioned table instead. Every value but the ids comes from a hash of the row's
// number, so two seeds of one size and `--now` hold the same runs. The database must hold no
// execution logs yet. PGlite has no lock between processes: never seed while a server has the
// directory open.
import { sql } from 'drizzle-orm';
import { selectRows } from '../apps/server/src/db/client';
import { blobs } from '../apps/server/src/db/schema';
import { logPartitions, rebuildRollups } from '../apps/server/src/modules/execution-logs/rollups';
import { sha256Of } from '../apps/server/src/modules/workflows/blob-store';
import { ensureTreeRoot, insertDirectory } from '../apps/server/src/modules/workflows/queries';
import { runScriptAsOwner } from '../apps/server/src/platform/tenancy';
import { openSeedDatabase, phaseClock, seedCompanyWithHead, seedOptions, words } from './seed-lib';

const defaults = {
  logs: 1_000_000,
  companies: 50,
  months: 13,
  workflows: 8,
  keys: 20,
  bigKeys: 200,
  bigShare: 0.5,
  queued: 0.2,
  chunk: 500_000,
  now: 0,
  /** 0: leave the rollups to a later `npm run rebuild-rollups` (then VACUUM ANALYZE again). */
  rollups: 1,
};
const options = seedOptions(defaults, process.argv.slice(2));
const DAY = 86_400_000;
const now = options.now || Date.now();
const logCount = Math.floor(options.logs);
const companyCount = Math.max(1, Math.floor(options.companies));
const workflowsPerCompany = Math.max(1, Math.floor(options.workflows));
/** The runs end over [first, now]; a run lasts 20 s to an hour, so it starts at most an hour before. */
const first = now - Math.round(options.months * 30.44 * DAY);
const MIN_RUN_MS = 20_000;
const MAX_RUN_MS = 3_600_000;
const HEAD_PASSWORD = 'bench-password';

const workflowNames = [
  'Invoice processing',
  'Payroll export',
  'Customer onboarding',
  'Order reconciliation',
  'Supplier master sync',
  'Bank statement import',
  'Ticket triage',
  'Monthly report distribution',
  'Claims intake',
  'Purchase order approval',
  'Inventory count upload',
  'Credit check',
];
const prefixes = ['Northwind', 'Blue Ridge', 'Silverline', 'Redwood', 'Summit', 'Harbor', 'Granite', 'Evergreen'];
const trades = ['Freight', 'Health', 'Insurance', 'Bank', 'Telecom', 'Energy', 'Foods'];
const suffixes = ['Holdings', 'Group', 'Inc', 'Ltd', 'Partners'];
const industries = ['logistics', 'healthcare', 'insurance', 'banking', 'telecommunications', 'energy', 'retail'];
const firstNames = ['James', 'Maria', 'Wei', 'Fatima', 'Lucas', 'Aiko', 'Noah', 'Priya', 'Omar', 'Elena', 'Kofi'];
const lastNames = ['Anderson', 'Santos', 'Chen', 'Haddad', 'Moreau', 'Tanaka', 'Okafor', 'Schmidt', 'Novak'];
const departmentNames = ['Operations', 'Finance', 'Customer Care', 'IT'];
const ouis = ['F8:BC:12', '3C:52:82', 'A4:5E:60', '54:EE:75', '9C:B6:D0', '00:1B:54', '00:E0:4C'];
/** What a faulted run reports: the error and the activity it happened in. */
const errors: [string, string][] = [
  ["Timeout waiting for window 'SAP Logon 770' after 30 s", 'sap-login'],
  ['Element not found: button#submit-invoice', 'click'],
  ['Login failed for user svc_rpa: password expired', 'open-browser'],
  ['File not found: \\\\fs01\\finance\\inbox\\statement.csv', 'read-file'],
  ['Excel workbook is locked by another user (payroll.xlsx)', 'excel-read'],
  ['HTTP 503 Service Unavailable from https://erp.internal/api/orders', 'http-request'],
  ['Selector did not match: table.results tbody tr', 'extract-table'],
  ['Unexpected dialog: your session has expired', 'type-into'],
  ['Credential vault returned no secret for mailbox ap-invoices', 'get-credential'],
  ['PDF could not be parsed: page 3 is an image', 'read-pdf'],
  ['Mail server refused the connection (SMTP 421)', 'send-email'],
  ['Browser process ran out of memory', 'open-browser'],
];

// Seeding is the owner's work (docs/tenancy.md): every company's rows in bulk, VACUUM.
runScriptAsOwner();
const database = await openSeedDatabase();
const { db } = database;
const isPglite = database.kind === 'pglite';
const { started, seconds, phase, restart } = phaseClock();

const [{ existing } = { existing: 0 }] = await selectRows<{ existing: number }>(
  db,
  sql`select count(*)::int as existing from (select 1 from execution_logs limit 1) as any_log`,
);
if (Number(existing) > 0) throw new Error('this database holds execution logs already: seed a fresh one');

console.log(
  `seeding ${logCount.toLocaleString('en')} execution logs over ${options.months} months, ${companyCount} companies ` +
    `(the first with ${Math.round(options.bigShare * 100)} %) into ${database.kind}`,
);

// ----- companies, heads, departments, workflows, keys -----------------------------------------------

// One small workflow file for every workflow's version 1 (reports never read it).
const rax = Buffer.from('PK\u0005\u0006'.padEnd(22, '\u0000'));
const sha256 = sha256Of(rax);
await db.insert(blobs).values({ sha256, size: rax.byteLength, content: rax, createdAt: now }).onConflictDoNothing();

await db.execute(sql`drop table if exists bench_seed_accounts, bench_seed_workflows, bench_seed_errors`);
await db.execute(sql`create table bench_seed_accounts (company int, n int, account_id int, tenant_id uuid,
  company_id int, company_name text, department_id int, department_name text, first_name text, last_name text,
  email text, mac text, hostname text, primary key (company, n))`);
await db.execute(sql`create table bench_seed_workflows (company int, n int, workflow_id int, name text,
  primary key (company, n))`);
await db.execute(sql`create table bench_seed_errors (n int primary key, message text, activity text)`);
for (const [n, [message, activity]] of errors.entries()) {
  await db.execute(sql`insert into bench_seed_errors (n, message, activity) values (${n}, ${message}, ${activity})`);
}

const companiesOut: { index: number; tenantId: string; companyId: number; name: string; email: string }[] = [];
for (let c = 0; c < companyCount; c += 1) {
  const name =
    `${prefixes[c % prefixes.length]} ${trades[c % trades.length]} ${suffixes[c % suffixes.length]}` +
    (c >= prefixes.length * trades.length ? ` ${c + 1}` : '');
  const email = `head${c + 1}@reports.bench.test`;
  const { tenantId, companyId, headId } = await seedCompanyWithHead(
    db,
    { name, industry: industries[c % industries.length]! },
    { firstName: 'Report', lastName: `Head ${c + 1}`, email, password: HEAD_PASSWORD },
  );
  companiesOut.push({ index: c, tenantId, companyId, name, email });
  await db.execute(sql`
    insert into departments (tenant_id, name, head_id, created_at)
    select ${tenantId}::uuid, d.name, ${headId}, ${now}::bigint from unnest(${words(departmentNames)}) as d(name)`);

  const root = await ensureTreeRoot(db, tenantId);
  const directory = await insertDirectory(db, root, { name: 'Reports', userId: headId, now });
  const names = Array.from(
    { length: workflowsPerCompany },
    (_, w) =>
      `${workflowNames[(c + w) % workflowNames.length]}${w >= workflowNames.length ? ` ${Math.floor(w / workflowNames.length) + 1}` : ''}`,
  );
  await db.execute(sql`
    insert into workflows (tenant_id, directory_id, name, description, file_name, size, activity_keys, archived,
      created_at, created_by, updated_at, updated_by)
    select ${tenantId}::uuid, ${directory.id}, w.name, 'Runs on the agents', 'workflow-' || w.n || '.rax', ${rax.byteLength},
      array['open-browser', 'click'], false, ${first - DAY}::bigint, ${headId}, ${first - DAY}::bigint, ${headId}
    from unnest(${words(names.map((each) => each.replaceAll("'", '')))}) with ordinality as w(name, n)`);
  await db.execute(sql`
    insert into workflow_versions (workflow_id, tenant_id, number, file_name, size, sha256, activity_keys, steps,
      created_at, created_by)
    select w.id, w.tenant_id, 1, w.file_name, w.size, ${sha256}, w.activity_keys, 2, w.created_at, w.created_by
    from workflows w where w.directory_id = ${directory.id}`);
  await db.execute(sql`
    insert into bench_seed_workflows (company, n, workflow_id, name)
    select ${c}, (row_number() over (order by w.id) - 1)::int, w.id, w.name from workflows w where w.directory_id = ${directory.id}`);

  // Keys: licences of at most 100 seats, each key named, with a department, an e-mail and a MAC address.
  const keyCount = Math.max(1, Math.floor(c === 0 ? options.bigKeys : options.keys));
  for (let done = 0; done < keyCount; done += 100) {
    const size = Math.min(100, keyCount - done);
    await db.execute(sql`
      with licence as (
        insert into licenses (company_id, tenant_id, type_key, label, issue_date, expiration_date, max_accounts, created_at)
        values (${companyId}, ${tenantId}::uuid, 'enterprise', ${`Robots ${done / 100 + 1}`}, ${first - DAY}::bigint,
          ${now + 365 * DAY}::bigint, 100, ${first - DAY}::bigint)
        returning id
      )
      insert into accounts (license_id, tenant_id, solo, department_id, department_name, key_digest, partial_key,
        full_name, email_address, mac_addresses, hostname, created_at)
      select licence.id, ${tenantId}::uuid, false, d.id, d.name,
        encode(sha256(convert_to('bench-report-key-' || ${c} || '-' || k, 'UTF8')), 'hex'),
        'ODK-' || upper(substr(md5(${c} || '-' || k), 1, 4)) || '-…-' || upper(substr(md5(${c} || '-' || k), 29, 4)),
        f[1 + (k * 7 + ${c}) % ${firstNames.length}] || ' ' || l[1 + (k / 3 + ${c}) % ${lastNames.length}],
        lower(f[1 + (k * 7 + ${c}) % ${firstNames.length}] || '.' || l[1 + (k / 3 + ${c}) % ${lastNames.length}])
          || k || '@company' || ${c + 1} || '.example',
        array[o[1 + (k + ${c}) % ${ouis.length}] || ':' || upper(substr(md5('mac' || ${c} || '-' || k), 1, 2)) || ':'
          || upper(substr(md5('mac' || ${c} || '-' || k), 3, 2)) || ':' || upper(substr(md5('mac' || ${c} || '-' || k), 5, 2))],
        'RPA-' || ${c + 1} || '-' || lpad(k::text, 4, '0'), ${first - DAY}::bigint
      from licence, generate_series(${done}::int, ${done + size - 1}::int) as k,
        (select ${words(firstNames)} as f, ${words(lastNames)} as l, ${words(ouis)} as o) as lists,
        lateral (select id, name from departments where tenant_id = ${tenantId}::uuid order by id
          offset k % ${departmentNames.length} limit 1) as d`);
  }
  await db.execute(sql`
    insert into bench_seed_accounts (company, n, account_id, tenant_id, company_id, company_name, department_id,
      department_name, first_name, last_name, email, mac, hostname)
    select ${c}, (row_number() over (order by a.id) - 1)::int, a.id, a.tenant_id, ${companyId}, ${name},
      a.department_id, a.department_name, split_part(a.full_name, ' ', 1), split_part(a.full_name, ' ', 2),
      a.email_address, a.mac_addresses[1], a.hostname
    from accounts a where a.tenant_id = ${tenantId}::uuid`);
}
phase(`${companyCount} companies: heads, departments, workflows, keys`);

// ----- execution logs ------------------------------------------------------------------------------

/**
 * The i-th run (0 ≤ i < logs), from hashes of i: it ends at `first + (i + u) × step`, lasts
 * 20 s plus up to an hour (most runs short: u³), belongs to the big company with probability
 * `bigShare`, else to one of the others evenly; its key is one of its company's, its workflow one
 * of its company's (the first ones more often: u²).
 */
/** A number written into the SQL (typed by PostgreSQL as a literal, not an untyped parameter). */
const n = (value: number) => sql.raw(String(value));
const step = (now - first) / Math.max(1, logCount);
const u = (seed: number) => sql.raw(`((hashint8extended(i, ${seed}) & 2147483647)::float8 / 2147483648.0)`);
const companyOf = (seedA: number, seedB: number) =>
  companyCount === 1
    ? sql.raw('0')
    : sql`case when ${u(seedA)} < ${n(options.bigShare)} then 0
        else 1 + ((hashint8extended(i, ${sql.raw(String(seedB))}) & 2147483647) % ${n(companyCount - 1)}) end`;
const keysOf = (company: ReturnType<typeof sql>) =>
  sql`case when ${company} = 0 then ${n(Math.max(1, Math.floor(options.bigKeys)))} else ${n(Math.max(1, Math.floor(options.keys)))} end`;

const runs = (fromI: number, toI: number) => sql`
  select i, company, ended - run_ms as started, ended, run_ms, status_u, key_n, workflow_n, error_n, delay
  from (
    select i, ${companyOf(1, 2)} as company,
      (${n(first)} + floor((i + ${u(3)}) * ${n(step)}))::bigint as ended,
      (${n(MIN_RUN_MS)} + floor(power(${u(4)}, 3) * ${n(MAX_RUN_MS - MIN_RUN_MS)}))::bigint as run_ms,
      ${u(5)} as status_u, hashint8extended(i, 6) & 2147483647 as key_h,
      floor(power(${u(7)}, 2) * ${n(workflowsPerCompany)})::int as workflow_n,
      ((hashint8extended(i, 8) & 2147483647) % ${n(errors.length)})::int as error_n,
      20 + (hashint8extended(i, 9) & 2147483647) % 3000 as delay
    from generate_series(${n(fromI)}::bigint, ${n(toI)}::bigint) as i
  ) as r, lateral (select (key_h % ${keysOf(sql.raw('r.company'))})::int as key_n) as k`;

const insertLogs = (target: string, fromI: number, toI: number, monthFrom: number, monthTo: number) => sql`
  insert into ${sql.identifier(target)} (id, tenant_id, company_id, company_name, department_id, department_name,
    account_id, executor_user_id, executor_first_name, executor_last_name, email_address, mac_address, hostname,
    workflow_id, workflow_name, workflow_version, execution_start, execution_end, status_type, error_message,
    error_activity, received_at)
  select gen_random_uuid(), a.tenant_id, a.company_id, a.company_name, a.department_id, a.department_name,
    a.account_id, null, a.first_name, a.last_name, a.email, a.mac, a.hostname,
    w.workflow_id, w.name, 1, x.started, x.ended,
    case when x.status_u < 0.08 then 'faulted' when x.status_u < 0.095 then 'unknown' else 'success' end,
    case when x.status_u < 0.08 then e.message end, case when x.status_u < 0.08 then e.activity end,
    x.ended + x.delay
  from (${runs(fromI, toI)}) as x
  join bench_seed_accounts a on a.company = x.company and a.n = x.key_n
  join bench_seed_workflows w on w.company = x.company and w.n = x.workflow_n
  join bench_seed_errors e on e.n = x.error_n
  where x.started >= ${n(monthFrom)} and x.started < ${n(monthTo)}`;

/** The UTC months from the one of the earliest start to the one after now's (made ahead, as the server does). */
const months: { name: string; from: number; to: number }[] = [];
{
  const date = new Date(first - MAX_RUN_MS);
  for (let y = date.getUTCFullYear(), m = date.getUTCMonth(); Date.UTC(y, m, 1) <= now; m += 1) {
    const from = Date.UTC(y, m, 1);
    const to = Date.UTC(y, m + 1, 1);
    const start = new Date(from);
    months.push({
      name: `execution_logs_p${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, '0')}`,
      from,
      to,
    });
    if (Date.UTC(y, m + 1, 1) > now) {
      const next = new Date(to);
      months.push({
        name: `execution_logs_p${next.getUTCFullYear()}_${String(next.getUTCMonth() + 1).padStart(2, '0')}`,
        from: to,
        to: Date.UTC(y, m + 2, 1),
      });
      break;
    }
  }
}

const existingPartitions = new Set((await logPartitions(db)).map((partition) => partition.name));

const chunk = Math.max(10_000, Math.floor(options.chunk));
/** The run whose end is at `at` (clamped to the runs there are). */
const runAt = (at: number) => Math.min(logCount - 1, Math.max(0, Math.floor((at - first) / step)));
let inserted = 0;
let insertMs = 0;
let attachMs = 0;
for (const month of months) {
  const attached = existingPartitions.has(month.name);
  const target = attached ? 'execution_logs' : month.name;
  if (!attached) {
    await db.execute(sql.raw(`drop table if exists "${month.name}"`));
    await db.execute(
      sql.raw(`create table "${month.name}" (like execution_logs including defaults including constraints)`),
    );
  }
  // Runs that start in this month end in it or up to an hour into the next.
  const fromI = runAt(month.from);
  const toI = logCount === 0 || month.from > now ? -1 : runAt(month.to + MAX_RUN_MS);
  const monthStarted = performance.now();
  let monthRows = 0;
  for (let a = fromI; a <= toI; a += chunk) {
    const result = (await db.execute(
      insertLogs(target, a, Math.min(toI, a + chunk - 1), month.from, month.to),
    )) as unknown as { rowCount?: number; affectedRows?: number };
    monthRows += Number(result.rowCount ?? result.affectedRows ?? 0);
  }
  const filled = performance.now();
  insertMs += filled - monthStarted;
  if (!attached) {
    await db.transaction(async (tx) => {
      // Building the month's indexes (two of them trigram indexes) in memory rather than in spills.
      if (!isPglite) await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
      await tx.execute(
        sql.raw(
          `alter table execution_logs attach partition "${month.name}" for values from (${month.from}) to (${month.to})`,
        ),
      );
    });
  }
  attachMs += performance.now() - filled;
  inserted += monthRows;
  console.log(
    `    ${month.name}: ${monthRows.toLocaleString('en').padStart(10)} logs, insert ${seconds(filled - monthStarted)}` +
      (attached ? ' (into the existing partition)' : `, attach and index ${seconds(performance.now() - filled)}`),
  );
}
restart();
console.log(
  `  ${`${inserted.toLocaleString('en')} execution logs: insert`.padEnd(58)} ${seconds(insertMs).padStart(9)}\n` +
    `  ${'attach the months (their 12 indexes, the foreign keys)'.padEnd(58)} ${seconds(attachMs).padStart(9)}`,
);
if (inserted !== logCount) throw new Error(`inserted ${inserted} logs, meant ${logCount}`);

// ----- queued runs ---------------------------------------------------------------------------------

const queuedCount = Math.floor(logCount * options.queued);
const queuedStep = (now - first) / Math.max(1, queuedCount);
for (let a = 0; a < queuedCount; a += chunk * 2) {
  const b = Math.min(queuedCount - 1, a + chunk * 2 - 1);
  await db.execute(sql`
    insert into queued_runs (tenant_id, company_id, account_id, entry_id, workflow_id, queued_at, open)
    select a.tenant_id, a.company_id, a.account_id, (i % 2000000000)::int + 1, w.workflow_id, q.queued_at, false
    from (
      select i, company, queued_at, workflow_n, (key_h % ${keysOf(sql.raw('r.company'))})::int as key_n
      from (
        select i, ${companyOf(11, 12)} as company,
          (${n(first)} + floor((i + ${u(13)}) * ${n(queuedStep)}))::bigint - 60000 as queued_at,
          hashint8extended(i, 14) & 2147483647 as key_h,
          floor(power(${u(15)}, 2) * ${n(workflowsPerCompany)})::int as workflow_n
        from generate_series(${n(a)}::bigint, ${n(b)}::bigint) as i
      ) as r
    ) as q
    join bench_seed_accounts a on a.company = q.company and a.n = q.key_n
    join bench_seed_workflows w on w.company = q.company and w.n = q.workflow_n`);
}
phase(`${queuedCount.toLocaleString('en')} queued runs`);

// ----- rollups, statistics -------------------------------------------------------------------------

if (options.rollups) {
  const rebuilt = await rebuildRollups(db);
  phase(
    `rollups: rebuildRollups (${rebuilt.logs.toLocaleString('en')} logs, ${rebuilt.queuedRuns.toLocaleString('en')} queued)`,
  );
}
await db.execute(sql`drop table bench_seed_accounts, bench_seed_workflows, bench_seed_errors`);
// A database that has been running is vacuumed: the visibility map set, statistics gathered.
await db.execute(sql`vacuum analyze`);
phase('vacuum analyze');

const [sizes] = await selectRows<{ logs: string; rollups: string; daily: string; timed: string; total: string }>(
  db,
  sql`
    select
      (select sum(pg_total_relation_size(inhrelid)) from pg_inherits where inhparent = 'execution_logs'::regclass)::bigint as logs,
      pg_total_relation_size('execution_rollups') as rollups, pg_total_relation_size('execution_daily_rollups') as daily,
      pg_total_relation_size('execution_time_rollups') as timed, pg_database_size(current_database()) as total`,
);
const [counts] = await selectRows<{ rollups: number; daily: number; timed: number }>(
  db,
  sql`
    select (select count(*)::int from execution_rollups) as rollups, (select count(*)::int from execution_daily_rollups) as daily,
      (select count(*)::int from execution_time_rollups) as timed`,
);
const mib = (bytes: string | undefined) => `${(Number(bytes ?? 0) / 1024 / 1024).toFixed(0)} MiB`;
console.log(
  `seeded in ${seconds(performance.now() - started)}: logs ${mib(sizes?.logs)} with their indexes; rollup rows ` +
    `${counts?.rollups} (15 min, ${mib(sizes?.rollups)}), ${counts?.daily} (daily, ${mib(sizes?.daily)}), ` +
    `${counts?.timed} (time, ${mib(sizes?.timed)}); database ${mib(sizes?.total)}${isPglite ? ' (PGlite)' : ''}`,
);
console.log(`  the big company: ${companiesOut[0]?.name}, head ${companiesOut[0]?.email} / ${HEAD_PASSWORD}`);
await database.close();
