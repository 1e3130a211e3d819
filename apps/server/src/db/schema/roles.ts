import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

export const authorities = pgTable('authorities', {
  key: text('key').primaryKey(),
  title: text('title').notNull(),
});

/** Roles are the spec's user groups; the provider's own roles have no tenant. */
export const roles = pgTable(
  'roles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id'),
    name: text('name').notNull(),
    /** The built-in role this row is, if any (BUILT_IN_ROLES of the contract). */
    builtIn: text('built_in'),
    isProtected: boolean('is_protected').notNull().default(false),
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('roles_tenant_name_lower_key').on(
      sql`coalesce(${table.tenantId}::text, '')`,
      sql`lower(${table.name})`,
    ),
    index('roles_tenant_id_idx').on(table.tenantId),
  ],
);

export const roleAuthorities = pgTable(
  'role_authorities',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    authorityKey: text('authority_key')
      .notNull()
      .references(() => authorities.key, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.roleId, table.authorityKey] })],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.roleId] }), index('user_roles_role_id_idx').on(table.roleId)],
);
