import { sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { dropMonthsBefore, ensureCurrentMonths, monthPartitions } from '../../platform/partitions';
import { BUCKET_MS, DAY_MS } from './queries';
import { markAllTaskDaysStale, refreshAllTaskDays } from './task-days';

/**
 * The activity spans' months and their rollups over time (docs/monitor.md, "Storage"): partitions
 * made ahead, months past ACTIVITY_RETENTION_DAYS dropped whole (the rollups stay), and the
 * rollups rebuilt from the spans that remain when asked.
 */

/** This month's and next month's partitions, then the months wholly before `now - days` dropped. */
export async function applyActivityRetention(db: Executor, now: number, retentionDays: number) {
  await ensureCurrentMonths(db, 'activity_spans', now);
  return { droppedPartitions: await dropMonthsBefore(db, 'activity_spans', now - retentionDays * DAY_MS) };
}

export type ActivityRebuild = { from: number | null; spans: number };

/** Memory for the rebuild's sort and sums (instead of spilling to temporary files), its transaction only. */
const REBUILD_WORK_MEM = '64MB';

/**
 * Rebuilds the activity rollups from the spans: every bucket and day from the oldest month kept on
 * is deleted and summed again, in one transaction that holds off new spans meanwhile. Older
 * buckets (whose spans the retention dropped) are kept as they are. Set-based, in the database:
 * one `insert … select` for the 15-minute rollups, whose pieces are each closed span cut at the
 * bucket edges it covers (`generate_series`) plus one start for every span, open or closed, in its
 * start's bucket; summed first per person (or none), then the company's rows (person 0) summed
 * from those. Then the daily rollups summed from the 15-minute rows just built (a UTC day is 96
 * whole buckets). Each insert in its key's order. The work memory is raised for the two inserts
 * and given back after. Last, task productivity's days (task-days.ts) marked stale and recomputed.
 */
export async function rebuildActivityRollups(db: Executor): Promise<ActivityRebuild> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table activity_spans in share mode`);
    const [oldest] = await monthPartitions(tx, 'activity_spans');
    if (!oldest) return { from: null, spans: 0 };
    const from = oldest.from;
    const [memory] = await selectRows<{ before: string }>(
      tx,
      sql`select current_setting('work_mem') as before, set_config('work_mem', ${REBUILD_WORK_MEM}, true)`,
    );
    await tx.execute(sql`delete from activity_rollups where bucket_start >= ${from}::bigint`);
    await tx.execute(sql`delete from activity_daily_rollups where day_start >= ${from}::bigint`);
    const bucket = sql.raw(`${BUCKET_MS}::bigint`);
    await tx.execute(sql`
      with span as (
        select tenant_id, company_id, user_id, kind, started_at, ended_at,
          case kind when 'app' then coalesce(application, '') when 'status' then coalesce(status_id::text, '')
            when 'task' then coalesce(task_id::text, '') else '' end as item
        from activity_spans where started_at >= ${from}::bigint
      ),
      piece as (
        select tenant_id, company_id, user_id, kind, item, slot,
          least(ended_at, slot + ${bucket}) - greatest(started_at, slot) as ms, 0 as starts
        from span, generate_series(started_at - mod(started_at, ${bucket}), ended_at - 1, ${bucket}) as slot
        where ended_at > started_at
        union all
        select tenant_id, company_id, user_id, kind, item, started_at - mod(started_at, ${bucket}), 0, 1
        from span
      ),
      per_user as (
        select tenant_id, max(company_id) as company_id, user_id, slot, kind, item, sum(ms) as ms, sum(starts) as starts
        from piece
        group by tenant_id, user_id, slot, kind, item
      )
      insert into activity_rollups (tenant_id, company_id, person_id, bucket_start, kind, item, duration_ms, starts)
      select tenant_id, company_id, user_id, slot, kind, item, ms, starts::int
      from per_user where user_id is not null
      union all
      select tenant_id, max(company_id), 0, slot, kind, item, sum(ms), sum(starts)::int
      from per_user
      group by tenant_id, slot, kind, item
      order by 1, 3, 4, 5, 6`);
    await tx.execute(sql`
      insert into activity_daily_rollups (tenant_id, company_id, person_id, day_start, kind, item, duration_ms, starts)
      select tenant_id, max(company_id), person_id, bucket_start - mod(bucket_start, ${sql.raw(`${DAY_MS}::bigint`)}) as day,
        kind, item, sum(duration_ms), sum(starts)::int
      from activity_rollups where bucket_start >= ${from}::bigint
      group by tenant_id, person_id, day, kind, item
      order by tenant_id, person_id, day, kind, item`);
    await tx.execute(sql`select set_config('work_mem', ${memory?.before ?? REBUILD_WORK_MEM}, true)`);
    await markAllTaskDaysStale(tx, from);
    await refreshAllTaskDays(tx);
    const [count] = await selectRows<{ spans: number }>(
      tx,
      sql`select count(*)::int as spans from activity_spans where started_at >= ${from}::bigint`,
    );
    return { from, spans: Number(count?.spans ?? 0) };
  });
}
