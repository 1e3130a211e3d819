import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type Executor, selectRows } from '../../db/client';
import {
  accounts,
  executionLastRuns,
  type executionLogs,
  queuedRuns,
  users,
  workflows,
  workflowVersions,
} from '../../db/schema';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { ensureMonthPartition, isMissingPartition, monthOf } from '../../platform/partitions';
import { inScope, type TenantScope } from '../../platform/tenancy';

export type ExecutionLogRow = typeof executionLogs.$inferSelect;
export type NewExecutionLog = Omit<typeof executionLogs.$inferInsert, 'receivedAt'>;

/** Rollup buckets (docs/reports.md): 15 minutes for the counts and the executed time, and UTC days. */
export const BUCKET_MS = 15 * 60_000;
export const DAY_MS = 86_400_000;

/**
 * The columns insertExecutionLogs fills, in the order of its arrays: each is sent as one array
 * parameter and read back with `unnest`, so the statement's text never changes with the batch and
 * no value is turned into SQL in Node (node-postgres and PGlite both write a JS array as an array
 * literal, quoting every element: commas, quotes, backslashes and NULLs survive).
 */
const LOG_COLUMNS = [
  ['id', 'uuid', (row) => row.id],
  ['tenant_id', 'uuid', (row) => row.tenantId ?? null],
  ['company_id', 'int', (row) => row.companyId ?? null],
  ['company_name', 'text', (row) => row.companyName ?? null],
  ['department_id', 'int', (row) => row.departmentId ?? null],
  ['department_name', 'text', (row) => row.departmentName ?? null],
  ['account_id', 'int', (row) => row.accountId ?? null],
  ['executor_user_id', 'int', (row) => row.executorUserId ?? null],
  ['executor_first_name', 'text', (row) => row.executorFirstName ?? ''],
  ['executor_last_name', 'text', (row) => row.executorLastName ?? ''],
  ['email_address', 'text', (row) => row.emailAddress ?? null],
  ['mac_address', 'text', (row) => row.macAddress],
  ['hostname', 'text', (row) => row.hostname ?? null],
  ['workflow_id', 'int', (row) => row.workflowId ?? null],
  ['workflow_name', 'text', (row) => row.workflowName],
  ['workflow_version', 'int', (row) => row.workflowVersion ?? null],
  ['execution_start', 'bigint', (row) => row.executionStart],
  ['execution_end', 'bigint', (row) => row.executionEnd],
  ['status_type', 'text', (row) => row.statusType],
  ['error_message', 'text', (row) => row.errorMessage ?? null],
  ['error_activity', 'text', (row) => row.errorActivity ?? null],
] as const satisfies readonly (readonly [string, string, (row: NewExecutionLog) => unknown])[];

/**
 * The statement of insertExecutionLogs, with its parameters: one array a column, then the time
 * received. Every `insert … select` that may meet a row already there is in its conflict key's
 * order (the logs' too), so two batches in flight take their row locks in the same order and
 * never wait on each other in a cycle.
 */
function insertLogsStatement(params: readonly unknown[]): SQL {
  const names = sql.raw(LOG_COLUMNS.map(([name]) => name).join(', '));
  const arrays = sql.join(
    LOG_COLUMNS.map(([, type], index) => sql`${sql.param(params[index])}::${sql.raw(type)}[]`),
    sql`, `,
  );
  const receivedAt = sql`${sql.param(params[LOG_COLUMNS.length])}::bigint`;
  const counts = (width: number) => sql`
      select tenant_id, max(company_id) as company_id, workflow_id, execution_start - mod(execution_start, ${sql.raw(String(width))}::bigint) as bucket,
        count(*) filter (where status_type = 'success')::int as succeeded,
        count(*) filter (where status_type = 'faulted')::int as faulted,
        count(*) filter (where status_type = 'unknown')::int as unknown
      from log where tenant_id is not null and workflow_id is not null
      group by tenant_id, workflow_id, bucket
      order by tenant_id, bucket, workflow_id`;
  // Executed time spread over the buckets (or UTC days) a run ran in.
  const spread = (width: number) => sql`
      select tenant_id, max(company_id), slot,
        sum(least(execution_end, slot + ${sql.raw(String(width))}::bigint) - greatest(execution_start, slot))
      from log, generate_series(execution_start - mod(execution_start, ${sql.raw(String(width))}::bigint), execution_end - 1, ${sql.raw(String(width))}::bigint) as slot
      where tenant_id is not null and execution_end > execution_start
      group by tenant_id, slot
      order by tenant_id, slot`;
  return sql`
    with input as (select * from unnest(${arrays}) as input(${names})),
    log as (
      insert into execution_logs (${names}, received_at)
      select ${names}, ${receivedAt} from input
      order by id, execution_start
      on conflict do nothing
      returning id, tenant_id, company_id, account_id, workflow_id, execution_start, execution_end, status_type
    ),
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
      ${spread(BUCKET_MS)}
      on conflict (tenant_id, bucket_start) do update set execution_ms = execution_time_rollups.execution_ms + excluded.execution_ms
      returning 1
    ),
    daily_timed as (
      insert into execution_daily_time_rollups (tenant_id, company_id, day_start, execution_ms)
      ${spread(DAY_MS)}
      on conflict (tenant_id, day_start) do update set execution_ms = execution_daily_time_rollups.execution_ms + excluded.execution_ms
      returning 1
    ),
    last_runs as (
      insert into execution_last_runs (account_id, workflow_id, last_end)
      select account_id, workflow_id, max(execution_end) from log
      where account_id is not null and workflow_id is not null
      group by account_id, workflow_id
      order by account_id, workflow_id
      on conflict (account_id, workflow_id) do update set last_end = excluded.last_end
        where execution_last_runs.last_end < excluded.last_end
      returning 1
    )
    select id::text as id, execution_start::text as start from log`;
}

/** The statement's text, the same for every batch: prepared once a connection on node-postgres. */
const INSERT_LOGS_TEXT = (() => {
  const query = new PgDialect().sqlToQuery(insertLogsStatement(LOG_COLUMNS.map((_, index) => index).concat(-1)));
  // Its parameters must be numbered in insertExecutionLogs's order: the arrays, then the time received.
  if (query.params.some((value, index) => value !== (index < LOG_COLUMNS.length ? index : -1))) {
    throw new Error('insertLogsStatement numbers its parameters out of order');
  }
  return query.sql;
})();
const INSERT_LOGS_NAME = 'opsdeck_insert_execution_logs';

/**
 * Stores logs once each and, in the same statement (so in the same transaction), adds them to the
 * rollups: each status counted in its start's 15-minute bucket and UTC day, each run's executed
 * time spread over the 15-minute buckets and the UTC days it ran in, and each key's last end of
 * each workflow. A log whose id and start are stored already (a resent report) inserts nothing, so
 * nothing is counted twice. Answers the logs stored, as `id|executionStart`. Rows of one statement
 * are summed per rollup row first (an upsert may not touch a row twice): a batch adds to a busy
 * company's rows once, not once a log.
 */
export async function insertExecutionLogs(db: Executor, rows: readonly NewExecutionLog[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const params: unknown[] = LOG_COLUMNS.map(([, , value]) => rows.map((row) => value(row)));
  params.push(Date.now());
  const run = async (): Promise<{ id: string; start: string }[]> => {
    // On node-postgres (not inside a transaction), a named statement: parsed once a connection.
    const client = (db as { $client?: unknown }).$client;
    if (client instanceof pg.Pool) {
      const result = await client.query<{ id: string; start: string }>(
        { name: INSERT_LOGS_NAME, text: INSERT_LOGS_TEXT },
        params,
      );
      return result.rows;
    }
    return selectRows<{ id: string; start: string }>(db, insertLogsStatement(params));
  };
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

/**
 * Workflows by id, archived ones included (a run can end after its workflow was archived), each
 * with its version numbers and their creation times, oldest first (which version ran when): one
 * query, a row per version (a workflow without versions has one row with null version fields).
 */
export async function workflowsWithVersions(db: Executor, scope: TenantScope, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, WorkflowWithVersions>();
  const rows = await db
    .select({
      id: workflows.id,
      tenantId: workflows.tenantId,
      name: workflows.name,
      number: workflowVersions.number,
      createdAt: workflowVersions.createdAt,
    })
    .from(workflows)
    .leftJoin(workflowVersions, eq(workflowVersions.workflowId, workflows.id))
    .where(and(inArray(workflows.id, [...ids]), inScope(workflows.tenantId, scope)))
    .orderBy(workflows.id, workflowVersions.number);
  const found = new Map<number, WorkflowWithVersions>();
  for (const row of rows) {
    let workflow = found.get(row.id);
    if (!workflow) {
      workflow = { id: row.id, tenantId: row.tenantId, name: row.name, versions: [] };
      found.set(row.id, workflow);
    }
    if (row.number !== null && row.createdAt !== null) {
      workflow.versions.push({ number: row.number, createdAt: row.createdAt });
    }
  }
  return found;
}

export type WorkflowWithVersions = {
  id: number;
  tenantId: string;
  name: string;
  versions: { number: number; createdAt: number }[];
};

/**
 * The users whose e-mail (compared lower-cased) is one of these keys' own, in the key's tenant:
 * the executors of their runs. Read by the keys' ids, so that it need not wait for the keys.
 */
export async function usersOfAccounts(db: Executor, scope: TenantScope, accountIds: readonly number[]) {
  if (accountIds.length === 0) return [];
  return db
    .selectDistinct({
      id: users.id,
      tenantId: users.tenantId,
      firstName: users.firstName,
      lastName: users.lastName,
      emailAddress: users.emailAddress,
    })
    .from(users)
    .innerJoin(
      accounts,
      and(
        eq(
          sql`lower(${users.emailAddress})`,
          sql`lower(regexp_replace(${accounts.emailAddress}, '^\\s+|\\s+$', '', 'g'))`,
        ),
        eq(users.tenantId, accounts.tenantId),
      ),
    )
    .where(and(inArray(accounts.id, [...accountIds]), inScope(accounts.tenantId, scope)));
}

/** Moved to platform/partitions.ts (shared with the activity spans); kept here for the seed's import. */
export { ensureMonthPartition } from '../../platform/partitions';

export type QueuedEntry = { entryId: number; workflowId: number };

/**
 * Counts runs queued on an agent (its `added` entries) in the rollups, in one statement: only the
 * tenant's workflows, and not an entry that is still open from an earlier announcement (an agent
 * announces its queue again after a reconnection). Answers how many were new. Each upsert in its
 * conflict key's order, as insertExecutionLogs's, so the two never wait on each other in a cycle.
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
      order by entry.entry_id, entry.workflow_id
      on conflict (account_id, entry_id, workflow_id) where open do nothing
      returning workflow_id
    ),
    per_workflow as (select workflow_id, count(*)::int as n from queued group by workflow_id),
    counted as (
      insert into execution_rollups (tenant_id, company_id, workflow_id, bucket_start, queued)
      select ${agent.tenantId}::uuid, (select id from company), workflow_id, ${bucket}::bigint, n from per_workflow
      order by workflow_id
      on conflict (tenant_id, bucket_start, workflow_id) do update set queued = execution_rollups.queued + excluded.queued
      returning 1
    ),
    daily as (
      insert into execution_daily_rollups (tenant_id, company_id, workflow_id, day_start, queued)
      select ${agent.tenantId}::uuid, (select id from company), workflow_id, ${day}::bigint, n from per_workflow
      order by workflow_id
      on conflict (tenant_id, day_start, workflow_id) do update set queued = execution_daily_rollups.queued + excluded.queued
      returning 1
    )
    select coalesce(sum(n), 0)::int as queued from per_workflow`,
  );
  return Number(rows[0]?.queued ?? 0);
}

/** Entries the agent removed from its queue (ended, terminated or unqueued): no longer open. */
export async function closeQueuedRuns(
  db: Executor,
  scope: TenantScope,
  accountId: number,
  entryIds: readonly number[],
) {
  if (entryIds.length === 0) return;
  await db
    .update(queuedRuns)
    .set({ open: false })
    .where(
      and(
        eq(queuedRuns.accountId, accountId),
        inArray(queuedRuns.entryId, [...entryIds]),
        eq(queuedRuns.open, true),
        inScope(queuedRuns.tenantId, scope),
      ),
    );
}

/**
 * When a key's agent last ended each workflow it ran: the `lastExecution` of its workflow list.
 * Read from execution_last_runs, kept by insertExecutionLogs: a few rows, not every log of the key.
 */
export async function lastExecutions(db: Executor, accountId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ workflowId: executionLastRuns.workflowId, last: executionLastRuns.lastEnd })
    .from(executionLastRuns)
    .where(eq(executionLastRuns.accountId, accountId));
  return new Map(rows.map((row) => [row.workflowId, Number(row.last)]));
}
