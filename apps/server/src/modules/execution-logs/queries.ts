import { and, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { executionLogs, queuedRuns, users, workflows, workflowVersions } from '../../db/schema';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { inScope, type TenantScope } from '../../platform/tenancy';

export type ExecutionLogRow = typeof executionLogs.$inferSelect;
export type NewExecutionLog = Omit<typeof executionLogs.$inferInsert, 'receivedAt'>;

/** A workflow of the tenant, archived ones included: a run can end after its workflow was archived. */
export async function findTenantWorkflow(db: Executor, id: number, tenantId: string) {
  const [row] = await db
    .select({ id: workflows.id, name: workflows.name })
    .from(workflows)
    .where(and(eq(workflows.id, id), eq(workflows.tenantId, tenantId)));
  return row;
}

/**
 * The tenant's user with this e-mail, case-insensitively (e-mails are unique across users, archived
 * ones included: users_email_lower_key). An archived user still is the person who ran it.
 */
export async function findTenantUserByEmail(db: Executor, tenantId: string, email: string) {
  const [row] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, emailAddress: users.emailAddress })
    .from(users)
    .where(and(eq(sql`lower(${users.emailAddress})`, email.trim().toLowerCase()), eq(users.tenantId, tenantId)))
    .limit(1);
  return row;
}

/** The number of the workflow's version that was current at `at` (its first one if none was yet). */
export async function versionAt(db: Executor, workflowId: number, at: number): Promise<number | null> {
  const [row] = await db
    .select({
      number: sql<number>`coalesce(max(${workflowVersions.number}) filter (where ${workflowVersions.createdAt} <= ${at}), min(${workflowVersions.number}))`,
    })
    .from(workflowVersions)
    .where(eq(workflowVersions.workflowId, workflowId));
  return row?.number ?? null;
}

/** Rollup buckets (docs/reports.md): 15 minutes for the counts and the executed time, and UTC days. */
export const BUCKET_MS = 15 * 60_000;
export const DAY_MS = 86_400_000;

/**
 * Stores a log once and, in the same statement (so in the same transaction), adds it to the three
 * rollups: its status counted in its start's 15-minute bucket and UTC day, its executed time spread
 * over the 15-minute buckets it ran in. A log whose id and start are stored already (a resent
 * report) inserts nothing, so nothing is counted twice. False when it was a resend.
 */
export async function insertExecutionLog(db: Executor, values: NewExecutionLog): Promise<boolean> {
  const insert = db
    .insert(executionLogs)
    .values({ ...values, receivedAt: Date.now() })
    .onConflictDoNothing()
    .returning({
      tenantId: executionLogs.tenantId,
      companyId: executionLogs.companyId,
      workflowId: executionLogs.workflowId,
      executionStart: executionLogs.executionStart,
      executionEnd: executionLogs.executionEnd,
      statusType: executionLogs.statusType,
    });
  const query = sql`
    with log as ${insert},
    counted as (
      insert into execution_rollups (tenant_id, company_id, workflow_id, bucket_start, succeeded, faulted, unknown)
      select tenant_id, company_id, workflow_id, execution_start - mod(execution_start, ${BUCKET_MS}::bigint),
        (status_type = 'success')::int, (status_type = 'faulted')::int, (status_type = 'unknown')::int
      from log where tenant_id is not null and workflow_id is not null
      on conflict (tenant_id, bucket_start, workflow_id) do update set
        succeeded = execution_rollups.succeeded + excluded.succeeded,
        faulted = execution_rollups.faulted + excluded.faulted,
        unknown = execution_rollups.unknown + excluded.unknown
      returning 1
    ),
    daily as (
      insert into execution_daily_rollups (tenant_id, company_id, workflow_id, day_start, succeeded, faulted, unknown)
      select tenant_id, company_id, workflow_id, execution_start - mod(execution_start, ${DAY_MS}::bigint),
        (status_type = 'success')::int, (status_type = 'faulted')::int, (status_type = 'unknown')::int
      from log where tenant_id is not null and workflow_id is not null
      on conflict (tenant_id, day_start, workflow_id) do update set
        succeeded = execution_daily_rollups.succeeded + excluded.succeeded,
        faulted = execution_daily_rollups.faulted + excluded.faulted,
        unknown = execution_daily_rollups.unknown + excluded.unknown
      returning 1
    ),
    timed as (
      insert into execution_time_rollups (tenant_id, company_id, bucket_start, execution_ms)
      select tenant_id, company_id, bucket, least(execution_end, bucket + ${BUCKET_MS}::bigint) - greatest(execution_start, bucket)
      from log, generate_series(execution_start - mod(execution_start, ${BUCKET_MS}::bigint), execution_end - 1, ${BUCKET_MS}::bigint) as bucket
      where tenant_id is not null and execution_end > execution_start
      on conflict (tenant_id, bucket_start) do update set execution_ms = execution_time_rollups.execution_ms + excluded.execution_ms
      returning 1
    )
    select count(*)::int as stored from log`;
  const run = () => selectRows<{ stored: number }>(db, query);
  let rows: { stored: number }[];
  try {
    rows = await run();
  } catch (error) {
    // The first log of a month makes its partition (migration 0011), then is stored as any other.
    if (!hasSqlState(error, SQLSTATE.checkViolation) || !isMissingPartition(error)) throw error;
    await ensureMonthPartition(db, 'execution_logs', values.executionStart);
    rows = await run();
  }
  return Number(rows[0]?.stored ?? 0) > 0;
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

export type ExecutionLogQuery = {
  tenantScope: TenantScope;
  /** Execution start from and to, inclusive (epoch milliseconds). */
  from: number;
  to: number;
  /** Only the exceptions (faulted runs). */
  faultedOnly?: boolean;
  limit: number;
};

/**
 * The logs of a scope whose run started in the range, newest first (ties by id), read through
 * execution_logs_tenant_start_idx (one company), its faulted twin, or execution_logs_start_idx
 * (every company).
 */
export async function listExecutionLogs(db: Executor, query: ExecutionLogQuery): Promise<ExecutionLogRow[]> {
  return db
    .select()
    .from(executionLogs)
    .where(
      and(
        inScope(executionLogs.tenantId, query.tenantScope),
        gte(executionLogs.executionStart, query.from),
        lte(executionLogs.executionStart, query.to),
        // A literal, not a parameter, so that the partial index's predicate is seen to hold.
        query.faultedOnly ? sql`${executionLogs.statusType} = 'faulted'` : undefined,
      ),
    )
    .orderBy(desc(executionLogs.executionStart), desc(executionLogs.id))
    .limit(query.limit);
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
