import { type SQL, sql } from 'drizzle-orm';
import { bigint, type PgColumn } from 'drizzle-orm/pg-core';

/**
 * A text column with null read as '' (where `coalesce(column, '')` would be): in the CASE form,
 * which row-level security lets an index serve. PostgreSQL lets a search's condition use an index
 * under a policy only when nothing in it can leak a row's values, and it takes COALESCE for a
 * possible leak, CASE for none (docs/tenancy.md, "Searches under row-level security"). An index
 * and its queries spell it the same, through this.
 */
export const orEmpty = (column: PgColumn | SQL): SQL => sql`(case when ${column} is null then '' else ${column} end)`;

/**
 * Times are epoch milliseconds (docs/architecture.md, "Data"); pg returns int8 as text, so map to
 * number here.
 */
export const epochMs = (name: string) => bigint(name, { mode: 'number' });

export const createdAt = () =>
  epochMs('created_at')
    .notNull()
    .$defaultFn(() => Date.now());
