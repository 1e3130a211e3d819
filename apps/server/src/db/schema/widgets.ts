import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';
import { users } from './users';

/**
 * A user's monitor dashboard layout (docs/monitor.md, "The layout calls"): the widgets they show,
 * each with its place and column. A widget without a row is hidden; a user without any row has
 * never chosen and sees the default six. The sixteen widgets themselves are the contract's
 * catalogue (`packages/contract/src/monitor.ts`), not rows.
 */
export const userWidgets = pgTable(
  'user_widgets',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    widgetKey: text('widget_key').notNull(),
    /** 1 first; hidden widgets have no row. */
    widgetOrder: integer('widget_order').notNull(),
    widgetColumnNumber: integer('widget_column_number').notNull(),
  },
  (table) => [
    primaryKey({ name: 'user_widgets_pkey', columns: [table.userId, table.widgetKey] }),
    check('user_widgets_order_check', sql`${table.widgetOrder} > 0`),
    check('user_widgets_column_check', sql`${table.widgetColumnNumber} in (1, 2)`),
  ],
);

/**
 * Whether a user has chosen a layout at all: a user who hid every widget has this row and no
 * user_widgets rows, and sees an empty dashboard rather than the default six.
 */
export const userWidgetLayouts = pgTable('user_widget_layouts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  chosenAt: epochMs('chosen_at').notNull(),
});
