import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

export const industryTypes = pgTable('industry_types', {
  key: text('key').primaryKey(),
  name: text('name').notNull(),
});

export const companies = pgTable(
  'companies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull().unique(),
    name: text('name').notNull(),
    emailAddress: text('email_address'),
    industryTypeKey: text('industry_type_key')
      .notNull()
      .references(() => industryTypes.key),
    headId: integer('head_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('companies_name_lower_key').on(sql`lower(${table.name})`),
    index('companies_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
    index('companies_head_id_idx').on(table.headId),
  ],
);
