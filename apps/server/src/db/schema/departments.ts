import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/** Departments form a tree per tenant; each may have a head (spec sections 3 and 6). */
export const departments = pgTable(
  'departments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    name: text('name').notNull(),
    headId: integer('head_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    parentId: integer('parent_id').references((): AnyPgColumn => departments.id, { onDelete: 'restrict' }),
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('departments_tenant_name_lower_key').on(table.tenantId, sql`lower(${table.name})`),
    index('departments_parent_id_idx').on(table.parentId),
    index('departments_head_id_idx').on(table.headId),
  ],
);
