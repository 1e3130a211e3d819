import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns';

/**
 * The provider's catalogue of automation activities (spec section 3): one list for every
 * company; the licence types unlock the premium ones. Archived, never deleted (spec section 4).
 */
export const activities = pgTable(
  'activities',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** What workflows and licence files name the activity by: unique among the live ones. */
    key: text('key').notNull(),
    category: text('category').notNull().default(''),
    partial: boolean('partial').notNull().default(false),
    createdAt: createdAt(),
    archivedAt: epochMs('archived_at'),
  },
  (table) => [
    uniqueIndex('activities_key_live_idx').on(sql`lower(${table.key})`).where(sql`${table.archivedAt} is null`),
    index('activities_created_at_idx').on(table.createdAt),
  ],
);
