import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheStatements } from './pglite-statements';

/** The named statements the session holds now (PGlite's own queries are unnamed: not listed). */
async function named(client: PGlite) {
  const { rows } = await client.query<{ name: string; statement: string }>(
    'select name, statement from pg_prepared_statements',
  );
  return rows;
}

describe('PGlite statements parsed once (db/pglite-statements.ts)', () => {
  let client: PGlite;
  let cached: PGlite;

  beforeEach(async () => {
    client = new PGlite();
    await client.exec(`
      create table items (id int primary key, name text not null, tags text[], at timestamptz, data jsonb, big bigint);
      insert into items values
        (1, 'one', '{a,b}', '2026-11-27T10:00:00Z', '{"k": 1}', 9007199254740993),
        (2, 'two', null, null, null, null);`);
    cached = cacheStatements(client, { max: 3 });
  });
  afterEach(async () => {
    if (!client.closed) await client.close();
  });

  it('answers exactly what PGlite itself answers, in both row modes, with the caller’s parsers', async () => {
    const text = 'select id, name, tags, at, data, big from items where id = any($1::int[]) order by id';
    for (const options of [undefined, { rowMode: 'array' as const }, { parsers: { 1184: (value: string) => value } }]) {
      const own = await client.query(text, [[1, 2]], options);
      const ours = await cached.query(text, [[1, 2]], options);
      expect(ours.rows).toEqual(own.rows);
      expect(ours.fields).toEqual(own.fields);
    }
  });

  it('parses a text once however often it runs, and binds each run’s values', async () => {
    const text = 'select name from items where id = $1';
    expect((await cached.query(text, [1])).rows).toEqual([{ name: 'one' }]);
    expect((await cached.query(text, [2])).rows).toEqual([{ name: 'two' }]);
    expect((await cached.query(text, [3])).rows).toEqual([]);
    expect((await named(client)).map((row) => row.statement)).toEqual([text]);
  });

  it('writes, counts what it wrote, and takes nulls and arrays as values', async () => {
    const insert = 'insert into items (id, name, tags) values ($1, $2, $3)';
    const result = await cached.query(insert, [3, 'three', ['x', 'y']]);
    expect(result.affectedRows).toBe(1);
    await cached.query(insert, [4, 'four', null]);
    const { rows } = await client.query('select id, tags from items where id > 2 order by id');
    expect(rows).toEqual([
      { id: 3, tags: ['x', 'y'] },
      { id: 4, tags: null },
    ]);
  });

  it('keeps at most its bound of statements, closing the one used longest ago', async () => {
    const texts = [1, 2, 3, 4].map((n) => `select ${n} as n, name from items where id = $1`);
    for (const text of texts) await cached.query(text, [1]);
    await cached.query(texts[1]!, [1]); // used again: not the oldest any more
    await cached.query('select name from items where id = $1', [2]);
    // Texts 0 and 2 went; 1 (used again), 3 and the last stayed.
    expect((await named(client)).map((row) => row.statement).sort()).toEqual(
      [texts[1], texts[3], 'select name from items where id = $1'].sort(),
    );
  });

  it('refuses a wrong statement with its error and keeps nothing of it', async () => {
    await expect(cached.query('select nme from items')).rejects.toMatchObject({ code: '42703' });
    await expect(cached.query('insert into items (id, name) values ($1, $2)', [1, 'again'])).rejects.toMatchObject({
      code: '23505',
    });
    expect((await named(client)).map((row) => row.statement)).toEqual(['insert into items (id, name) values ($1, $2)']);
    // The session is usable after both.
    expect((await cached.query('select count(*)::int as n from items')).rows).toEqual([{ n: 2 }]);
  });

  it('runs inside a transaction, whose rollback takes the rows back and leaves the statement usable', async () => {
    const insert = 'insert into items (id, name) values ($1, $2)';
    await expect(
      cached.transaction(async (tx) => {
        await tx.query(insert, [5, 'five']);
        expect((await tx.query('select count(*)::int as n from items')).rows).toEqual([{ n: 3 }]);
        throw new Error('roll it back');
      }),
    ).rejects.toThrow('roll it back');
    expect((await cached.query('select count(*)::int as n from items')).rows).toEqual([{ n: 2 }]);
    await cached.transaction(async (tx) => {
      await tx.query(insert, [5, 'five']);
    });
    expect((await cached.query('select name from items where id = $1', [5])).rows).toEqual([{ name: 'five' }]);
  });

  it('parses a statement again when its table changed shape under it', async () => {
    const text = 'select * from items where id = $1';
    expect(Object.keys((await cached.query<object>(text, [1])).rows[0]!)).not.toContain('extra');
    await client.exec("alter table items add column extra text default 'new'");
    expect((await cached.query(text, [1])).rows[0]).toMatchObject({ id: 1, extra: 'new' });
  });

  it('says the database is closed, as PGlite does, once it is', async () => {
    await client.close();
    await expect(cached.query('select 1')).rejects.toThrow('PGlite is closed');
  });
});
