import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { executionLogs, users, workflows } from '../../db/schema';
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

/** Stores a log once: false when a log with its id (the agent's report id) already exists. */
export async function insertExecutionLog(db: Executor, values: NewExecutionLog): Promise<boolean> {
  const rows = await db
    .insert(executionLogs)
    .values(values)
    .onConflictDoNothing({ target: executionLogs.id })
    .returning({ id: executionLogs.id });
  return rows.length > 0;
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
