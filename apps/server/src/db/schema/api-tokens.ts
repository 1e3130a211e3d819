import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns';
import { users } from './users';

/**
 * A user's personal API tokens (docs/security.md, API tokens). The token itself is never stored:
 * only its SHA-256, like a session's. Revoking deletes the row. `tenant_id` is the user's (null
 * for a provider administrator), kept for the domain events that name a tenant.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id'),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** Authority keys: what the token may do at most; always narrowed to its user's current ones. */
    scopes: text('scopes').array().notNull(),
    createdAt: createdAt(),
    expiresAt: epochMs('expires_at').notNull(),
    /** Written at most once a minute per token and server instance, off the request path. */
    lastUsedAt: epochMs('last_used_at'),
    lastUsedAddress: text('last_used_address'),
  },
  (table) => [index('api_tokens_user_id_idx').on(table.userId)],
);
