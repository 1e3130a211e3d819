import type { ExecutionStatus } from '@opsdeck/contract/live';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';
import { companies } from './companies';
import { departments } from './departments';
import { accounts } from './licenses';
import { users } from './users';
import { workflows } from './workflows';

/**
 * One finished run of a workflow on an agent (`/agent/execution`, ../shared/LIVE.md); a faulted
 * one is also an exception (spec section 3). `id` is the agent's report id, so a report sent twice
 * is stored once. Who, where and what are copied as they were when the run ended: the log outlives
 * the key, the workflow and the user it names (their ids become null), and goes with its company.
 */
export const executionLogs = pgTable(
  'execution_logs',
  {
    id: uuid('id').primaryKey(),
    /** Null for a solo licence's agent. */
    tenantId: uuid('tenant_id'),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    companyName: text('company_name'),
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'set null' }),
    departmentName: text('department_name'),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The company's user whose e-mail is the key's, if any. */
    executorUserId: integer('executor_user_id').references(() => users.id, { onDelete: 'set null' }),
    executorFirstName: text('executor_first_name').notNull().default(''),
    executorLastName: text('executor_last_name').notNull().default(''),
    emailAddress: text('email_address'),
    macAddress: text('mac_address').notNull(),
    workflowId: integer('workflow_id').references(() => workflows.id, { onDelete: 'set null' }),
    workflowName: text('workflow_name').notNull(),
    executionStart: epochMs('execution_start').notNull(),
    executionEnd: epochMs('execution_end').notNull(),
    statusType: text('status_type').$type<ExecutionStatus>().notNull(),
    errorMessage: text('error_message'),
    errorActivity: text('error_activity'),
    receivedAt: epochMs('received_at')
      .notNull()
      .$defaultFn(() => Date.now()),
  },
  (table) => [
    check('execution_logs_status_type_check', sql`${table.statusType} in ('success', 'faulted', 'unknown')`),
    // The reports read a date range of one company, newest first (ties by id, for stable pages);
    // the exceptions page reads only the faulted ones; the provider watching every company reads all.
    // NULLS FIRST is PostgreSQL's own DESC order, so a plain `order by … desc` walks these indexes.
    index('execution_logs_tenant_start_idx').on(
      table.tenantId,
      table.executionStart.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('execution_logs_tenant_faulted_idx')
      .on(table.tenantId, table.executionStart.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`status_type = 'faulted'`),
    index('execution_logs_start_idx').on(table.executionStart.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('execution_logs_tenant_executor_idx').on(table.tenantId, table.executorUserId, table.executionStart),
    // Every foreign key's action (a key, a licence, a company or its workflows, users and departments
    // deleted) looks the logs up by that column: without these, each deleted row reads the whole table.
    index('execution_logs_company_id_idx').on(table.companyId),
    index('execution_logs_account_id_idx').on(table.accountId),
    index('execution_logs_workflow_id_idx').on(table.workflowId),
    index('execution_logs_executor_user_id_idx').on(table.executorUserId),
    index('execution_logs_department_id_idx').on(table.departmentId),
  ],
);
