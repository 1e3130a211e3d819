import { sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { dropMonthsBefore, ensureCurrentMonths, monthPartitions } from '../../platform/partitions';
import { BUCKET_MS, DAY_MS } from './queries';

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

/**
 * Rebuilds the activity rollups from the spans: every bucket and day from the oldest month kept on
 * is deleted and summed again from the closed spans (open ones are never rolled up), with one
 * start for each span in its start's bucket and day, in one transaction that holds off new spans
 * meanwhile. Older buckets (whose spans the retention dropped) are kept as they are. Each insert
 * in its key's order.
 */
export async function rebuildActivityRollups(db: Executor): Promise<ActivityRebuild> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table activity_spans in share mode`);
    const [oldest] = await monthPartitions(tx, 'activity_spans');
    if (!oldest) return { from: null, spans: 0 };
    const from = oldest.from;
    await tx.execute(sql`delete from activity_rollups where bucket_start >= ${from}::bigint`);
    await tx.execute(sql`delete from activity_daily_rollups where day_start >= ${from}::bigint`);
    const rebuild = (table: string, column: string, width: number) => sql`
      with span as (
        select tenant_id, company_id, user_id, kind, started_at, ended_at,
          case kind when 'app' then coalesce(application, '') when 'status' then coalesce(status_id::text, '')
            when 'task' then coalesce(task_id::text, '') else '' end as item
        from activity_spans where started_at >= ${from}::bigint
      ),
      per_person as (
        select span.*, person.id as person_id from span
        cross join lateral (values (user_id), (0)) as person(id) where person.id is not null
      ),
      piece as (
        select tenant_id, company_id, person_id, kind, item, slot,
          least(ended_at, slot + ${sql.raw(String(width))}::bigint) - greatest(started_at, slot) as ms, 0 as starts
        from per_person,
          generate_series(started_at - mod(started_at, ${sql.raw(String(width))}::bigint), ended_at - 1, ${sql.raw(String(width))}::bigint) as slot
        where ended_at > started_at
        union all
        select tenant_id, company_id, person_id, kind, item, started_at - mod(started_at, ${sql.raw(String(width))}::bigint), 0, 1
        from per_person
      )
      insert into ${sql.raw(table)} (tenant_id, company_id, person_id, ${sql.raw(column)}, kind, item, duration_ms, starts)
      select tenant_id, max(company_id), person_id, slot, kind, item, sum(ms), sum(starts)::int
      from piece
      group by tenant_id, person_id, slot, kind, item
      order by tenant_id, person_id, slot, kind, item`;
    await tx.execute(rebuild('activity_rollups', 'bucket_start', BUCKET_MS));
    await tx.execute(rebuild('activity_daily_rollups', 'day_start', DAY_MS));
    const [count] = await selectRows<{ spans: number }>(
      tx,
      sql`select count(*)::int as spans from activity_spans where started_at >= ${from}::bigint`,
    );
    return { from, spans: Number(count?.spans ?? 0) };
  });
}
