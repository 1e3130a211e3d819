import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { activities } from './activities';

/** The licence types (spec section 3): 'pro' and 'enterprise', kept by the reference data. */
export const licenseTypes = pgTable('license_types', {
  key: text('key').primaryKey(),
  name: text('name').notNull(),
});

/** The premium activities a licence type unlocks (spec section 4, premium toggle). */
export const licenseTypeActivities = pgTable(
  'license_type_activities',
  {
    licenseTypeKey: text('license_type_key')
      .notNull()
      .references(() => licenseTypes.key, { onDelete: 'cascade' }),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.licenseTypeKey, table.activityId] })],
);
