import { boolean, index, integer, pgTable, uuid } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns';
import { users } from './users';

/** One shift of one user on one day (spec section 4: creation expands users × days). Archived, never removed. */
export const schedules = pgTable(
  'schedules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scheduleStart: epochMs('schedule_start').notNull(),
    scheduleEnd: epochMs('schedule_end').notNull(),
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    index('schedules_tenant_start_idx').on(table.tenantId, table.scheduleStart),
    index('schedules_user_start_idx').on(table.userId, table.scheduleStart),
  ],
);
