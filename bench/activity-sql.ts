// The activity ingest benchmark's direct SQL (bench/activity-ingest.mjs), run in a process of its
// own on the database the server would open (DATABASE_URL, or PGlite in DATA_DIR: never while a
// server has that directory open). One command a run; the answer is one JSON line on stdout.
//
//   node --import tsx bench/activity-sql.ts people
//     a user of the key's company for every key of bench/seed-live.ts (the key's e-mail), so that
//     the spans have a person and the rollups a row per person besides the company's; and a
//     department with a status and a task per company. Answers { statuses: { tenantId: statusId }, tasks: … }.
//   node --import tsx bench/activity-sql.ts verify
//     both activity rollups against a GROUP BY over every stored span (each closed span's time
//     spread over its buckets, one start a span, for its person and for person 0): the rows that
//     differ, and the spans stored.
import { sql } from 'drizzle-orm';
import { selectRows } from '../apps/server/src/db/client';
import { openSeedDatabase } from './seed-lib';

const [command = ''] = process.argv.slice(2);
const database = await openSeedDatabase();
const { db } = database;

async function people() {
  await db.execute(sql`
    insert into users (tenant_id, company_id, first_name, last_name, email_address, created_at)
    select a.tenant_id, l.company_id, 'Agent', a.id::text, a.email_address, 0
    from accounts a join licenses l on l.id = a.license_id
    where a.email_address like 'agent%@live.bench.test'
    on conflict do nothing`);
  const statuses = await selectRows<{ tenant_id: string; status_id: number; task_id: number }>(
    db,
    sql`with department as (
          insert into departments (tenant_id, name, created_at)
          select tenant_id, 'Bench operations', 0 from companies
          returning tenant_id, id
        ),
        status as (
          insert into statuses (tenant_id, department_id, name, threshold, icon, file_name, created_at)
          select tenant_id, id, 'Bench break', 15, '\\x00'::bytea, 'icon.png', 0 from department
          returning id, tenant_id, department_id
        ),
        task as (
          insert into tasks (tenant_id, name, status_id, department_id, created_at)
          select tenant_id, 'Bench task', id, department_id, 0 from status
          returning id, tenant_id
        )
        select status.tenant_id::text as tenant_id, status.id as status_id, task.id as task_id
        from status join task on task.tenant_id = status.tenant_id`,
  );
  return {
    statuses: Object.fromEntries(statuses.map((row) => [row.tenant_id, Number(row.status_id)])),
    tasks: Object.fromEntries(statuses.map((row) => [row.tenant_id, Number(row.task_id)])),
  };
}

async function verify() {
  const started = performance.now();
  const compare = async (table: string, column: string, width: number) => {
    const differences = await selectRows<Record<string, unknown>>(
      db,
      sql`with span as (
            select tenant_id, user_id, kind, started_at, ended_at,
              case kind when 'app' then application when 'status' then status_id::text when 'task' then task_id::text else '' end as item
            from activity_spans
          ),
          per_person as (
            select span.*, person.id as person_id from span cross join lateral (values (user_id), (0)) as person(id)
            where person.id is not null
          ),
          piece as (
            select tenant_id, person_id, kind, item, slot,
              least(ended_at, slot + ${width}::bigint) - greatest(started_at, slot) as ms, 0 as starts
            from per_person, generate_series(started_at - mod(started_at, ${width}::bigint), ended_at - 1, ${width}::bigint) as slot
            where ended_at > started_at
            union all
            select tenant_id, person_id, kind, item, started_at - mod(started_at, ${width}::bigint), 0, 1 from per_person
          ),
          expected as (
            select tenant_id, person_id, slot, kind, item, sum(ms)::bigint as ms, sum(starts)::int as starts
            from piece group by tenant_id, person_id, slot, kind, item
          ),
          actual as (
            select tenant_id, person_id, ${sql.raw(column)} as slot, kind, item, duration_ms as ms, starts
            from ${sql.raw(table)} where duration_ms <> 0 or starts <> 0
          )
          select coalesce(e.tenant_id, a.tenant_id)::text as tenant, coalesce(e.person_id, a.person_id) as person,
            coalesce(e.slot, a.slot) as slot, coalesce(e.kind, a.kind) as kind, coalesce(e.item, a.item) as item,
            e.ms as expected_ms, a.ms as actual_ms, e.starts as expected_starts, a.starts as actual_starts
          from expected e full join actual a
            on a.tenant_id = e.tenant_id and a.person_id = e.person_id and a.slot = e.slot and a.kind = e.kind and a.item = e.item
          where e.ms is distinct from a.ms or e.starts is distinct from a.starts
          limit 20`,
    );
    return differences;
  };
  const quarter = await compare('activity_rollups', 'bucket_start', 900_000);
  const daily = await compare('activity_daily_rollups', 'day_start', 86_400_000);
  const [counts] = await selectRows<{ spans: number; closed: number; people: number; rows: number }>(
    db,
    sql`select (select count(*)::int from activity_spans) as spans,
               (select count(*)::int from activity_spans where ended_at is not null) as closed,
               (select count(distinct user_id)::int from activity_spans) as people,
               (select count(*)::int from activity_rollups) as rows`,
  );
  return {
    equal: quarter.length === 0 && daily.length === 0,
    differences: { quarter, daily },
    spans: Number(counts?.spans ?? 0),
    closed: Number(counts?.closed ?? 0),
    people: Number(counts?.people ?? 0),
    rollupRows: Number(counts?.rows ?? 0),
    seconds: (performance.now() - started) / 1000,
  };
}

const commands: Record<string, () => Promise<unknown>> = { people, verify };
const run = commands[command];
if (!run) throw new Error(`unknown command ${command}`);
const answer = await run();
await database.close();
console.log(JSON.stringify(answer));
