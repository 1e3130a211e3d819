import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresTestDatabase, openPreparedDatabase } from '../../test/database';
import { createCompany, createUser } from '../../test/factories';
import { type Database, selectRows } from '../db/client';
import { ensureMonthPartition, nextMonthOf } from './partitions';

// On PostgreSQL whichever TEST_DB runs: the deadlock needs two connections, which PGlite has not.
let database: Database & { url: string };
let close: () => Promise<void>;
beforeAll(async () => {
  ({ database, close } = await openPreparedDatabase(openPostgresTestDatabase));
});
afterAll(() => close());

const YEAR = 365 * 86_400_000;

describe("a month's partition made while a request writes to a table its foreign keys reference", () => {
  it('steps aside for the request instead of deadlocking with it, and is made once the request is done', async () => {
    const company = await createCompany(database.db);
    const user = await createUser(database.db, { company });
    const month = nextMonthOf(Date.now() + 3 * YEAR);
    const name = (
      await selectRows<{ name: string }>(
        database.db,
        sql`select to_char(to_timestamp(${month} / 1000.0) at time zone 'UTC', '"activity_spans_p"YYYY_MM') as name`,
      )
    )[0]!.name;

    // The request, as a company's deletion runs it (its keys, its users, then what their cascades
    // reach): a table the partition's foreign keys reference first, then the partitioned parent.
    const request = new pg.Client({ connectionString: database.url });
    await request.connect();
    try {
      await request.query('begin');
      await request.query("update users set first_name = 'Renamed' where id = $1", [user.id]);
      // The month's DDL locks activity_spans, then waits for users (held by the request).
      const made = ensureMonthPartition(database.db, 'activity_spans', month);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Now the request reaches activity_spans. Before the DDL stepped aside, PostgreSQL found the
      // two waiting on each other after a second and cancelled one (40P01): this test failed so
      // with an unbounded lock wait, and a company's deletion in the suite answered 500.
      await request.query('select count(*) from activity_spans where user_id = $1', [user.id]);
      await request.query('commit');
      expect(await made).toBe(name);
    } finally {
      await request.end();
    }
    const [row] = await selectRows<{ made: boolean }>(
      database.db,
      sql`select to_regclass(${name}) is not null as made`,
    );
    expect(row?.made).toBe(true);
  });
});
