import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, type PgColumn, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { epochMs, orEmpty } from './columns';

/**
 * The audit log (docs/audit.md): one row per change, written in the change's own transaction.
 * Append-only: a trigger (migration 0021) refuses UPDATE, TRUNCATE and DELETE, except the
 * retention's DELETE of rows older than the floor it allows. No foreign keys: a record outlives the
 * user, the company and the row it names, and keeps their names as they were.
 */
/** The words the audit page's search looks in: its trigram index and its query spell them so. */
export const auditSearchText = (table: {
  actorName: PgColumn;
  entityName: PgColumn;
  companyName: PgColumn;
  action: PgColumn;
}) =>
  sql`lower(${table.actorName} || ' ' || ${orEmpty(table.entityName)} || ' ' || ${orEmpty(table.companyName)} || ' ' || ${table.action})`;

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: epochMs('at').notNull(),
    /** The company the record belongs to (the changed row's); null for the provider's own rows. */
    tenantId: uuid('tenant_id'),
    companyName: text('company_name'),
    /** 'user', 'token' (a user's API token) or 'agent'. */
    actorType: text('actor_type').notNull(),
    /** The user (a token's user), or the agent's account; null when nobody signed in (a failed sign-in). */
    actorId: integer('actor_id'),
    actorTokenId: integer('actor_token_id'),
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    entityName: text('entity_name'),
    /** `[{ field, before, after }]`, secrets redacted before they reach it. */
    changes: jsonb('changes').notNull().default(sql`'[]'::jsonb`),
    address: text('address'),
    userAgent: text('user_agent'),
  },
  (table) => [
    // Newest first, for everyone and per company: page 1 of five million records reads ten entries.
    // DESC is NULLS FIRST, as the queries' ORDER BY … DESC: an index in the other null order is not
    // used for it, even on columns that hold no null (docs/performance.md, "The audit log").
    index('audit_log_at_idx').on(table.at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('audit_log_tenant_at_idx').on(table.tenantId, table.at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('audit_log_actor_at_idx').on(table.actorId, table.at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('audit_log_entity_at_idx').on(
      table.entityType,
      table.entityId,
      table.at.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('audit_log_action_at_idx').on(table.action, table.at.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // A company's filters by action and by person, counted from the index alone.
    index('audit_log_tenant_action_at_idx').on(
      table.tenantId,
      table.action,
      table.at.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('audit_log_tenant_actor_at_idx').on(
      table.tenantId,
      table.actorId,
      table.at.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // The page's word search over the names and the action, through trigrams.
    index('audit_log_search_trgm_idx').using('gin', sql`${auditSearchText(table)} gin_trgm_ops`),
  ],
);
