import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns';

/**
 * Webhooks (docs/webhooks.md). An endpoint belongs to a company (`tenant_id`), or to the provider
 * (null: told of every company's events). The secret is kept as given (`whsec_…`): signing needs
 * it, so it cannot be a digest; the API shows it once, at creation.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id'),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why the server disabled it ('gone': a 410; 'failing': three days of failures); null otherwise. */
    disabledReason: text('disabled_reason'),
    /** The first failed attempt since the last success; null while it succeeds. */
    failingSince: epochMs('failing_since'),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (table) => [index('webhook_endpoints_tenant_idx').on(table.tenantId)],
);

/**
 * The outbox: one row per event, written in the transaction of the change that caused it. Its id
 * is the `webhook-id` every delivery of it carries (`msg_` and a UUID).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    type: text('type').notNull(),
    /** The delivery body as it is signed and sent: `{ type, timestamp, data }`. */
    body: text('body').notNull(),
    at: epochMs('at').notNull(),
  },
  (table) => [index('webhook_events_at_idx').on(table.at)],
);

/**
 * One event's delivery to one endpoint, written with the event. The sender claims due rows with
 * `FOR UPDATE SKIP LOCKED` and leases them (`next_attempt_at` moved past the attempt's timeout), so
 * that instances sharing the table never send one delivery at the same time, and a delivery whose
 * sender died is taken up again once its lease ends.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** pending, succeeded, failed. */
    status: text('status').notNull().default('pending'),
    attempt: integer('attempt').notNull().default(0),
    at: epochMs('at').notNull(),
    /** Null once it succeeded or was given up. */
    nextAttemptAt: epochMs('next_attempt_at'),
    /** Set while a sender holds it for an attempt (claimDue); nothing else moves it meanwhile. */
    leasedUntil: epochMs('leased_until'),
    /** The first attempt: a delivery is given up three days after it. */
    firstAttemptAt: epochMs('first_attempt_at'),
    lastAttemptAt: epochMs('last_attempt_at'),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    /** The first 1 KiB of the last answer, or why there was none. */
    response: text('response'),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(table.endpointId, table.id.desc().nullsFirst()),
    index('webhook_deliveries_event_idx').on(table.eventId),
  ],
);
