import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns';
import { companies } from './companies';
import { departments } from './departments';

/** A user with no company (tenant null) is a provider administrator (spec section 1). */
export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id'),
    companyId: integer('company_id').references((): AnyPgColumn => companies.id, { onDelete: 'cascade' }),
    departmentId: integer('department_id').references((): AnyPgColumn => departments.id, { onDelete: 'set null' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    emailAddress: text('email_address').notNull(),
    archived: boolean('archived').notNull().default(false),
    /**
     * The first of the user's role names, lower-cased (null without a role): the users table's
     * role order. Kept by triggers on user_roles and roles (migration 0004), never written here.
     */
    roleKey: text('role_key'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${table.emailAddress})`),
    index('users_tenant_id_idx').on(table.tenantId),
    index('users_department_id_idx').on(table.departmentId),
    index('users_company_id_idx').on(table.companyId),
    // The users table's default order (full name, then id) served by an index, per company and
    // for an admin reading every company, so a page of 10 reads 10 entries (issue 3: 100,000 users).
    index('users_tenant_full_name_idx')
      .on(table.tenantId, sql`lower(${table.firstName} || ' ' || ${table.lastName})`, table.id)
      .where(sql`${table.archived} = false`),
    index('users_full_name_idx')
      .on(sql`lower(${table.firstName} || ' ' || ${table.lastName})`, table.id)
      .where(sql`${table.archived} = false`),
    // The role order, both ways (users without a role last), served by an index like the name's.
    index('users_tenant_role_asc_idx')
      .on(
        table.tenantId,
        table.roleKey.asc().nullsLast(),
        sql`lower(${table.firstName} || ' ' || ${table.lastName})`,
        table.id,
      )
      .where(sql`${table.archived} = false`),
    index('users_tenant_role_desc_idx')
      .on(
        table.tenantId,
        table.roleKey.desc().nullsLast(),
        sql`lower(${table.firstName} || ' ' || ${table.lastName})`,
        table.id,
      )
      .where(sql`${table.archived} = false`),
    // The list's substring search ('%text%') on the name and the e-mail, through trigrams (pg_trgm,
    // loaded into PGlite at open), so a search does not read every user of a large company.
    index('users_full_name_trgm_idx')
      .using('gin', sql`lower(${table.firstName} || ' ' || ${table.lastName}) gin_trgm_ops`)
      .where(sql`${table.archived} = false`),
    index('users_email_trgm_idx')
      .using('gin', sql`lower(${table.emailAddress}) gin_trgm_ops`)
      .where(sql`${table.archived} = false`),
  ],
);

export const credentials = pgTable('credentials', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  passwordChangedAt: epochMs('password_changed_at').notNull(),
});

/** The token itself is never stored: only its SHA-256 (docs/architecture.md, "Security"). */
export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: epochMs('expires_at').notNull(),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

export const passwordResetKeys = pgTable(
  'password_reset_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: epochMs('expires_at').notNull(),
    usedAt: epochMs('used_at'),
  },
  (table) => [index('password_reset_keys_user_id_idx').on(table.userId)],
);
