// Fills audit_log for the audit page's benchmark (bench/audit-page.mjs), in bulk through SQL rather
// than through the routes that write it: `--companies` companies (default 50), each with a head (a
// Company Administrator who signs in as head<n>@audit.bench.test / bench-password; company 1 is the
// big one, with `--big-share` of the records, default 20 %), then `--records` records (default
// 5,000,000) over the last `--days` days (default 730) up to now, in the order they were made (the
// ids rise with the time): `--provider-share` (default 2 %) the provider's own (no company), the
// rest spread over the other companies. Each record has a plausible action of AUDIT_ACTIONS
// (weighted: sign-ins and sign-outs most, deletions least), its entity type, an entity of its
// company (the id one of a few hundred, the name from word lists: people, roles, workflows, …), an
// actor of 30 per company (the head one of them, the others by name from word lists; one in twenty
// through an API token, agents for agent.*), a small `changes` array for creations and updates,
// an address and a user agent. Every value comes from a hash of the row's number, so two seeds of
// one size and `--now` hold the same records.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/opsdeck_bench_audit \
//     node --import tsx bench/seed-audit.ts --records 5000000
//   DATA_DIR=/tmp/opsdeck-audit node --import tsx bench/seed-audit.ts --records 500000
//
// audit_log's indexes (all but its primary key, as the migrations made them: pg_indexes) are
// dropped first and made again after the last row, one sort each (much faster than keeping a
// trigram index row by row), then VACUUM ANALYZE. The rows go in with one `insert … select … from
// generate_series` of at most `--chunk` rows (default 500,000) at a time. Each phase is timed and
// printed. The database must hold no audit records yet (the migrations' own are allowed: a fresh
// server records nothing until someone acts). PGlite has no lock between processes: never seed
// while a server has the directory open.
import { AUDIT_ACTIONS, type AuditAction, auditEntityType } from '@opsdeck/contract/audit';
import { sql } from 'drizzle-orm';
import { selectRows } from '../apps/server/src/db/client';
import { runScriptAsOwner } from '../apps/server/src/platform/tenancy';
import { openSeedDatabase, phaseClock, seedCompanyWithHead, seedOptions, words } from './seed-lib';

const defaults = {
  records: 5_000_000,
  companies: 50,
  days: 730,
  bigShare: 0.2,
  providerShare: 0.02,
  chunk: 500_000,
  now: 0,
};
const options = seedOptions(defaults, process.argv.slice(2));
const DAY = 86_400_000;
const now = options.now || Date.now();
const recordCount = Math.floor(options.records);
const companyCount = Math.max(1, Math.floor(options.companies));
const span = Math.round(options.days * DAY);
const first = now - span;
const HEAD_PASSWORD = 'bench-password';
const ACTORS_PER_COMPANY = 30;

const prefixes = ['Northwind', 'Blue Ridge', 'Silverline', 'Redwood', 'Summit', 'Harbor', 'Granite', 'Evergreen'];
const trades = ['Freight', 'Health', 'Insurance', 'Bank', 'Telecom', 'Energy', 'Foods'];
const suffixes = ['Holdings', 'Group', 'Inc', 'Ltd', 'Partners'];
const industries = ['logistics', 'healthcare', 'insurance', 'banking', 'telecommunications', 'energy', 'retail'];
const firstNames = [
  'James',
  'Maria',
  'Wei',
  'Fatima',
  'Lucas',
  'Aiko',
  'Noah',
  'Priya',
  'Omar',
  'Elena',
  'Kofi',
  'Ingrid',
  'Mateo',
  'Yara',
  'Dmitri',
  'Amara',
];
const lastNames = [
  'Anderson',
  'Santos',
  'Chen',
  'Haddad',
  'Moreau',
  'Tanaka',
  'Okafor',
  'Schmidt',
  'Novak',
  'Lindqvist',
  'Mensah',
  'Kowalski',
  'Ferreira',
  'Nakamura',
];
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
const roleNames = ['Operators', 'Auditors', 'Finance reviewers', 'Robot owners', 'Team leads', 'Read only'];
const departmentNames = ['Operations', 'Finance', 'Customer Care', 'IT', 'Procurement', 'Human Resources'];
const statusNames = ['Open', 'In progress', 'Waiting for customer', 'Blocked', 'Done'];
const taskNames = ['Quarter close', 'Vendor audit', 'Migrate robots', 'Renew certificates', 'Clean up queues'];
const userAgents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'curl/8.5.0',
  'OpsdeckAgent/4.2 (Windows Server 2022)',
];

/** How often each action comes, in slots of a hundred-odd: sign-ins most, deletions least. */
const weights: Partial<Record<AuditAction, number>> = {
  'auth.sign_in': 30,
  'auth.sign_in_failed': 4,
  'auth.sign_out': 14,
  'auth.password_reset': 1,
  'user.update': 3,
  'user.create': 2,
  'workflow.upload': 5,
  'workflow.update': 4,
  'workflow.download': 6,
  'agent.execute': 8,
  'agent.terminate': 2,
  'account.bind_machine': 2,
  'widget.save': 2,
  'task.update': 3,
  'task.create': 2,
  'activity.update': 2,
};

/** The names an entity of each type goes by. */
function entityNames(type: string): string[] {
  const people = firstNames.flatMap((f, i) => lastNames.filter((_, j) => (i + j) % 3 === 0).map((l) => `${f} ${l}`));
  switch (type) {
    case 'auth':
    case 'user':
    case 'token':
      return type === 'token' ? ['ci', 'backup export', 'monitoring', 'powerbi'] : people;
    case 'role':
      return roleNames;
    case 'department':
      return departmentNames;
    case 'status':
      return statusNames;
    case 'task':
    case 'schedule':
    case 'activity':
      return taskNames;
    case 'license':
      return ['Robots 1', 'Robots 2', 'Attended 2025', 'Unattended pool'];
    case 'account':
    case 'agent':
      return Array.from({ length: 20 }, (_, k) => `RPA-${String(k + 1).padStart(4, '0')}`);
    case 'workflow':
    case 'directory':
      return workflowNames;
    case 'widget':
      return ['Monitor', 'Utilization', 'Failures today'];
    case 'company':
      return ['Company profile'];
    default:
      return [type];
  }
}

// Seeding is the owner's work (docs/tenancy.md): every company's rows in bulk, VACUUM.
runScriptAsOwner();
const database = await openSeedDatabase();
const { db } = database;
const { started, seconds, phase } = phaseClock();

const [{ existing } = { existing: 0 }] = await selectRows<{ existing: number }>(
  db,
  sql`select count(*)::int as existing from (select 1 from audit_log limit 1000) as any_record`,
);
if (Number(existing) >= 1000) throw new Error('this database holds audit records already: seed a fresh one');

console.log(
  `seeding ${recordCount.toLocaleString('en')} audit records over ${options.days} days, ${companyCount} companies ` +
    `(the first with ${Math.round(options.bigShare * 100)} %, the provider ${Math.round(options.providerShare * 100)} %) ` +
    `into ${database.kind}`,
);

// ----- companies and heads, actors, actions ----------------------------------------------------------

await db.execute(sql`drop table if exists bench_audit_companies, bench_audit_actors, bench_audit_actions`);
await db.execute(sql`create table bench_audit_companies (n int primary key, tenant_id uuid, name text)`);
await db.execute(
  sql`create table bench_audit_actors (company int, k int, id int, name text, primary key (company, k))`,
);
await db.execute(sql`create table bench_audit_actions (slot int primary key, action text, entity_type text,
  names text[], changes boolean)`);

// Company 0 of the table is the provider (no tenant); 1..N the companies.
await db.execute(sql`insert into bench_audit_companies (n, tenant_id, name) values (0, null, null)`);
// The provider's two (ids apart from every user's: the heads are users 1 to N).
await db.execute(sql`insert into bench_audit_actors (company, k, id, name)
  values (0, 0, 1000000, 'Opsdeck Administrator'), (0, 1, 1000001, 'Provider Support')`);
for (let c = 1; c <= companyCount; c += 1) {
  const i = c - 1;
  const name =
    `${prefixes[i % prefixes.length]} ${trades[i % trades.length]} ${suffixes[i % suffixes.length]}` +
    (i >= prefixes.length * trades.length ? ` ${c}` : '');
  const { tenantId, headId } = await seedCompanyWithHead(
    db,
    { name, industry: industries[i % industries.length]! },
    { firstName: 'Audit', lastName: `Head ${c}`, email: `head${c}@audit.bench.test`, password: HEAD_PASSWORD },
  );
  await db.execute(
    sql`insert into bench_audit_companies (n, tenant_id, name) values (${c}, ${tenantId}::uuid, ${name})`,
  );
  // The head is actor 0; the others have ids of their own (audit_log has no foreign keys).
  await db.execute(sql`
    insert into bench_audit_actors (company, k, id, name)
    select ${c}, k, case when k = 0 then ${headId} else 1000000 + ${c} * 100 + k end,
      case when k = 0 then ${`Audit Head ${c}`}
        else f[1 + (k * 7 + ${c}) % ${firstNames.length}] || ' ' || l[1 + (k * 5 + ${c} * 3) % ${lastNames.length}] end
    from generate_series(0, ${ACTORS_PER_COMPANY - 1}) as k, (select ${words(firstNames)} as f, ${words(lastNames)} as l) as lists`);
}
let slot = 0;
for (const action of AUDIT_ACTIONS) {
  const type = auditEntityType(action);
  const names = entityNames(type);
  const changes = /\.(create|update|rename|save|upload|generate|premium|regular)/.test(action);
  for (let w = 0; w < (weights[action] ?? 1); w += 1, slot += 1) {
    await db.execute(sql`insert into bench_audit_actions (slot, action, entity_type, names, changes)
      values (${slot}, ${action}, ${type}, ${words(names)}, ${changes})`);
  }
}
const slots = slot;
phase(`${companyCount} companies with their heads, ${slots} action slots`);

// ----- the records -------------------------------------------------------------------------------

const indexes = await selectRows<{ name: string; definition: string }>(
  db,
  sql`select indexname as name, indexdef as definition from pg_indexes
      where tablename = 'audit_log' and indexname <> 'audit_log_pkey' order by indexname`,
);
for (const index of indexes) await db.execute(sql.raw(`drop index ${index.name}`));
phase(`dropped ${indexes.length} indexes`);

const bigCut = Math.round(options.bigShare * 1_000_000);
const providerCut = bigCut + Math.round(options.providerShare * 1_000_000);
const others = Math.max(1, companyCount - 1);
for (let done = 0; done < recordCount; done += options.chunk) {
  const last = Math.min(recordCount, done + options.chunk) - 1;
  await db.execute(sql`
    insert into audit_log (at, tenant_id, company_name, actor_type, actor_id, actor_token_id, actor_name, action,
      entity_type, entity_id, entity_name, changes, address, user_agent)
    select r.at, co.tenant_id, co.name,
      case when a.entity_type = 'agent' then 'agent' when r.h3 % 20 = 0 then 'token' else 'user' end,
      case when a.action = 'auth.sign_in_failed' and r.h3 % 3 = 0 then null else ac.id end,
      case when r.h3 % 20 = 0 and a.entity_type <> 'agent' then 9000 + ac.id % 1000 end,
      case
        when a.entity_type = 'agent' then 'ODK-' || upper(substr(md5(co.n || '-' || r.h2 % 20), 1, 4)) || '-…'
        when r.h3 % 20 = 0 then ac.name || ' (token ci)'
        else ac.name end,
      a.action, a.entity_type,
      case when a.entity_type = 'company' then co.n::text else (co.n * 1000 + r.h2 % 300)::text end,
      a.names[1 + r.h2 % array_length(a.names, 1)],
      case when not a.changes then '[]'::jsonb
        when a.action like '%.create' or a.action like '%.upload' then
          jsonb_build_array(jsonb_build_object('field', 'name', 'before', null, 'after', a.names[1 + r.h2 % array_length(a.names, 1)]))
        else jsonb_build_array(
          jsonb_build_object('field', 'name', 'before', a.names[1 + (r.h2 + 1) % array_length(a.names, 1)],
            'after', a.names[1 + r.h2 % array_length(a.names, 1)]),
          jsonb_build_object('field', 'updatedAt', 'before', r.at - 86400000::bigint * (1 + r.h3 % 90), 'after', r.at)) end,
      '10.' || (r.h1 % 256) || '.' || (r.h2 % 256) || '.' || (r.h3 % 250 + 2),
      (${words(userAgents.map((each) => each.replaceAll("'", '')))})[1 + r.h3 % ${userAgents.length}]
    from (
      select i,
        ${first}::bigint + (i::numeric * ${span} / ${recordCount})::bigint as at,
        hashint8(i) & 2147483647 as h1,
        hashint8(i + 7777777777) & 2147483647 as h2,
        hashint8(i + 3333333333) & 2147483647 as h3
      from generate_series(${done}::bigint, ${last}::bigint) as i
    ) as r
    join bench_audit_companies co on co.n = case
      when r.h1 % 1000000 < ${bigCut} then 1
      when r.h1 % 1000000 < ${providerCut} then 0
      else 2 + (r.h1 / 1000000) % ${others} end
    join bench_audit_actors ac on ac.company = co.n
      and ac.k = case when co.n = 0 then r.h3 % 2 else r.h3 % ${ACTORS_PER_COMPANY} end
    join bench_audit_actions a on a.slot = r.h2 % ${slots}
    order by i`);
  phase(`records ${(done + 1).toLocaleString('en')}–${(last + 1).toLocaleString('en')}`);
}

await db.execute(sql`set maintenance_work_mem = '1GB'`);
for (const index of indexes) {
  await db.execute(sql.raw(index.definition));
  phase(`index ${index.name}`);
}
await db.execute(sql`drop table bench_audit_companies, bench_audit_actors, bench_audit_actions`);
await db.execute(sql`vacuum analyze audit_log`);
phase('VACUUM ANALYZE');

const [size] = await selectRows<{ records: number; table: string; indexes: string }>(
  db,
  sql`select (select count(*)::int from audit_log) as records,
    pg_size_pretty(pg_table_size('audit_log')) as table, pg_size_pretty(pg_indexes_size('audit_log')) as indexes`,
);
console.log(
  `  ${size?.records.toLocaleString('en')} records, table ${size?.table}, indexes ${size?.indexes}; ` +
    `${seconds(performance.now() - started)} in all`,
);
await database.close();
