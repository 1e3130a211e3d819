// Fills a database with workforce activity for the monitor widgets' benchmark
// (bench/monitor-widgets.mjs), in bulk through SQL rather than the live channel: one company with
// a head (a Company Administrator who signs in as head@monitor.bench.test / bench-password), four
// departments (Customer Care below Operations), a role "Agent" every person holds, `--people`
// people (default 1,000), each with a schedule on every weekday (08:00 to 17:00 UTC+1), five
// statuses (two breaks with thresholds), twenty tasks; then `--days` days (default 30, up to now)
// of about 300 spans a person a day:
//
// - 2 sessions (a morning of 4 h and an afternoon from 4 h 30 to 8 h 30–9 h after the start of the
//   day, which is 07:00–08:00 UTC), so a lunch signed out;
// - 6 statuses (working, a coffee break of 5–20 min against a 10 min threshold, a lunch of 25–40
//   min against 30, a meeting of an hour);
// - 10 tasks of 45 min, 12 idle spans of 1–38 min (some past 30: alerts), 270 app switches of
//   20–105 s over 40 applications (a few used most).
//
// Spans that would end after now are left open, spans starting after now are not made. Then the
// rollups, summed by the server's `rebuildActivityRollups`, and VACUUM ANALYZE. Each phase timed.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/monitor_bench node --import tsx bench/seed-activity.ts --people 1000
//   node --import tsx bench/seed-activity.ts --data-dir /tmp/opsdeck-monitor --people 100
//
// The spans of a month go into a table of their own first, without indexes, and it is then
// attached as the month's partition of activity_spans (its indexes built in one sort each); a month
// whose partition exists already is filled through the partitioned table. Every value but the
// ids comes from a hash of (person, day, slot). The database must hold no activity yet. PGlite
// has no lock between processes: never seed while a server has the directory open.
import { sql } from 'drizzle-orm';
import { selectRows } from '../apps/server/src/db/client';
import { rebuildActivityRollups } from '../apps/server/src/modules/activity/rollups';
import { monthPartitions } from '../apps/server/src/platform/partitions';
import { hashPassword } from '../apps/server/src/platform/passwords';
import { runScriptAsOwner } from '../apps/server/src/platform/tenancy';
import { openSeedDatabase, phaseClock, seedCompanyWithHead, seedOptions, words } from './seed-lib';

const defaults = { people: 1000, days: 30, now: 0, databaseUrl: '', dataDir: '' };
const options = seedOptions(defaults, process.argv.slice(2));
if (options.databaseUrl) process.env.DATABASE_URL = options.databaseUrl;
if (options.dataDir) process.env.DATA_DIR = options.dataDir;
const DAY = 86_400_000;
const now = options.now || Date.now();
const peopleCount = Math.max(1, Math.floor(options.people));
const dayCount = Math.max(1, Math.floor(options.days));
/** The first day: the UTC midnight `days - 1` days before today's. */
const firstDay = Math.floor(now / DAY) * DAY - (dayCount - 1) * DAY;
const HEAD_PASSWORD = 'bench-password';
const SPANS_A_DAY = 300;

const firstNames = ['James', 'Maria', 'Wei', 'Fatima', 'Lucas', 'Aiko', 'Noah', 'Priya', 'Omar', 'Elena', 'Kofi'];
const lastNames = ['Anderson', 'Santos', 'Chen', 'Haddad', 'Moreau', 'Tanaka', 'Okafor', 'Schmidt', 'Novak'];
const applications = [
  'Outlook',
  'Excel',
  'Google Chrome',
  'Microsoft Teams',
  'Word',
  'SAP Logon',
  'Slack',
  'Visual Studio Code',
  'Salesforce',
  'Zendesk',
  'PowerPoint',
  'File Explorer',
  'Adobe Acrobat',
  'Notepad',
  'Firefox',
  'Jira',
  'Confluence',
  'Zoom',
  'OneNote',
  'Calculator',
  'Windows Terminal',
  'Edge',
  'Power BI',
  'Tableau',
  'Snipping Tool',
  'Paint',
  'Skype',
  'WinSCP',
  'PuTTY',
  'KeePass',
  'Visio',
  'Project',
  'Access',
  'Publisher',
  'ServiceNow',
  'Workday',
  'DocuSign',
  'Dropbox',
  'Spotify',
  'Settings',
];

// Seeding is the owner's work (docs/tenancy.md): every company's rows in bulk, VACUUM.
runScriptAsOwner();
const database = await openSeedDatabase();
const { db } = database;
const isPglite = database.kind === 'pglite';
const { started, seconds, phase } = phaseClock();
const n = (value: number) => sql.raw(String(value));

const [{ existing } = { existing: 0 }] = await selectRows<{ existing: number }>(
  db,
  sql`select count(*)::int as existing from (select 1 from activity_spans limit 1) as any_span`,
);
if (Number(existing) > 0) throw new Error('this database holds activity already: seed a fresh one');
console.log(
  `seeding ${peopleCount.toLocaleString('en')} people × ${dayCount} days × ~${SPANS_A_DAY} spans into ${database.kind}` +
    ` (${new Date(firstDay).toISOString().slice(0, 10)} → ${new Date(now).toISOString()})`,
);

// ----- the company, departments, role, people, schedules, statuses, tasks ----------------------------

const { tenantId, companyId, headId } = await seedCompanyWithHead(
  db,
  { name: 'Monitor Bench Services', industry: 'logistics' },
  { firstName: 'Monitor', lastName: 'Head', email: 'head@monitor.bench.test', password: HEAD_PASSWORD },
);
const departmentRows = await selectRows<{ id: number; name: string }>(
  db,
  sql`insert into departments (tenant_id, name, head_id, created_at)
      select ${tenantId}::uuid, d.name, ${headId}, ${now}::bigint
      from unnest(${words(['Operations', 'Finance', 'Customer Care', 'IT'])}) as d(name)
      returning id, name`,
);
const departmentId = (name: string) => departmentRows.find((row) => row.name === name)!.id;
await db.execute(
  sql`update departments set parent_id = ${departmentId('Operations')} where id = ${departmentId('Customer Care')}`,
);
const departmentIds = departmentRows.map((row) => row.id).sort((a, b) => a - b);
const [role] = await selectRows<{ id: number }>(
  db,
  sql`insert into roles (tenant_id, name, created_at) values (${tenantId}::uuid, 'Agent', ${now}::bigint) returning id`,
);
// Every person signs in with the head's password (not needed by the bench, but real users have one).
const passwordHash = await hashPassword(HEAD_PASSWORD);
await db.execute(sql`
  insert into users (tenant_id, company_id, department_id, first_name, last_name, email_address, created_at)
  select ${tenantId}::uuid, ${companyId}, (${sql.raw(`array[${departmentIds.join(',')}]`)}::int[])[1 + i % ${n(departmentIds.length)}],
    (${words(firstNames)})[1 + i % ${n(firstNames.length)}],
    (${words(lastNames)})[1 + (i / ${n(firstNames.length)}) % ${n(lastNames.length)}] || ' ' || i,
    'person' || i || '@monitor.bench.test', ${now}::bigint
  from generate_series(1, ${n(peopleCount)}) as i`);
await db.execute(sql`
  insert into credentials (user_id, password_hash, password_changed_at)
  select id, ${passwordHash}, ${now}::bigint from users where tenant_id = ${tenantId}::uuid and id <> ${headId}`);
await db.execute(sql`
  insert into user_roles (user_id, role_id)
  select id, ${role!.id} from users where tenant_id = ${tenantId}::uuid and id <> ${headId}`);
await db.execute(sql`drop table if exists bench_seed_people`);
await db.execute(sql`create table bench_seed_people as
  select (row_number() over (order by id))::int - 1 as n, id from users
  where tenant_id = ${tenantId}::uuid and id <> ${headId}`);
await db.execute(sql`analyze bench_seed_people`);
// Schedules: every weekday 07:00–16:00 UTC (08:00–17:00 in Berlin in winter).
await db.execute(sql`
  insert into schedules (tenant_id, user_id, schedule_start, schedule_end, created_at)
  select ${tenantId}::uuid, p.id, day + 25200000, day + 57600000, ${now}::bigint
  from bench_seed_people p, generate_series(${n(firstDay)}::bigint, ${n(firstDay + (dayCount - 1) * DAY)}::bigint, ${n(DAY)}::bigint) as day
  where extract(isodow from to_timestamp(day / 1000) at time zone 'UTC') < 6`);
const icon = Buffer.from('89504e470d0a1a0a', 'hex');
const statusRows = await selectRows<{ id: number; name: string }>(
  db,
  sql`insert into statuses (tenant_id, department_id, name, threshold, color, icon, file_name, track_idle, created_at)
      select ${tenantId}::uuid, ${departmentId('Operations')}, s.name, s.threshold, s.color, ${icon}, 'status.png', true, ${now}::bigint
      from (values ('Working', 0, '#2e7d32'), ('Coffee break', 10, '#8d6e63'), ('Lunch', 30, '#f9a825'),
        ('Meeting', 0, '#1565c0'), ('Away', 0, '#9e9e9e')) as s(name, threshold, color)
      returning id, name`,
);
const statusId = (name: string) => statusRows.find((row) => row.name === name)!.id;
const taskRows = await selectRows<{ id: number }>(
  db,
  sql`insert into tasks (tenant_id, name, status_id, department_id, created_at)
      select ${tenantId}::uuid, 'Task ' || lpad(i::text, 2, '0'), ${statusId('Working')}, ${departmentId('Operations')}, ${now}::bigint
      from generate_series(1, 20) as i returning id`,
);
const taskIds = taskRows.map((row) => row.id).sort((a, b) => a - b);
phase(`company, ${peopleCount} people, schedules, statuses, tasks`);

// ----- the spans ---------------------------------------------------------------------------------------

/** A uniform [0, 1) of the row's (person, day, slot) and a salt. */
const u = (salt: number) => sql.raw(`((hashint8extended(key, ${salt}) & 2147483647)::float8 / 2147483648.0)`);
const MIN = 60_000;
const H = 60 * MIN;
const APP_SLOT = Math.floor((4 * H) / 135);
/**
 * Every span of the people's days as (kind, start, end, application, status, task): slot 0–1 the
 * sessions, 2–7 statuses, 8–17 tasks, 18–29 idle, 30–299 app switches.
 */
const spansOf = (dayFrom: number, dayTo: number) => sql`
  select p.id as user_id, s0.kind, t.started_at, t.ended_at, s0.application, s0.status_id, s0.task_id
  from bench_seed_people p
  cross join generate_series(${n(dayFrom)}::bigint, ${n(dayTo)}::bigint, ${n(DAY)}::bigint) as day
  cross join lateral (select (day + 25200000 + floor(((hashint8extended(p.n::bigint * 100003 + day / ${n(DAY)}, 1) & 2147483647)::float8 / 2147483648.0) * 3600000))::bigint as ws) as w
  cross join lateral (
    select key, slot,
      case when slot < 2 then 'session' when slot < 8 then 'status' when slot < 18 then 'task' when slot < 30 then 'idle' else 'app' end as kind,
      case
        when slot = 0 then ws
        when slot = 1 then ws + ${n(4.5 * H)}
        when slot = 2 then ws
        when slot = 3 then ws + ${n(2 * H)}
        when slot = 4 then ws + ${n(2 * H + 20 * MIN)}
        when slot = 5 then ws + ${n(4 * H)}
        when slot = 6 then ws + ${n(4.5 * H)}
        when slot = 7 then ws + ${n(5.5 * H)}
        when slot < 18 then ws + (slot - 8) * ${n(50 * MIN)}
        when slot < 24 then ws + ${n(10 * MIN)} + (slot - 18) * ${n(40 * MIN)}
        when slot < 30 then ws + ${n(4.5 * H + 10 * MIN)} + (slot - 24) * ${n(40 * MIN)}
        when slot < 165 then ws + (slot - 30) * ${n(APP_SLOT)}
        else ws + ${n(4.5 * H)} + (slot - 165) * ${n(APP_SLOT)}
      end as started_at,
      case
        when slot = 0 then ${n(4 * H)}
        when slot in (1, 7) then ${n(4 * H)} - (slot - 1) / 6 * ${n(H)} + floor(${u(2)} * ${n(30 * MIN)})::bigint
        when slot in (2, 4) then ${n(2 * H)} - (slot - 2) / 2 * ${n(40 * MIN)}
        when slot = 3 then ${n(5 * MIN)} + floor(${u(3)} * ${n(15 * MIN)})::bigint
        when slot = 5 then ${n(25 * MIN)} + floor(${u(3)} * ${n(15 * MIN)})::bigint
        when slot = 6 then ${n(H)}
        when slot < 18 then ${n(45 * MIN)}
        when slot < 30 then ${n(MIN)} + floor(power(${u(4)}, 3) * ${n(37 * MIN)})::bigint
        else 20000 + floor(${u(5)} * 85000)::bigint
      end as ms,
      case when slot >= 30 then (${words(applications)})[1 + floor(power(${u(6)}, 2.5) * ${n(applications.length)})::int] end as application,
      case when slot in (2, 4, 7) then ${n(statusId('Working'))} when slot = 3 then ${n(statusId('Coffee break'))}
        when slot = 5 then ${n(statusId('Lunch'))} when slot = 6 then ${n(statusId('Meeting'))} end as status_id,
      case when slot between 8 and 17 then (${sql.raw(`array[${taskIds.join(',')}]`)}::int[])[1 + floor(${u(7)} * ${n(taskIds.length)})::int] end as task_id
    from (select slot, (p.n::bigint * 100003 + day / ${n(DAY)}) * 1000 + slot as key
          from generate_series(0, ${n(SPANS_A_DAY - 1)}) as slot) as k
  ) as s0
  cross join lateral (select s0.started_at, case when s0.started_at + s0.ms > ${n(now)} then null else s0.started_at + s0.ms end as ended_at) as t
  where s0.started_at < ${n(now)}`;

const insertSpans = (target: string, dayFrom: number, dayTo: number, monthFrom: number, monthTo: number) => sql`
  insert into ${sql.identifier(target)} (id, tenant_id, company_id, account_id, user_id, kind, started_at, ended_at,
    application, status_id, task_id, ended_by_server, received_at)
  select gen_random_uuid(), ${tenantId}::uuid, ${companyId}, null, x.user_id, x.kind, x.started_at, x.ended_at,
    x.application, x.status_id, x.task_id, false, coalesce(x.ended_at, x.started_at)
  from (${spansOf(dayFrom, dayTo)}) as x
  where x.started_at >= ${n(monthFrom)} and x.started_at < ${n(monthTo)}`;

const months: { name: string; from: number; to: number }[] = [];
for (let at = firstDay; at <= now; ) {
  const date = new Date(at);
  const from = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const to = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  months.push({
    name: `activity_spans_p${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, '0')}`,
    from,
    to,
  });
  at = to;
}
const existingPartitions = new Set((await monthPartitions(db, 'activity_spans')).map((partition) => partition.name));
let inserted = 0;
for (const month of months) {
  const attached = existingPartitions.has(month.name);
  const target = attached ? 'activity_spans' : month.name;
  if (!attached) {
    await db.execute(sql.raw(`drop table if exists "${month.name}"`));
    await db.execute(
      sql.raw(`create table "${month.name}" (like activity_spans including defaults including constraints)`),
    );
  }
  const monthStarted = performance.now();
  let monthRows = 0;

  const dayFrom = Math.max(firstDay, month.from);
  const dayTo = Math.min(firstDay + (dayCount - 1) * DAY, month.to - DAY);
  // A few days at a time: a statement's rows stay in the millions.
  for (let day = dayFrom; day <= dayTo; day += 3 * DAY) {
    const result = (await db.transaction(async (tx) => {
      // The big CASE of spansOf would take PostgreSQL's JIT tens of seconds to compile per statement.
      if (!isPglite) await tx.execute(sql`set local jit = off`);
      return tx.execute(insertSpans(target, day, Math.min(dayTo, day + 2 * DAY), month.from, month.to));
    })) as unknown as { rowCount?: number; affectedRows?: number };
    monthRows += Number(result.rowCount ?? result.affectedRows ?? 0);
  }
  const filled = performance.now();
  if (!attached) {
    await db.transaction(async (tx) => {
      if (!isPglite) await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
      await tx.execute(
        sql.raw(
          `alter table activity_spans attach partition "${month.name}" for values from (${month.from}) to (${month.to})`,
        ),
      );
    });
  }
  inserted += monthRows;
  console.log(
    `    ${month.name}: ${monthRows.toLocaleString('en').padStart(10)} spans, insert ${seconds(filled - monthStarted)}` +
      (attached ? ' (into the existing partition)' : `, attach and index ${seconds(performance.now() - filled)}`),
  );
}
phase(`${inserted.toLocaleString('en')} spans`);
await db.execute(sql`select opsdeck_month_partition('activity_spans', ${now}::bigint)`);
await db.execute(
  sql`select opsdeck_month_partition('activity_spans', ${Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() + 1, 1)}::bigint)`,
);

// ----- rollups, statistics -------------------------------------------------------------------------------

const rebuilt = await rebuildActivityRollups(db);
phase(`rollups: rebuildActivityRollups (${rebuilt.spans.toLocaleString('en')} spans)`);
await db.execute(sql`drop table bench_seed_people`);
await db.execute(sql`vacuum analyze`);
phase('vacuum analyze');

const [sizes] = await selectRows<{ spans: string; rollups: string; daily: string; total: string }>(
  db,
  sql`select
      (select sum(pg_total_relation_size(inhrelid)) from pg_inherits where inhparent = 'activity_spans'::regclass)::bigint as spans,
      pg_total_relation_size('activity_rollups') as rollups, pg_total_relation_size('activity_daily_rollups') as daily,
      pg_database_size(current_database()) as total`,
);
const [counts] = await selectRows<{ rollups: number; daily: number }>(
  db,
  sql`select (select count(*)::int from activity_rollups) as rollups, (select count(*)::int from activity_daily_rollups) as daily`,
);
const mib = (bytes: string | undefined) => `${(Number(bytes ?? 0) / 1024 / 1024).toFixed(0)} MiB`;
console.log(
  `seeded in ${seconds(performance.now() - started)}: ${inserted.toLocaleString('en')} spans (${mib(sizes?.spans)} with their indexes); ` +
    `rollup rows ${counts?.rollups} (15 min, ${mib(sizes?.rollups)}), ${counts?.daily} (daily, ${mib(sizes?.daily)}); ` +
    `database ${mib(sizes?.total)}${isPglite ? ' (PGlite)' : ''}`,
);
console.log(`  head head@monitor.bench.test / ${HEAD_PASSWORD}; tenant ${tenantId}`);
await database.close();
