import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns';
import { companies } from './companies';
import { departments } from './departments';
import { licenseTypes } from './license-types';
import { users } from './users';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A licence (spec section 3): a company's, or a solo licence (an individual's, `company_id`
 * null). Hard-deleted (spec section 4); a company with licences cannot be deleted, hence
 * `restrict`. `tenant_id` is the company's, null for a solo licence.
 */
export const licenses = pgTable(
  'licenses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'restrict' }),
    tenantId: uuid('tenant_id'),
    typeKey: text('type_key')
      .notNull()
      .references(() => licenseTypes.key),
    label: text('label').notNull().default(''),
    issueDate: epochMs('issue_date').notNull(),
    expirationDate: epochMs('expiration_date').notNull(),
    maxAccounts: integer('max_accounts').notNull(),
    invalidatedAt: epochMs('invalidated_at'),
    createdAt: createdAt(),
  },
  (table) => [index('licenses_company_id_idx').on(table.companyId)],
);

/**
 * A licence key and the account it makes (spec section 3: one row is both). The key is kept
 * only as its SHA-256 digest and its partial form; a key made from a registration file also
 * keeps the full key sealed (AES-256-GCM under a key derived from the licence signing key), so
 * that its licence file can be exported again (docs/licensing.md). Hard-deleted with its licence.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    licenseId: integer('license_id')
      .notNull()
      .references(() => licenses.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id'),
    solo: boolean('solo').notNull().default(false),
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'set null' }),
    /** The department's name when the key was made: the licence file carries it. */
    departmentName: text('department_name'),
    keyDigest: text('key_digest').notNull(),
    partialKey: text('partial_key').notNull(),
    sealedKey: bytea('sealed_key'),
    fullName: text('full_name'),
    emailAddress: text('email_address'),
    macAddresses: text('mac_addresses').array().notNull().default(sql`'{}'::text[]`),
    hostname: text('hostname'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    invalidatedAt: epochMs('invalidated_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('accounts_key_digest_key').on(table.keyDigest),
    index('accounts_license_id_idx').on(table.licenseId, table.id),
    index('accounts_tenant_id_idx').on(table.tenantId, table.id),
    index('accounts_full_name_trgm_idx').using('gin', sql`lower(coalesce(${table.fullName}, '')) gin_trgm_ops`),
    index('accounts_email_trgm_idx').using('gin', sql`lower(coalesce(${table.emailAddress}, '')) gin_trgm_ops`),
    index('accounts_full_name_idx').on(sql`lower(coalesce(${table.fullName}, ''))`, table.id),
    index('accounts_email_idx').on(sql`lower(coalesce(${table.emailAddress}, ''))`, table.id),
    index('accounts_solo_idx').on(table.solo, table.id),
    index('accounts_partial_key_trgm_idx').using('gin', sql`${table.partialKey} gin_trgm_ops`),
  ],
);
