// The report benchmarks' direct SQL (bench/report-calls.mjs, bench/report-ingest.mjs), run in a
// process of its own on the database the server would open (DATABASE_URL, or PGlite in DATA_DIR:
// never while a server has that directory open). One command a run; the answer is one JSON line on
// stdout.
//
//   node --import tsx bench/report-sql.ts plan
//     the companies (tenant id, name, head's e-mail, logs) biggest first, and a range of whole UTC
//     days up to `to` holding at least BENCH_CSV_ROWS (1,000,000) logs: of the biggest company if
//     it holds that many, else of every company (counted from the daily rollups).
//   node --import tsx bench/report-sql.ts group-by '{"from":…,"to":…,"tz":"Europe/Berlin","scopes":[tenantId|null],"runs":5}'
//     what /metrics, /use-counts and /total-hours answer, computed the plain way: a GROUP BY over
//     the raw logs (and queued runs) of the range, each timed `runs` times.
//   node --import tsx bench/report-sql.ts verify
//     the three rollups against a GROUP BY over every log and queued run: the rows that differ.
import { sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../apps/server/src/db/client';
import { openSeedDatabase } from './seed-lib';

const DAY = 86_400_000;
const BUCKET = 900_000;
const [command = '', argument = '{}'] = process.argv.slice(2);
const input = JSON.parse(argument);
const database = await openSeedDatabase();
const { db } = database;

/** `tenant_id = $t`, or every company's logs (a company's: tenant_id set) for null. */
const scopeOf = (tenantId: string | null, table = '') => {
  const column = sql.raw(table ? `${table}.tenant_id` : 'tenant_id');
  return tenantId === null ? sql`${column} is not null` : sql`${column} = ${tenantId}::uuid`;
};

async function timed<T extends Record<string, unknown>>(runs: number, query: ReturnType<typeof sql>) {
  const ms: number[] = [];
  let rows: T[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    rows = await selectRows<T>(db, query);
    ms.push(performance.now() - started);
  }
  return { rows, ms };
}

async function plan() {
  const companies = await selectRows<{ tenant_id: string; name: string; email: string | null; logs: string }>(
    db,
    sql`select c.tenant_id, c.name, u.email_address as email,
          coalesce((select sum(succeeded + faulted + unknown) from execution_daily_rollups r where r.tenant_id = c.tenant_id), 0) as logs
        from companies c left join users u on u.id = c.head_id order by logs desc, c.id`,
  );
  const wanted = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);
  const to = Number(input.to ?? Date.now());
  const biggest = companies[0];
  const scope = biggest && Number(biggest.logs) >= wanted ? biggest.tenant_id : null;
  // Whole UTC days back from the day of `to`, until they hold `wanted` logs (rollups are exact for whole days).
  const days = await selectRows<{ day: string; logs: string }>(
    db,
    sql`select day_start as day, sum(succeeded + faulted + unknown) as logs from execution_daily_rollups
        where ${scopeOf(scope)} and day_start <= ${to}::bigint group by day_start order by day_start desc`,
  );
  let rows = 0;
  let from = to - (to % DAY);
  for (const day of days) {
    rows += Number(day.logs);
    from = Number(day.day);
    if (rows >= wanted) break;
  }
  // The logs of the last day run to `to`; count the range exactly.
  const [exact] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from execution_logs where ${scopeOf(scope)}
        and execution_start >= ${from}::bigint and execution_start <= ${to}::bigint`,
  );
  return {
    kind: database.kind,
    companies: companies.map((row) => ({
      tenantId: row.tenant_id,
      name: row.name,
      email: row.email,
      logs: Number(row.logs),
    })),
    csv: { tenantId: scope, from, to, rows: Number(exact?.n ?? 0) },
  };
}

async function groupBy() {
  const {
    from,
    to,
    tz,
    scopes,
    runs = 5,
  } = input as {
    from: number;
    to: number;
    tz: string;
    scopes: (string | null)[];
    runs?: number;
  };
  const answers = [];
  for (const tenantId of scopes) {
    const scope = scopeOf(tenantId);
    const metrics = await timed<{ completed: string; failed: string; scheduled: string }>(
      runs,
      sql`select count(*) filter (where status_type = 'success') as completed,
            count(*) filter (where status_type = 'faulted') as failed,
            (select count(*) from queued_runs where ${scope} and queued_at >= ${from}::bigint and queued_at <= ${to}::bigint) as scheduled
          from execution_logs
          where ${scope} and workflow_id is not null and execution_start >= ${from}::bigint and execution_start <= ${to}::bigint`,
    );
    const useCounts = await timed<{ workflow_name: string; use_count: string }>(
      runs,
      sql`select w.name as workflow_name, count(*) as use_count
          from execution_logs l join workflows w on w.id = l.workflow_id
          where ${scopeOf(tenantId, 'l')} and l.execution_start >= ${from}::bigint and l.execution_start <= ${to}::bigint
          group by w.id, w.name order by use_count desc, w.name asc, w.id asc limit 10`,
    );
    // Executed time per day of `tz`: every run's time cut at the days it ran in (runs last at most 7 days).
    const totalHours = await timed<{ date: string; ms: string }>(
      runs,
      sql`with days as (
            select d::date as day,
              (extract(epoch from (d at time zone ${tz})) * 1000)::bigint as s,
              (extract(epoch from ((d + interval '1 day') at time zone ${tz})) * 1000)::bigint as e
            from generate_series((to_timestamp(${from}::bigint / 1000.0) at time zone ${tz})::date::timestamp,
              (to_timestamp(${to}::bigint / 1000.0) at time zone ${tz})::date::timestamp, interval '1 day') as d
          )
          select to_char(days.day, 'YYYY-MM-DD') as date,
            sum(least(l.execution_end, days.e) - greatest(l.execution_start, days.s)) as ms
          from execution_logs l
          cross join lateral generate_series(
            (to_timestamp(l.execution_start / 1000.0) at time zone ${tz})::date::timestamp,
            (to_timestamp((l.execution_end - 1) / 1000.0) at time zone ${tz})::date::timestamp, interval '1 day') as ran(day)
          join days on days.day = ran.day::date
          where ${scopeOf(tenantId, 'l')} and l.execution_end > l.execution_start
            and l.execution_start >= (select min(s) from days) - ${7 * DAY}::bigint and l.execution_start < (select max(e) from days)
          group by days.day order by days.day`,
    );
    answers.push({
      tenantId,
      metrics: {
        ms: metrics.ms,
        answer: {
          completedWorkflowCount: Number(metrics.rows[0]?.completed ?? 0),
          failedWorkflowCount: Number(metrics.rows[0]?.failed ?? 0),
          scheduledWorkflowCount: Number(metrics.rows[0]?.scheduled ?? 0),
        },
      },
      useCounts: {
        ms: useCounts.ms,
        answer: useCounts.rows.map((row) => ({ workflowName: row.workflow_name, useCount: Number(row.use_count) })),
      },
      totalHours: {
        ms: totalHours.ms,
        answer: totalHours.rows.map((row) => ({ date: row.date, executionTime: Number(row.ms) })),
      },
    });
  }
  return { kind: database.kind, answers };
}

/** The rows of one rollup that differ from the GROUP BY over the raw rows (missing rows count as zeros). */
async function differences(executor: Executor, rollup: 'execution_rollups' | 'execution_daily_rollups', width: number) {
  const start = sql.raw(rollup === 'execution_rollups' ? 'bucket_start' : 'day_start');
  const table = sql.raw(rollup);
  return selectRows<{ tenant_id: string; workflow_id: number; at: string; expected: string; stored: string }>(
    executor,
    sql`with expected as (
          select tenant_id, workflow_id, bucket, sum(s) as s, sum(f) as f, sum(u) as u, sum(q) as q from (
            select tenant_id, workflow_id, execution_start - mod(execution_start, ${width}::bigint) as bucket,
              (status_type = 'success')::int as s, (status_type = 'faulted')::int as f, (status_type = 'unknown')::int as u, 0 as q
            from execution_logs where tenant_id is not null and workflow_id is not null
            union all
            select tenant_id, workflow_id, queued_at - mod(queued_at, ${width}::bigint), 0, 0, 0, 1 from queued_runs
          ) as raw group by tenant_id, workflow_id, bucket
        )
        select coalesce(e.tenant_id, r.tenant_id)::text as tenant_id, coalesce(e.workflow_id, r.workflow_id) as workflow_id,
          coalesce(e.bucket, r.${start})::text as at,
          concat_ws('/', coalesce(e.s, 0), coalesce(e.f, 0), coalesce(e.u, 0), coalesce(e.q, 0)) as expected,
          concat_ws('/', coalesce(r.succeeded, 0), coalesce(r.faulted, 0), coalesce(r.unknown, 0), coalesce(r.queued, 0)) as stored
        from expected e full join ${table} r
          on r.tenant_id = e.tenant_id and r.workflow_id = e.workflow_id and r.${start} = e.bucket
        where coalesce(e.s, 0) <> coalesce(r.succeeded, 0) or coalesce(e.f, 0) <> coalesce(r.faulted, 0)
          or coalesce(e.u, 0) <> coalesce(r.unknown, 0) or coalesce(e.q, 0) <> coalesce(r.queued, 0)
        limit 20`,
  );
}

async function verify() {
  const started = performance.now();
  const counts = await differences(db, 'execution_rollups', BUCKET);
  const daily = await differences(db, 'execution_daily_rollups', DAY);
  const time = await selectRows<{ tenant_id: string; at: string; expected: string; stored: string }>(
    db,
    sql`with expected as (
          select tenant_id, bucket, sum(least(execution_end, bucket + ${BUCKET}::bigint) - greatest(execution_start, bucket)) as ms
          from execution_logs,
            generate_series(execution_start - mod(execution_start, ${BUCKET}::bigint), execution_end - 1, ${BUCKET}::bigint) as bucket
          where tenant_id is not null and execution_end > execution_start
          group by tenant_id, bucket
        )
        select coalesce(e.tenant_id, r.tenant_id)::text as tenant_id, coalesce(e.bucket, r.bucket_start)::text as at,
          coalesce(e.ms, 0)::text as expected, coalesce(r.execution_ms, 0)::text as stored
        from expected e full join execution_time_rollups r on r.tenant_id = e.tenant_id and r.bucket_start = e.bucket
        where coalesce(e.ms, 0) <> coalesce(r.execution_ms, 0)
        limit 20`,
  );
  const [totals] = await selectRows<{ logs: number; queued: number; counted: number; timed: string }>(
    db,
    sql`select (select count(*)::int from execution_logs) as logs, (select count(*)::int from queued_runs) as queued,
          (select coalesce(sum(succeeded + faulted + unknown), 0)::int from execution_rollups) as counted,
          (select coalesce(sum(execution_ms), 0)::text from execution_time_rollups) as timed`,
  );
  return {
    kind: database.kind,
    equal: counts.length === 0 && daily.length === 0 && time.length === 0,
    logs: totals?.logs,
    queued: totals?.queued,
    countedInRollups: totals?.counted,
    executedMs: Number(totals?.timed ?? 0),
    differences: { fifteenMinutes: counts, daily, time },
    seconds: (performance.now() - started) / 1000,
  };
}

try {
  const commands: Record<string, () => Promise<unknown>> = { plan, 'group-by': groupBy, verify };
  const run = commands[command];
  if (!run) throw new Error(`unknown command ${command} (${Object.keys(commands).join(', ')})`);
  process.stdout.write(`${JSON.stringify(await run())}\n`);
} finally {
  await database.close();
}
