import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, epochMs, orEmpty } from './columns';
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
  (table) => [
    index('licenses_company_id_idx').on(table.companyId),
    // The accounts page sorted by expiration walks the licences in that order.
    index('licenses_expiration_date_idx').on(table.expirationDate, table.id),
  ],
);

/**
 * A licence key and the account it makes (spec section 3: one row is both). The key is kept
 * only as its SHA-256 digest and its partial form; a key made from a registration file also
 * keeps the full key sealed (AES-256-GCM under a key derived from the licence signing key), so
 * that its licence file can be exported again (docs/licensing.md). Hard-deleted with its licence.
 */
const live = sql`archived = false`;

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
    /** An archived solo account (its licence archived by `POST /api/license/solo/invalidate`): listed nowhere. */
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('accounts_key_digest_key').on(table.keyDigest),
    index('accounts_license_id_idx').on(table.licenseId, table.id),
    // The accounts page reads only accounts that are not archived, sorted by one of these, ties by
    // id; the full name is in its index too, so that a deep page is read from the index alone.
    index('accounts_tenant_id_idx').on(table.tenantId, table.id).where(live),
    index('accounts_full_name_idx')
      .on(sql`lower(${orEmpty(table.fullName)})`, table.id, table.fullName, table.tenantId)
      .where(live),
    index('accounts_email_idx')
      .on(sql`lower(${orEmpty(table.emailAddress)})`, table.id, table.tenantId)
      .where(live),
    index('accounts_solo_idx').on(table.solo, table.id).where(live),
    // The search: names and e-mails by trigram, partial keys too, MAC addresses without their
    // colons (mac_compact, migration 0008: trigrams of 'AA:BB' are mostly colons).
    index('accounts_full_name_trgm_idx').using('gin', sql`lower(${orEmpty(table.fullName)}) gin_trgm_ops`),
    index('accounts_email_trgm_idx').using('gin', sql`lower(${orEmpty(table.emailAddress)}) gin_trgm_ops`),
    index('accounts_partial_key_trgm_idx').using('gin', sql`${table.partialKey} gin_trgm_ops`),
    index('accounts_mac_trgm_idx').using('gin', sql`mac_compact(${table.macAddresses}) gin_trgm_ops`),
  ],
);
