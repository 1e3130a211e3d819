import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns';
import { accounts } from './licenses';
import { users } from './users';

/** A company's alert rules (docs/alerts.md): a kind, its parameters, the channels it tells. */
export const alertRules = pgTable(
  'alert_rules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    channels: text('channels').array().notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (table) => [index('alert_rules_tenant_idx').on(table.tenantId)],
);

/**
 * Alerts raised. One open alert per rule and subject, held by the database (a partial unique
 * index): instances checking the same rule at once raise it once; repeats fold into it until it
 * clears.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    ruleId: integer('rule_id').references(() => alertRules.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    /** What it is about, as the rule's check names it (`account:12`, `workflow:5:…`). */
    subjectKey: text('subject_key').notNull(),
    subject: text('subject').notNull(),
    link: text('link'),
    raisedAt: epochMs('raised_at').notNull(),
    clearedAt: epochMs('cleared_at'),
  },
  (table) => [
    uniqueIndex('alerts_open_idx').on(table.ruleId, table.subjectKey).where(sql`${table.clearedAt} is null`),
    index('alerts_tenant_idx').on(table.tenantId, table.raisedAt.desc().nullsFirst()),
  ],
);

/** A person's notification centre. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id'),
    alertId: integer('alert_id').references(() => alerts.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    createdAt: createdAt(),
    readAt: epochMs('read_at'),
  },
  (table) => [
    index('notifications_user_idx').on(table.userId, table.id.desc().nullsFirst()),
    index('notifications_unread_idx').on(table.userId).where(sql`${table.readAt} is null`),
  ],
);

/** Which kinds reach a person by e-mail: `{ kind: false }` turns one off (absent: on). */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: jsonb('email').$type<Record<string, boolean>>().notNull().default({}),
});

/**
 * When each key's agent was last connected (docs/alerts.md, agent_offline): written when an agent
 * connects and when it leaves. `connected` may stay true after an instance died; the check then
 * asks the live presence.
 */
export const agentSightings = pgTable(
  'agent_sightings',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id'),
    connected: boolean('connected').notNull(),
    seenAt: epochMs('seen_at').notNull(),
  },
  (table) => [index('agent_sightings_tenant_idx').on(table.tenantId, table.seenAt)],
);
