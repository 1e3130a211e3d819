import { sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { dropMonthsBefore, ensureCurrentMonths, type MonthPartition, monthPartitions } from '../../platform/partitions';
import { BUCKET_MS, DAY_MS } from './queries';

/**
 * The execution logs' months and their rollups over time (docs/reports.md): partitions made ahead,
 * months past the retention dropped whole (the rollups stay, so a report of any month still
 * answers), and the rollups rebuilt from the logs that remain when asked (`npm run rebuild-rollups`).
 */

export type LogPartition = MonthPartition;

/** The monthly partitions of execution_logs, oldest first, with their bounds (from their names: migration 0011). */
export const logPartitions = (db: Executor): Promise<LogPartition[]> => monthPartitions(db, 'execution_logs');

/** The partitions of this month and the next exist before their first log arrives. */
export const ensureCurrentPartitions = (db: Executor, now: number) => ensureCurrentMonths(db, 'execution_logs', now);

export type RetentionResult = { droppedPartitions: string[]; deletedQueuedRuns: number };

/**
 * Drops the months of logs that ended before the retention cut (`now - days`): whole partitions, no
 * row deletes, so a month is kept until all of it is past the cut. Queued runs older than the
 * oldest month kept go too (a plain table: deleted in batches), and entries an agent never closed
 * stop blocking their ids after a day. The rollups are not touched.
 */
export async function applyRetention(db: Executor, now: number, retentionDays: number): Promise<RetentionResult> {
  const cut = now - retentionDays * DAY_MS;
  const dropped = await dropMonthsBefore(db, 'execution_logs', cut);
  const kept = (await logPartitions(db))[0]?.from ?? cut;
  let deleted = 0;
  for (;;) {
    const rows = await selectRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from queued_runs where id in (select id from queued_runs where queued_at < ${Math.min(kept, cut)}::bigint limit 10000)
            returning 1
          ) select count(*)::int as n from gone`,
    );
    const n = Number(rows[0]?.n ?? 0);
    deleted += n;
    if (n < 10_000) break;
  }
  await db.execute(sql`update queued_runs set open = false where open and queued_at < ${now - DAY_MS}::bigint`);
  return { droppedPartitions: dropped, deletedQueuedRuns: deleted };
}

export type RebuildResult = { from: number | null; logs: number; queuedRuns: number };

/**
 * Rebuilds the rollups from the raw rows that remain: every bucket and day from the oldest month
 * still kept on is deleted and summed again from the logs and queued runs, in one transaction that
 * holds off new logs meanwhile; older buckets (whose logs the retention dropped) are kept as they
 * are. The last runs are taken from the logs too, keeping a later end already known (a run whose
 * log the retention dropped).
 */
export async function rebuildRollups(db: Executor): Promise<RebuildResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table execution_logs, queued_runs in share mode`);
    const partitions = await logPartitions(tx);
    const [oldestQueued] = await selectRows<{ at: string | number | null }>(
      tx,
      sql`select min(queued_at) as at from queued_runs`,
    );
    const starts = [
      partitions[0]?.from,
      oldestQueued?.at === null || oldestQueued?.at === undefined ? undefined : Number(oldestQueued.at),
    ];
    const known = starts.filter((value): value is number => value !== undefined);
    if (known.length === 0) return { from: null, logs: 0, queuedRuns: 0 };
    // A UTC day's start, so that the daily rollups are rebuilt whole.
    const from = Math.min(...known) - (Math.min(...known) % DAY_MS);

    await tx.execute(sql`delete from execution_rollups where bucket_start >= ${from}::bigint`);
    await tx.execute(sql`delete from execution_daily_rollups where day_start >= ${from}::bigint`);
    await tx.execute(sql`delete from execution_time_rollups where bucket_start >= ${from}::bigint`);
    await tx.execute(sql`delete from execution_daily_time_rollups where day_start >= ${from}::bigint`);
    const counted = (width: number) => sql`
      select tenant_id, company_id, workflow_id, execution_start - mod(execution_start, ${width}::bigint) as bucket,
        (status_type = 'success')::int as s, (status_type = 'faulted')::int as f, (status_type = 'unknown')::int as u, 0 as q
      from execution_logs where execution_start >= ${from}::bigint and tenant_id is not null and workflow_id is not null
      union all
      select tenant_id, company_id, workflow_id, queued_at - mod(queued_at, ${width}::bigint), 0, 0, 0, 1
      from queued_runs where queued_at >= ${from}::bigint`;
    // Each in its key's order: the table is written in time order per tenant, and its indexes
    // are filled from one end rather than at random pages (docs/performance.md, issue 16).
    await tx.execute(sql`
      insert into execution_rollups (tenant_id, company_id, workflow_id, bucket_start, succeeded, faulted, unknown, queued)
      select tenant_id, min(company_id), workflow_id, bucket, sum(s), sum(f), sum(u), sum(q)
      from (${counted(BUCKET_MS)}) as runs group by tenant_id, workflow_id, bucket
      order by tenant_id, bucket, workflow_id`);
    await tx.execute(sql`
      insert into execution_daily_rollups (tenant_id, company_id, workflow_id, day_start, succeeded, faulted, unknown, queued)
      select tenant_id, min(company_id), workflow_id, bucket, sum(s), sum(f), sum(u), sum(q)
      from (${counted(DAY_MS)}) as runs group by tenant_id, workflow_id, bucket
      order by tenant_id, bucket, workflow_id`);
    const spread = (width: number) => sql`
      select tenant_id, min(company_id), slot, sum(least(execution_end, slot + ${width}::bigint) - greatest(execution_start, slot))
      from execution_logs,
        generate_series(execution_start - mod(execution_start, ${width}::bigint), execution_end - 1, ${width}::bigint) as slot
      where execution_start >= ${from}::bigint and tenant_id is not null and execution_end > execution_start
      group by tenant_id, slot
      order by tenant_id, slot`;
    await tx.execute(
      sql`insert into execution_time_rollups (tenant_id, company_id, bucket_start, execution_ms) ${spread(BUCKET_MS)}`,
    );
    await tx.execute(
      sql`insert into execution_daily_time_rollups (tenant_id, company_id, day_start, execution_ms) ${spread(DAY_MS)}`,
    );
    // Each key's last run of each workflow: only ever later. A pair whose logs the retention
    // dropped keeps its row (its run is still the key's last of that workflow).
    await tx.execute(sql`
      insert into execution_last_runs (account_id, workflow_id, last_end)
      select account_id, workflow_id, max(execution_end) from execution_logs
      where account_id is not null and workflow_id is not null
      group by account_id, workflow_id
      order by account_id, workflow_id
      on conflict (account_id, workflow_id) do update set last_end = greatest(execution_last_runs.last_end, excluded.last_end)`);
    const [counts] = await selectRows<{ logs: number; queued: number }>(
      tx,
      sql`select (select count(*)::int from execution_logs where execution_start >= ${from}::bigint) as logs,
                 (select count(*)::int from queued_runs where queued_at >= ${from}::bigint) as queued`,
    );
    return { from, logs: Number(counts?.logs ?? 0), queuedRuns: Number(counts?.queued ?? 0) };
  });
}

/**
 * Whether logs exist but no rollup does: a database upgraded from before the rollups (migration
 * 0011; migration 0012 fills the daily executed time and the last runs from what 0011 kept).
 */
export async function rollupsMissing(db: Executor): Promise<boolean> {
  const [row] = await selectRows<{ missing: boolean }>(
    db,
    sql`select exists (select 1 from execution_logs) and not exists (select 1 from execution_rollups)
          and not exists (select 1 from execution_time_rollups)
          and not exists (select 1 from execution_daily_time_rollups) as missing`,
  );
  return Boolean(row?.missing);
}
