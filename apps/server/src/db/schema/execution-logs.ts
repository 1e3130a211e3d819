import type { ExecutionStatus } from '@opsdeck/contract/live';
import { type SQL, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  type PgColumn,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { epochMs, orEmpty } from './columns';
import { companies } from './companies';
import { departments } from './departments';
import { accounts } from './licenses';
import { users } from './users';
import { workflows } from './workflows';

/**
 * What the lists' search reads (docs/reports.md, "Search"): the searched fields lower-cased and
 * joined into one text, each field apart from the next by U+0001 (a search never holds it, so no
 * match spans two fields), kept in a trigram index. The index and the query use this one
 * expression: PostgreSQL uses an expression index only for the same expression.
 */
export function searchText(fields: readonly PgColumn[], fullName: SQL): SQL {
  const parts = [...fields.map((field) => orEmpty(field)), fullName];
  return sql`lower(${sql.join(parts, sql` || e'\\x01' || `)})`;
}

type SearchColumns = {
  errorMessage: PgColumn;
  errorActivity: PgColumn;
  workflowName: PgColumn;
  emailAddress: PgColumn;
  macAddress: PgColumn;
  executorFirstName: PgColumn;
  executorLastName: PgColumn;
  companyName: PgColumn;
  departmentName: PgColumn;
};

/** An exception's searched fields (spec section 5): message, activity, workflow, e-mail, MAC address, executor. */
export function exceptionSearchText(log: SearchColumns): SQL {
  const fullName = sql`${log.executorFirstName} || ' ' || ${log.executorLastName}`;
  return searchText(
    [log.errorMessage, log.errorActivity, log.workflowName, log.emailAddress, log.macAddress],
    fullName,
  );
}

/** A log's: the exception's and the company and department (status and end are tested apart). */
export function logSearchText(log: SearchColumns): SQL {
  const fullName = sql`${log.executorFirstName} || ' ' || ${log.executorLastName}`;
  return searchText(
    [
      log.errorMessage,
      log.errorActivity,
      log.workflowName,
      log.emailAddress,
      log.macAddress,
      log.companyName,
      log.departmentName,
    ],
    fullName,
  );
}

/**
 * One finished run of a workflow on an agent (`/agent/execution`, docs/live-channel.md); a faulted
 * one is also an exception (spec section 3). `id` is the agent's report id, so a report sent twice
 * is stored once. Who, where and what are copied as they were when the run ended: the log outlives
 * the key, the workflow and the user it names (their ids become null), and goes with its company.
 *
 * Partitioned by month of `execution_start` (migration 0011; docs/reports.md): retention drops a
 * month whole, and the key is (id, execution_start) since a partitioned table's keys must hold the
 * partition column (a resent report carries the same start, so it is still stored once). Drizzle
 * does not know partitioning: the migration and `platform/partitions.ts` do.
 */
export const executionLogs = pgTable(
  'execution_logs',
  {
    id: uuid('id').notNull(),
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
    hostname: text('hostname'),
    workflowId: integer('workflow_id').references(() => workflows.id, { onDelete: 'set null' }),
    workflowName: text('workflow_name').notNull(),
    /** The workflow's version number current when the run started. */
    workflowVersion: integer('workflow_version'),
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
    primaryKey({ name: 'execution_logs_pkey', columns: [table.id, table.executionStart] }),
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
    index('execution_logs_faulted_idx')
      .on(table.executionStart.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`status_type = 'faulted'`),
    // The search (searchText): a month's search reads its matches, not the month.
    index('execution_logs_search_idx').using('gin', sql`${logSearchText(table)} gin_trgm_ops`),
    index('execution_logs_exception_search_idx')
      .using('gin', sql`${exceptionSearchText(table)} gin_trgm_ops`)
      .where(sql`status_type = 'faulted'`),
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

/**
 * The report counts (docs/reports.md): per tenant, workflow and 15-minute bucket (UTC epoch ms, a
 * multiple of 900,000), the runs by status counted at their start and the runs queued counted when
 * queued. Kept in the transaction that stores each log or queued run, never from a resent one, so
 * that a report reads a few thousand rows and outlives the logs' retention. Fifteen minutes: every
 * time zone whose offset is a multiple of 15 minutes starts its days on a bucket boundary.
 */
const counts = {
  succeeded: integer('succeeded').notNull().default(0),
  faulted: integer('faulted').notNull().default(0),
  unknown: integer('unknown').notNull().default(0),
  queued: integer('queued').notNull().default(0),
};

export const executionRollups = pgTable(
  'execution_rollups',
  {
    tenantId: uuid('tenant_id').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    workflowId: integer('workflow_id').notNull(),
    bucketStart: epochMs('bucket_start').notNull(),
    ...counts,
  },
  (table) => [
    primaryKey({ name: 'execution_rollups_pkey', columns: [table.tenantId, table.bucketStart, table.workflowId] }),
    index('execution_rollups_bucket_idx').on(table.bucketStart),
    index('execution_rollups_company_id_idx').on(table.companyId),
  ],
);

/** The same counts per UTC day: a month's report reads 31 rows a workflow, not 2,976. */
export const executionDailyRollups = pgTable(
  'execution_daily_rollups',
  {
    tenantId: uuid('tenant_id').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    workflowId: integer('workflow_id').notNull(),
    dayStart: epochMs('day_start').notNull(),
    ...counts,
  },
  (table) => [
    primaryKey({ name: 'execution_daily_rollups_pkey', columns: [table.tenantId, table.dayStart, table.workflowId] }),
    index('execution_daily_rollups_day_idx').on(table.dayStart),
    index('execution_daily_rollups_company_id_idx').on(table.companyId),
  ],
);

/**
 * Executed time per tenant and 15-minute bucket: a run's milliseconds spread over the buckets it
 * ran in (a run from 23:50 to 00:20 gives 10 minutes to one day and 20 to the next).
 */
export const executionTimeRollups = pgTable(
  'execution_time_rollups',
  {
    tenantId: uuid('tenant_id').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    bucketStart: epochMs('bucket_start').notNull(),
    executionMs: epochMs('execution_ms').notNull().default(0),
  },
  (table) => [
    primaryKey({ name: 'execution_time_rollups_pkey', columns: [table.tenantId, table.bucketStart] }),
    index('execution_time_rollups_bucket_idx').on(table.bucketStart),
    index('execution_time_rollups_company_id_idx').on(table.companyId),
  ],
);

/**
 * The same executed time per UTC day: every company's month is 31 rows a company, and a day of a
 * zone is its UTC day with the 15-minute buckets between the two midnights added or taken away.
 */
export const executionDailyTimeRollups = pgTable(
  'execution_daily_time_rollups',
  {
    tenantId: uuid('tenant_id').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    dayStart: epochMs('day_start').notNull(),
    executionMs: epochMs('execution_ms').notNull().default(0),
  },
  (table) => [
    primaryKey({ name: 'execution_daily_time_rollups_pkey', columns: [table.tenantId, table.dayStart] }),
    index('execution_daily_time_rollups_day_idx').on(table.dayStart),
    index('execution_daily_time_rollups_company_id_idx').on(table.companyId),
  ],
);

/**
 * When a key's agent last ended each workflow (the `lastExecution` of the workflow list an agent
 * gets when it connects): kept by the statement that stores the logs, so a connect reads a few
 * rows rather than every log of the key. Outlives the logs' retention.
 */
export const executionLastRuns = pgTable(
  'execution_last_runs',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    workflowId: integer('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    lastEnd: epochMs('last_end').notNull(),
  },
  (table) => [
    primaryKey({ name: 'execution_last_runs_pkey', columns: [table.accountId, table.workflowId] }),
    index('execution_last_runs_workflow_id_idx').on(table.workflowId),
  ],
);

/**
 * Runs queued on an agent (`/agent/queue`'s `added`, from a console's execute or by the agent
 * itself): the scheduled count of the reports. `open` until the agent removes the entry; an entry
 * the agent announces again while open (after a reconnection) is not counted again.
 */
export const queuedRuns = pgTable(
  'queued_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The agent's own id of the queue entry. */
    entryId: integer('entry_id').notNull(),
    workflowId: integer('workflow_id').notNull(),
    queuedAt: epochMs('queued_at').notNull(),
    open: boolean('open').notNull().default(true),
  },
  (table) => [
    uniqueIndex('queued_runs_open_entry_key').on(table.accountId, table.entryId, table.workflowId).where(sql`open`),
    index('queued_runs_tenant_queued_idx').on(table.tenantId, table.queuedAt),
    index('queued_runs_queued_idx').on(table.queuedAt),
    index('queued_runs_company_id_idx').on(table.companyId),
  ],
);
