import { randomUUID } from 'node:crypto';
import type { ActivityKind } from '@opsdeck/contract/activity';
import { sql } from 'drizzle-orm';
import { type Db, type Executor, selectRows } from '../src/db/client';
import { statuses, tasks } from '../src/db/schema';
import { BUCKET_MS, DAY_MS } from '../src/modules/activity/queries';
import { addTaskTimes } from '../src/modules/activity/task-days';
import type { TestCompany } from './factories';

/** A span as a test names it: whose (null: a key naming no user), what, from when to when (null: going on). */
export type SpanSpec = {
  userId: number | null;
  kind: ActivityKind;
  start: number;
  end: number | null;
  application?: string | null;
  statusId?: number | null;
  taskId?: number | null;
};

/** The `activity_spans` row of a company's span, received as it started: for `insert(activitySpans)`. */
export const spanRow = (company: Pick<TestCompany, 'id' | 'tenantId'>, span: SpanSpec) => ({
  id: randomUUID(),
  tenantId: company.tenantId,
  companyId: company.id,
  userId: span.userId,
  kind: span.kind,
  startedAt: span.start,
  endedAt: span.end,
  application: span.application ?? null,
  statusId: span.statusId ?? null,
  taskId: span.taskId ?? null,
  receivedAt: span.start,
});

/** Where a status or task is made: the tenant and the department it belongs to. */
export type DepartmentOf = { tenantId: string; departmentId: number };

/** A status of the department (a stand-in icon; no threshold, the default colour, idle not tracked unless given); answers its id. */
export async function createStatus(
  db: Db,
  of: DepartmentOf,
  name: string,
  fields: { threshold?: number; color?: string; trackIdle?: boolean } = {},
) {
  const [row] = await db
    .insert(statuses)
    .values({
      tenantId: of.tenantId,
      departmentId: of.departmentId,
      name,
      ...fields,
      icon: Buffer.from('icon'),
      fileName: 'icon.png',
    })
    .returning({ id: statuses.id });
  return row!.id;
}

/** A task of the department, of the status `statusId`; answers its id. */
export async function createTask(db: Db, of: DepartmentOf, statusId: number, name: string) {
  const [row] = await db
    .insert(tasks)
    .values({ tenantId: of.tenantId, name, statusId, departmentId: of.departmentId })
    .returning({ id: tasks.id });
  return row!.id;
}

/** A stored span as the rollups see it. */
export type RawSpan = {
  tenantId: string;
  userId: number | null;
  kind: string;
  item: string;
  start: number;
  end: number | null;
};

/** The spans as stored, with their rollup item. */
export async function readSpans(db: Executor): Promise<RawSpan[]> {
  const rows = await selectRows<{
    tenant_id: string;
    user_id: number | null;
    kind: string;
    item: string;
    started_at: string;
    ended_at: string | null;
  }>(
    db,
    sql`select tenant_id::text as tenant_id, user_id, kind, started_at, ended_at,
          case kind when 'app' then application when 'status' then status_id::text when 'task' then task_id::text else '' end as item
        from activity_spans`,
  );
  return rows.map((row) => ({
    tenantId: row.tenant_id,
    userId: row.user_id === null ? null : Number(row.user_id),
    kind: row.kind,
    item: row.item,
    start: Number(row.started_at),
    end: row.ended_at === null ? null : Number(row.ended_at),
  }));
}

/**
 * The rollups computed in JS from raw spans, by `tenant|person|slot|kind|item`: each closed span's
 * time spread over the slots of `width` it covers, and one start a span in its start's slot, for
 * the person (if any) and for the company (person 0). Rows of nothing are left out.
 */
export function expectedRollups(spans: readonly RawSpan[], width: number): Map<string, string> {
  const sums = new Map<string, { ms: number; starts: number }>();
  const add = (span: RawSpan, slot: number, ms: number, starts: number) => {
    for (const person of span.userId === null ? [0] : [span.userId, 0]) {
      const key = `${span.tenantId}|${person}|${slot}|${span.kind}|${span.item}`;
      const sum = sums.get(key) ?? { ms: 0, starts: 0 };
      sum.ms += ms;
      sum.starts += starts;
      sums.set(key, sum);
    }
  };
  for (const span of spans) {
    add(span, span.start - (span.start % width), 0, 1);
    if (span.end === null) continue;
    for (let slot = span.start - (span.start % width); slot < span.end; slot += width) {
      add(span, slot, Math.min(span.end, slot + width) - Math.max(span.start, slot), 0);
    }
  }
  return new Map(
    [...sums]
      .filter(([, sum]) => sum.ms !== 0 || sum.starts !== 0)
      .map(([key, sum]) => [key, `${sum.ms}ms ${sum.starts} starts`]),
  );
}

/** A rollup table as `expectedRollups` names its rows (rows of nothing left out). */
export async function readRollups(db: Executor, daily: boolean): Promise<Map<string, string>> {
  const table = daily ? 'activity_daily_rollups' : 'activity_rollups';
  const column = daily ? 'day_start' : 'bucket_start';
  const rows = await selectRows<{ key: string; ms: string; starts: number }>(
    db,
    sql`select tenant_id::text || '|' || person_id || '|' || ${sql.raw(column)} || '|' || kind || '|' || item as key,
          duration_ms::text as ms, starts
        from ${sql.raw(table)} where duration_ms <> 0 or starts <> 0`,
  );
  return new Map(rows.map((row) => [row.key, `${row.ms}ms ${row.starts} starts`]));
}

/** Both rollups and what the raw spans say they should be. */
export async function rollupsAndExpected(db: Executor) {
  const spans = await readSpans(db);
  return {
    quarter: await readRollups(db, false),
    expectedQuarter: expectedRollups(spans, BUCKET_MS),
    daily: await readRollups(db, true),
    expectedDaily: expectedRollups(spans, DAY_MS),
  };
}

/**
 * Task productivity over [from, to] (to included) computed straight from every raw span of the
 * tenant (of `people` when given, else of every key with a person or none): the answer the
 * stored task days, their stale marks and the live ends must add up to.
 */
export async function expectedTaskTimes(
  db: Executor,
  tenantId: string,
  people: readonly number[] | null,
  from: number,
  to: number,
  now: number,
) {
  const rows = await selectRows<{
    account_id: number | null;
    user_id: number | null;
    kind: string;
    task_id: number | null;
    started_at: string;
    ended_at: string | null;
  }>(
    db,
    sql`select account_id, user_id, kind, task_id, started_at, ended_at from activity_spans
        where tenant_id = ${tenantId}::uuid and kind in ('session', 'idle', 'task')
          and coalesce(user_id, -account_id) is not null`,
  );
  const spans = rows
    .filter((row) => people === null || (row.user_id !== null && people.includes(row.user_id)))
    .map((row) => ({
      accountId: row.account_id,
      userId: row.user_id,
      kind: row.kind,
      taskId: row.task_id,
      start: Number(row.started_at),
      end: row.ended_at === null ? null : Number(row.ended_at),
    }));
  return addTaskTimes(new Map(), spans, from, to + 1, now);
}
