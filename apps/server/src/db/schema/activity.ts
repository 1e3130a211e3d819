import type { ActivityKind } from '@opsdeck/contract/activity';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';
import { companies } from './companies';
import { accounts } from './licenses';
import { users } from './users';

/**
 * Spans of activity an agent reported (`/agent/activity`; docs/monitor.md): what the person of its
 * key did, from `started_at` to `ended_at` (null while it goes on). `id` is the agent's; a span
 * sent again may only move its end later (modules/activity).
 *
 * Partitioned by UTC month of `started_at` (migration 0014, like execution_logs: the retention
 * drops a month whole), hence the key (id, started_at). Drizzle does not know partitioning: the
 * migration and `platform/partitions.ts` do. A solo licence's activity is not stored, so
 * `tenant_id` is never null. `status_id` and `task_id` have no foreign key: a span outlives the
 * status or task it names, as the rollups' items do.
 */
export const activitySpans = pgTable(
  'activity_spans',
  {
    id: uuid('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The company's user whose e-mail is the key's, if any (the person). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').$type<ActivityKind>().notNull(),
    startedAt: epochMs('started_at').notNull(),
    endedAt: epochMs('ended_at'),
    /** The foreground application of an `app` span; null for the other kinds. */
    application: text('application'),
    statusId: integer('status_id'),
    taskId: integer('task_id'),
    /**
     * The end was set by the server (its agent went away: the last heart-beat), not by the agent:
     * the agent's next word on the span replaces it, earlier, later or open again.
     */
    endedByServer: boolean('ended_by_server').notNull().default(false),
    receivedAt: epochMs('received_at').notNull(),
  },
  (table) => [
    primaryKey({ name: 'activity_spans_pkey', columns: [table.id, table.startedAt] }),
    check('activity_spans_kind_check', sql`${table.kind} in ('session', 'app', 'status', 'task', 'idle')`),
    // The spans a widget reads raw (docs/monitor.md, "The widgets"): a kind's spans of a company in
    // a range (login hours, breaks, status people, the application timeline, idle alerts), the
    // same of one person, and everything newest first (the action timeline).
    index('activity_spans_tenant_start_idx').on(table.tenantId, table.startedAt.desc().nullsFirst()),
    index('activity_spans_tenant_kind_start_idx').on(table.tenantId, table.kind, table.startedAt),
    index('activity_spans_tenant_user_kind_start_idx').on(table.tenantId, table.userId, table.kind, table.startedAt),
    // The closed spans of 15 minutes or more: what overlaps a sub-bucket end of a widget's range
    // and started over 15 minutes before it (up to a day) is among these few, not among a whole
    // day of a company's app switches (modules/monitor/rollup-widgets.ts, readSlices).
    index('activity_spans_tenant_kind_long_idx')
      .on(table.tenantId, table.kind, table.startedAt)
      .where(sql`ended_at - started_at >= 900000`),
    // A company's (or a person's) sessions and idle spans with their person and end, read from the
    // index alone: attendance's arrivals and utilization's unions (modules/monitor/span-queries.ts)
    // read a month of them; the table's rows hold 300 spans a person a day besides.
    index('activity_spans_tenant_presence_idx')
      .on(table.tenantId, table.kind, table.startedAt, table.userId, table.endedAt)
      .where(sql`kind in ('session', 'idle')`),
    index('activity_spans_tenant_user_presence_idx')
      .on(table.tenantId, table.userId, table.kind, table.startedAt, table.endedAt)
      .where(sql`kind in ('session', 'idle')`),
    // Open spans: counted up to now by the widgets, closed when their agent goes away.
    index('activity_spans_open_account_idx').on(table.accountId).where(sql`ended_at is null`),
    index('activity_spans_open_tenant_idx').on(table.tenantId, table.kind).where(sql`ended_at is null`),
    // Foreign keys' actions (a company, key or user deleted) look the spans up by that column.
    index('activity_spans_company_id_idx').on(table.companyId),
    index('activity_spans_account_id_idx').on(table.accountId),
    index('activity_spans_user_id_idx').on(table.userId),
  ],
);

/**
 * Closed time of the spans (docs/monitor.md, "Storage"): per tenant, person, 15-minute bucket
 * (UTC epoch ms, a multiple of 900,000), kind and item (the application, the status or task id as
 * text, '' for sessions and idle), the milliseconds spent and the spans that started in it. Kept in
 * the transaction that stores the spans. `person_id` is the user's id, or 0 for the company's total
 * over everyone (a span with no person adds only there). The key starts with the person, so that a
 * company's rows (person 0) or one person's over a month are one range of the index.
 */
const rollupColumns = {
  tenantId: uuid('tenant_id').notNull(),
  companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
  personId: integer('person_id').notNull(),
  kind: text('kind').$type<ActivityKind>().notNull(),
  item: text('item').notNull().default(''),
  durationMs: epochMs('duration_ms').notNull().default(0),
  starts: integer('starts').notNull().default(0),
};

export const activityRollups = pgTable(
  'activity_rollups',
  {
    ...rollupColumns,
    bucketStart: epochMs('bucket_start').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'activity_rollups_pkey',
      columns: [table.tenantId, table.personId, table.bucketStart, table.kind, table.item],
    }),
    index('activity_rollups_bucket_idx').on(table.bucketStart),
    index('activity_rollups_company_id_idx').on(table.companyId),
  ],
);

/** The same per UTC day: a company's month is about 600 rows (docs/monitor.md). */
export const activityDailyRollups = pgTable(
  'activity_daily_rollups',
  {
    ...rollupColumns,
    dayStart: epochMs('day_start').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'activity_daily_rollups_pkey',
      columns: [table.tenantId, table.personId, table.dayStart, table.kind, table.item],
    }),
    index('activity_daily_rollups_day_idx').on(table.dayStart),
    // Every person's rows of some kinds over a range (active_users, the people of status_summary)
    // without reading their applications' rows, from the index alone (modules/monitor).
    index('activity_daily_rollups_tenant_kind_day_idx').on(
      table.tenantId,
      table.kind,
      table.dayStart,
      table.personId,
      table.item,
      table.durationMs,
      table.starts,
    ),
    index('activity_daily_rollups_company_id_idx').on(table.companyId),
  ],
);

/**
 * When the server last heard from each key's agent (a frame, or a heart-beat noted every minute):
 * the end given to the spans an agent left open when the server that held it stopped without
 * seeing it go (docs/monitor.md).
 */
export const activityAgents = pgTable('activity_agents', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  lastSeen: epochMs('last_seen').notNull(),
});

/**
 * Task productivity per UTC day (docs/monitor.md, "Task productivity"): for each person (or, for a
 * key with no person, minus its key's id), UTC day and task, the time of the task's closed spans in
 * that day, and how much of it was active (inside a session, outside idle) and idle, each agent's
 * spans against its own sessions and idle. Person 0 is the company's sum. Not kept by the ingest
 * itself (the overlap of a task with idle is not a sum of spans): the ingest marks the person-day
 * stale (activity_task_days_stale) in its transaction, and the activity service recomputes it from
 * the spans shortly after; a widget computes stale person-days, and those with an open span, from
 * the spans itself.
 */
export const activityTaskDays = pgTable(
  'activity_task_days',
  {
    tenantId: uuid('tenant_id').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    personId: integer('person_id').notNull(),
    dayStart: epochMs('day_start').notNull(),
    taskId: integer('task_id').notNull(),
    activeMs: epochMs('active_ms').notNull(),
    idleMs: epochMs('idle_ms').notNull(),
    taskMs: epochMs('task_ms').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'activity_task_days_pkey',
      columns: [table.tenantId, table.personId, table.dayStart, table.taskId],
    }),
    index('activity_task_days_company_id_idx').on(table.companyId),
    // The company's rows of a day summed again from its people's (modules/activity/task-days.ts).
    index('activity_task_days_tenant_day_idx').on(table.tenantId, table.dayStart),
  ],
);

/**
 * The person-days of activity_task_days whose spans changed since they were computed: marked by
 * the ingest in the transaction that changes the spans, `version` counting the marks, removed by
 * the recomputation only when no mark came meanwhile.
 */
export const activityTaskDaysStale = pgTable(
  'activity_task_days_stale',
  {
    tenantId: uuid('tenant_id').notNull(),
    personId: integer('person_id').notNull(),
    dayStart: epochMs('day_start').notNull(),
    version: integer('version').notNull().default(1),
  },
  (table) => [
    primaryKey({ name: 'activity_task_days_stale_pkey', columns: [table.tenantId, table.personId, table.dayStart] }),
  ],
);
