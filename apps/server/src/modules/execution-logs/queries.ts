import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { executionLogs, queuedRuns, users, workflows, workflowVersions } from '../../db/schema';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';

export type ExecutionLogRow = typeof executionLogs.$inferSelect;
export type NewExecutionLog = Omit<typeof executionLogs.$inferInsert, 'receivedAt'>;

/** Rollup buckets (docs/reports.md): 15 minutes for the counts and the executed time, and UTC days. */
export const BUCKET_MS = 15 * 60_000;
export const DAY_MS = 86_400_000;

/**
 * Stores logs once each and, in the same statement (so in the same transaction), adds them to the
 * three rollups: each status counted in its start's 15-minute bucket and UTC day, each run's
 * executed time spread over the 15-minute buckets it ran in. A log whose id and start are stored
 * already (a resent report) inserts nothing, so nothing is counted twice. Answers the logs stored,
 * as `id|executionStart`. Rows of one statement are summed per rollup row first (an upsert may not
 * touch a row twice): a batch adds to a busy company's rows once, not once a log.
 */
export async function insertExecutionLogs(db: Executor, rows: readonly NewExecutionLog[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const receivedAt = Date.now();
  const insert = db
    .insert(executionLogs)
    .values(rows.map((row) => ({ ...row, receivedAt })))
    .onConflictDoNothing()
    .returning({
      id: executionLogs.id,
      tenantId: executionLogs.tenantId,
      companyId: executionLogs.companyId,
      workflowId: executionLogs.workflowId,
      executionStart: executionLogs.executionStart,
      executionEnd: executionLogs.executionEnd,
      statusType: executionLogs.statusType,
    });
  const counts = (width: number) => sql`
      select tenant_id, max(company_id) as company_id, workflow_id, execution_start - mod(execution_start, ${width}::bigint) as bucket,
        count(*) filter (where status_type = 'success')::int as succeeded,
        count(*) filter (where status_type = 'faulted')::int as faulted,
        count(*) filter (where status_type = 'unknown')::int as unknown
      from log where tenant_id is not null and workflow_id is not null
      group by tenant_id, workflow_id, bucket`;
  const query = sql`
    with log as ${insert},
    counted as (
      insert into execution_rollups (tenant_id, company_id, workflow_id, bucket_start, succeeded, faulted, unknown)
      ${counts(BUCKET_MS)}
      on conflict (tenant_id, bucket_start, workflow_id) do update set
        succeeded = execution_rollups.succeeded + excluded.succeeded,
        faulted = execution_rollups.faulted + excluded.faulted,
        unknown = execution_rollups.unknown + excluded.unknown
      returning 1
    ),
    daily as (
      insert into execution_daily_rollups (tenant_id, company_id, workflow_id, day_start, succeeded, faulted, unknown)
      ${counts(DAY_MS)}
      on conflict (tenant_id, day_start, workflow_id) do update set
        succeeded = execution_daily_rollups.succeeded + excluded.succeeded,
        faulted = execution_daily_rollups.faulted + excluded.faulted,
        unknown = execution_daily_rollups.unknown + excluded.unknown
      returning 1
    ),
    timed as (
      insert into execution_time_rollups (tenant_id, company_id, bucket_start, execution_ms)
      select tenant_id, max(company_id), bucket,
        sum(least(execution_end, bucket + ${BUCKET_MS}::bigint) - greatest(execution_start, bucket))
      from log, generate_series(execution_start - mod(execution_start, ${BUCKET_MS}::bigint), execution_end - 1, ${BUCKET_MS}::bigint) as bucket
      where tenant_id is not null and execution_end > execution_start
      group by tenant_id, bucket
      on conflict (tenant_id, bucket_start) do update set execution_ms = execution_time_rollups.execution_ms + excluded.execution_ms
      returning 1
    )
    select id::text as id, execution_start::text as start from log`;
  const run = () => selectRows<{ id: string; start: string }>(db, query);
  let stored: { id: string; start: string }[];
  try {
    stored = await run();
  } catch (error) {
    // The first log of a month makes its partition (migration 0011), then is stored as any other.
    if (!hasSqlState(error, SQLSTATE.checkViolation) || !isMissingPartition(error)) throw error;
    const months = new Set(rows.map((row) => monthOf(row.executionStart)));
    for (const month of months) await ensureMonthPartition(db, 'execution_logs', month);
    stored = await run();
  }
  return new Set(stored.map((row) => logKey(row.id, Number(row.start))));
}

/** How a stored log is named in insertExecutionLogs's answer. */
export const logKey = (id: string, executionStart: number) => `${id}|${executionStart}`;

/** Stores one log (insertExecutionLogs): false when it was stored already. */
export async function insertExecutionLog(db: Executor, values: NewExecutionLog): Promise<boolean> {
  return (await insertExecutionLogs(db, [values])).size > 0;
}

const monthOf = (at: number) => {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
};

/** The version numbers of these workflows with their creation times, oldest first: which version ran when. */
export async function workflowVersionTimes(db: Executor, workflowIds: readonly number[]) {
  if (workflowIds.length === 0) return [];
  return db
    .select({
      workflowId: workflowVersions.workflowId,
      number: workflowVersions.number,
      createdAt: workflowVersions.createdAt,
    })
    .from(workflowVersions)
    .where(inArray(workflowVersions.workflowId, [...workflowIds]))
    .orderBy(workflowVersions.workflowId, workflowVersions.number);
}

/** Workflows by id, archived ones included (a run can end after its workflow was archived). */
export async function workflowsByIds(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: workflows.id, tenantId: workflows.tenantId, name: workflows.name })
    .from(workflows)
    .where(inArray(workflows.id, [...ids]));
}

/** Users with one of these e-mails (compared lower-cased), with their tenant. */
export async function usersByEmails(db: Executor, emails: readonly string[]) {
  if (emails.length === 0) return [];
  return db
    .select({
      id: users.id,
      tenantId: users.tenantId,
      firstName: users.firstName,
      lastName: users.lastName,
      emailAddress: users.emailAddress,
    })
    .from(users)
    .where(inArray(sql`lower(${users.emailAddress})`, [...emails]));
}

/** PostgreSQL's 23514 for a row no partition takes ("no partition of relation … found for row"). */
function isMissingPartition(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if (/no partition of relation/i.test(String((current as { message?: unknown }).message))) return true;
  }
  return false;
}

/** Makes the month's partition of a partitioned table for a time, if missing (migration 0011's function). */
export async function ensureMonthPartition(db: Executor, parent: 'execution_logs', at: number): Promise<string> {
  const [row] = await selectRows<{ name: string }>(
    db,
    sql`select opsdeck_month_partition(${parent}, ${at}::bigint) as name`,
  );
  return row!.name;
}

export type QueuedEntry = { entryId: number; workflowId: number };

/**
 * Counts runs queued on an agent (its `added` entries) in the rollups, in one statement: only the
 * tenant's workflows, and not an entry that is still open from an earlier announcement (an agent
 * announces its queue again after a reconnection). Answers how many were new.
 */
export async function insertQueuedRuns(
  db: Executor,
  agent: { tenantId: string; accountId: number },
  entries: readonly QueuedEntry[],
  queuedAt: number,
): Promise<number> {
  if (entries.length === 0) return 0;
  const values = sql.join(
    entries.map((entry) => sql`(${entry.entryId}::int, ${entry.workflowId}::int)`),
    sql`, `,
  );
  const bucket = queuedAt - (queuedAt % BUCKET_MS);
  const day = queuedAt - (queuedAt % DAY_MS);
  const rows = await selectRows<{ queued: number }>(
    db,
    sql`
    with company as (select id from companies where tenant_id = ${agent.tenantId}),
    queued as (
      insert into queued_runs (tenant_id, company_id, account_id, entry_id, workflow_id, queued_at)
      select ${agent.tenantId}::uuid, (select id from company), ${agent.accountId}::int, entry.entry_id, entry.workflow_id, ${queuedAt}::bigint
      from (values ${values}) as entry(entry_id, workflow_id)
      where entry.workflow_id in (select id from workflows where tenant_id = ${agent.tenantId})
      on conflict (account_id, entry_id, workflow_id) where open do nothing
      returning workflow_id
    ),
    per_workflow as (select workflow_id, count(*)::int as n from queued group by workflow_id),
    counted as (
      insert into execution_rollups (tenant_id, company_id, workflow_id, bucket_start, queued)
      select ${agent.tenantId}::uuid, (select id from company), workflow_id, ${bucket}::bigint, n from per_workflow
      on conflict (tenant_id, bucket_start, workflow_id) do update set queued = execution_rollups.queued + excluded.queued
      returning 1
    ),
    daily as (
      insert into execution_daily_rollups (tenant_id, company_id, workflow_id, day_start, queued)
      select ${agent.tenantId}::uuid, (select id from company), workflow_id, ${day}::bigint, n from per_workflow
      on conflict (tenant_id, day_start, workflow_id) do update set queued = execution_daily_rollups.queued + excluded.queued
      returning 1
    )
    select coalesce(sum(n), 0)::int as queued from per_workflow`,
  );
  return Number(rows[0]?.queued ?? 0);
}

/** Entries the agent removed from its queue (ended, terminated or unqueued): no longer open. */
export async function closeQueuedRuns(db: Executor, accountId: number, entryIds: readonly number[]) {
  if (entryIds.length === 0) return;
  await db
    .update(queuedRuns)
    .set({ open: false })
    .where(
      and(eq(queuedRuns.accountId, accountId), inArray(queuedRuns.entryId, [...entryIds]), eq(queuedRuns.open, true)),
    );
}

/** When a key's agent last ended each workflow it ran: the `lastExecution` of its workflow list. */
export async function lastExecutions(db: Executor, accountId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ workflowId: executionLogs.workflowId, last: sql<number>`max(${executionLogs.executionEnd})` })
    .from(executionLogs)
    .where(eq(executionLogs.accountId, accountId))
    .groupBy(executionLogs.workflowId);
  return new Map(rows.flatMap((row) => (row.workflowId === null ? [] : [[row.workflowId, Number(row.last)]])));
}
