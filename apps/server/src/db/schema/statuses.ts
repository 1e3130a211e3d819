import { boolean, customType, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { departments } from './departments';

/**
 * Uploaded files live in the database, never at a path built from user input (docs/architecture.md,
 * "Data").
 */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** A work status of a department (spec section 3); tasks hang off statuses. */
export const statuses = pgTable(
  'statuses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    /** Whole minutes, 0 to 60; 0 means no threshold. */
    threshold: integer('threshold').notNull().default(0),
    color: text('color').notNull().default('#000000'),
    icon: bytea('icon').notNull(),
    fileName: text('file_name').notNull(),
    trackIdle: boolean('track_idle').notNull().default(false),
    /** Built-in statuses the agents rely on are shown but never edited or deleted (migration 0005 renamed `editable`). */
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    index('statuses_tenant_id_idx').on(table.tenantId),
    index('statuses_department_id_idx').on(table.departmentId),
  ],
);
