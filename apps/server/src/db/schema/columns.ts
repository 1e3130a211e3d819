import { bigint } from 'drizzle-orm/pg-core';

/** Times are epoch milliseconds (ARCHITECTURE.md, Data); pg returns int8 as text, so map to number here. */
export const epochMs = (name: string) => bigint(name, { mode: 'number' });

export const createdAt = () =>
  epochMs('created_at')
    .notNull()
    .$defaultFn(() => Date.now());
