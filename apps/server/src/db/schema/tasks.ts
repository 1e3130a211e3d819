import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { departments } from './departments';
import { statuses } from './statuses';

/** A task of a department, under one of its statuses (spec section 3). */
export const tasks = pgTable(
  'tasks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: uuid('tenant_id').notNull(),
    name: text('name').notNull(),
    statusId: integer('status_id')
      .notNull()
      .references(() => statuses.id, { onDelete: 'restrict' }),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('tasks_tenant_id_idx').on(table.tenantId),
    index('tasks_status_id_idx').on(table.statusId),
    index('tasks_department_id_idx').on(table.departmentId),
  ],
);
