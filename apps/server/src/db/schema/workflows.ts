import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns';
import { users } from './users';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * File contents, addressed by their SHA-256 (hex): one row per distinct content, whichever
 * workflows and companies hold it. Written in the transaction of the version that points at it
 * (docs/workflows.md, Storage); only `modules/workflows/blob-store.ts` reads or writes it.
 */
export const blobs = pgTable('blobs', {
  sha256: text('sha256').primaryKey(),
  size: integer('size').notNull(),
  content: bytea('content').notNull(),
  createdAt: createdAt(),
});

/**
 * A directory of a company's workflow tree. The tree's root (`parent_id` null, named 'Workflows')
 * is made with the company. `id_path` is the ids from the root down to this one, '/1/7/12/', so a
 * whole subtree is one prefix match. Directories are hard-deleted (their workflows archived).
 */
export const directories = pgTable(
  'directories',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => directories.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    idPath: text('id_path').notNull(),
    createdAt: createdAt(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: epochMs('updated_at').notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    // Names are unique among siblings, case-insensitively; one root per tenant.
    uniqueIndex('directories_sibling_name_key').on(
      table.tenantId,
      sql`coalesce(${table.parentId}, 0)`,
      sql`lower(${table.name})`,
    ),
    index('directories_id_path_idx').on(table.tenantId, sql`${table.idPath} text_pattern_ops`),
    index('directories_parent_id_idx').on(table.parentId),
  ],
);

const live = sql`archived = false`;

/**
 * A workflow (spec section 3): its name, description and current file, in one directory. Archived
 * on delete; an archived workflow keeps its rows and versions but leaves its directory (which may
 * then be removed) and frees its file name. The current version's file name, size and activity
 * keys are copied here so that a listing reads one table.
 */
export const workflows = pgTable(
  'workflows',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    directoryId: integer('directory_id').references(() => directories.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    activityKeys: text('activity_keys').array().notNull().default(sql`'{}'::text[]`),
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: epochMs('updated_at').notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    // ERROR_WORKFLOW_FILE_EXIST: one live file of a name in a directory, whichever upload wins.
    uniqueIndex('workflows_file_name_key').on(table.directoryId, sql`lower(${table.fileName})`).where(live),
    // A directory's page in each order it is sorted by (docs/performance.md, "The workflows table at
    // 500 requests a second"): the page's ids are read from the index alone, however deep the page,
    // so the lowered text columns carry the column itself too (an index-only scan needs every
    // column the query names, and PostgreSQL does not see `name` inside `lower(name)`), and the
    // tenant last, which the row-level security policy reads (docs/tenancy.md).
    index('workflows_directory_name_idx')
      .on(table.directoryId, sql`lower(${table.name})`, table.id, table.name, table.tenantId)
      .where(live),
    index('workflows_directory_description_idx')
      .on(table.directoryId, sql`lower(${table.description})`, table.id, table.description, table.tenantId)
      .where(live),
    index('workflows_directory_created_idx')
      .on(table.directoryId, table.createdAt, table.id, table.tenantId)
      .where(live),
    index('workflows_directory_updated_idx')
      .on(table.directoryId, table.updatedAt, table.id, table.tenantId)
      .where(live),
    index('workflows_directory_size_idx').on(table.directoryId, table.size, table.id, table.tenantId).where(live),
    // The tenant's workflows by creation (a date range, agents), and the search by name and
    // description (a substring, through trigrams, as the users list's).
    index('workflows_tenant_created_idx').on(table.tenantId, table.createdAt, table.id).where(live),
    index('workflows_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`).where(live),
    index('workflows_description_trgm_idx').using('gin', sql`lower(${table.description}) gin_trgm_ops`).where(live),
  ],
);

/** Every file a workflow has had (spec: earlier files are kept); the newest is the current one. */
export const workflowVersions = pgTable(
  'workflow_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workflowId: integer('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    number: integer('number').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256')
      .notNull()
      .references(() => blobs.sha256),
    activityKeys: text('activity_keys').array().notNull(),
    steps: integer('steps').notNull(),
    createdAt: createdAt(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('workflow_versions_number_key').on(table.workflowId, table.number),
    index('workflow_versions_sha256_idx').on(table.sha256),
  ],
);
