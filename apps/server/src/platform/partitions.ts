import { setTimeout as sleep } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../db/client';
import { hasSqlState, SQLSTATE } from './database-errors';
import { asOwner } from './tenancy';

/**
 * Tables partitioned by UTC month of a time column (migration 0011's `execution_logs`, 0014's
 * `activity_spans`): their months are made by the SQL function `opsdeck_month_partition(parent,
 * at_ms)` (named `<parent>_pYYYY_MM`), and a retention drops whole months, never rows.
 */
export type MonthPartitioned = 'execution_logs' | 'activity_spans';

export type MonthPartition = { name: string; from: number; to: number };

/** The first millisecond of the UTC month of `at`. */
export const monthOf = (at: number) => {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
};

/** The first millisecond of the UTC month after the one of `at`. */
export const nextMonthOf = (at: number) => {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
};

/** How long a month's DDL waits for one of its locks before it steps aside (`yieldingDdl`). */
const DDL_LOCK_WAIT = '100ms';
/** How many times it steps aside before the round gives up (the next round tries again). */
const DDL_ATTEMPTS = 12;

/**
 * A statement that makes or drops a month, run so that it gives way to the requests. Making (or
 * dropping) a partition locks its parent and, for the partition's foreign keys, the tables they
 * reference (users, accounts, companies, …); a request that deletes such a row (a company, a key)
 * locks that table first and then the partitioned tables its cascade reaches. Waiting without a
 * bound, the two deadlocked, and PostgreSQL cancelled one of them: often the request, whose
 * deletion answered 500. So the DDL waits at most DDL_LOCK_WAIT for each lock (well under the
 * second after which PostgreSQL looks for a deadlock), and on a lock not granted rolls back,
 * releasing what it held, and tries again after a short pause. Run it outside a transaction: the
 * lock timeout is the transaction's.
 */
async function yieldingDdl<T extends Record<string, unknown>>(db: Executor, statement: SQL): Promise<T[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      // Schema changes are the owner's (docs/tenancy.md): the server's role may not make or drop a
      // table, and has no grant on a partition it could name directly.
      return await asOwner(() =>
        db.transaction(async (tx) => {
          await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_WAIT}'`));
          return selectRows<T>(tx, statement);
        }),
      );
    } catch (error) {
      if (attempt >= DDL_ATTEMPTS || !hasSqlState(error, SQLSTATE.lockNotAvailable)) throw error;
      await sleep(Math.min(2_000, 25 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}

/** Makes the month's partition of a partitioned table for a time, if missing (migration 0011's function). */
export async function ensureMonthPartition(db: Executor, parent: MonthPartitioned, at: number): Promise<string> {
  const [row] = await yieldingDdl<{ name: string }>(
    db,
    sql`select opsdeck_month_partition(${parent}, ${at}::bigint) as name`,
  );
  return row!.name;
}

/** The partitions of this month and the next exist before their first row arrives. */
export async function ensureCurrentMonths(db: Executor, parent: MonthPartitioned, now: number) {
  await ensureMonthPartition(db, parent, now);
  await ensureMonthPartition(db, parent, nextMonthOf(now));
}

/** The monthly partitions of a table, oldest first, with their bounds (from their names). */
export async function monthPartitions(db: Executor, parent: MonthPartitioned): Promise<MonthPartition[]> {
  const pattern = new RegExp(`^${parent}_p(\\d{4})_(\\d{2})$`);
  const rows = await selectRows<{ name: string }>(
    db,
    sql`select child.relname as name from pg_inherits
        join pg_class child on child.oid = pg_inherits.inhrelid
        join pg_class parent on parent.oid = pg_inherits.inhparent
        where parent.relname = ${parent}`,
  );
  return rows
    .flatMap(({ name }) => {
      const match = pattern.exec(name);
      if (!match) return [];
      const year = Number(match[1]);
      const month = Number(match[2]) - 1;
      return [{ name, from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1) }];
    })
    .sort((a, b) => a.from - b.from);
}

/**
 * Drops the months that end at or before `cut`: a month is kept until all of it is past the cut.
 * Answers the partitions dropped.
 */
export async function dropMonthsBefore(db: Executor, parent: MonthPartitioned, cut: number): Promise<string[]> {
  const dropped: string[] = [];
  for (const partition of await monthPartitions(db, parent)) {
    if (partition.to > cut) break;
    // The name comes from the catalogue and matched the pattern: no user input in this statement.
    await yieldingDdl(db, sql.raw(`drop table if exists "${partition.name}"`));
    dropped.push(partition.name);
  }
  return dropped;
}

/** PostgreSQL's 23514 for a row no partition takes ("no partition of relation … found for row"). */
export function isMissingPartition(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if (/no partition of relation/i.test(String((current as { message?: unknown }).message))) return true;
  }
  return false;
}
