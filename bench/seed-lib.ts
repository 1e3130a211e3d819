// What the benchmarks' seed scripts share: the database opened as the server opens it, a company
// with a head who signs in, and SQL arrays of fixed words.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, openDatabase } from '../apps/server/src/db/client';
import { ensureReferenceData } from '../apps/server/src/db/reference-data';
import { companies, credentials, users } from '../apps/server/src/db/schema';
import { assignRole, ensureBuiltInRole } from '../apps/server/src/modules/roles/queries';
import { hashPassword } from '../apps/server/src/platform/passwords';

/**
 * The database the server would open (DATABASE_URL, or the embedded one in DATA_DIR/db, as
 * apps/server/src/main.ts does), migrated and with its reference data. PGlite has no lock between
 * processes: never seed while a server has the directory open.
 */
export async function openSeedDatabase() {
  const database = process.env.DATABASE_URL
    ? await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL })
    : await openDatabase({ kind: 'pglite', dataDir: path.join(process.env.DATA_DIR ?? 'data', 'db') });
  await ensureReferenceData(database.db);
  return database;
}

/**
 * `BENCH_WALL=off`: what the database's wall costs, measured by taking it away (docs/performance.md,
 * "Row-level security (issue 21)"). Row-level security is disabled on every table of this
 * benchmark's own database, so that the same server runs the same statements without the policies.
 * Never for a database anyone uses.
 */
export async function takeDownTheWallIfAsked(db: Db) {
  if (process.env.BENCH_WALL !== 'off') return;
  await db.execute(sql`do $$
    declare t record;
    begin
      for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
               where n.nspname = 'public' and c.relrowsecurity loop
        execute format('alter table %I disable row level security', t.relname);
      end loop;
    end $$`);
  console.log('BENCH_WALL=off: row-level security disabled on every table of this database');
}

/** A company and its head, a Company Administrator who signs in with `head.email` and `head.password`. */
export async function seedCompanyWithHead(
  db: Db,
  company: { name: string; industry: string },
  head: { firstName: string; lastName: string; email: string; password: string },
) {
  const tenantId = randomUUID();
  const [row] = await db
    .insert(companies)
    .values({ tenantId, name: company.name, industryTypeKey: company.industry })
    .returning({ id: companies.id });
  const companyId = row!.id;
  const [user] = await db
    .insert(users)
    .values({ tenantId, companyId, firstName: head.firstName, lastName: head.lastName, emailAddress: head.email })
    .returning({ id: users.id });
  const headId = user!.id;
  await db
    .insert(credentials)
    .values({ userId: headId, passwordHash: await hashPassword(head.password), passwordChangedAt: Date.now() });
  await assignRole(db, headId, await ensureBuiltInRole(db, tenantId, 'COMPANY_ADMINISTRATOR'));
  await db.update(companies).set({ headId }).where(sql`id = ${companyId}`);
  return { tenantId, companyId, headId };
}

/** A SQL text array literal of fixed words (no quotes in them). */
export const words = (list: readonly string[]): SQL =>
  sql.raw(`array[${list.map((word) => `'${word}'`).join(',')}]::text[]`);

/**
 * A seed's clock: `phase(what)` prints what was done and how long it took since the phase before
 * (or the start); `restart()` starts the next phase now without printing (its time said
 * otherwise); `seconds` writes milliseconds as seconds; `started` is when the seed began.
 */
export function phaseClock() {
  const started = performance.now();
  let phaseStarted = started;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const phase = (what: string) => {
    const at = performance.now();
    console.log(`  ${what.padEnd(58)} ${seconds(at - phaseStarted).padStart(9)}`);
    phaseStarted = at;
  };
  const restart = () => {
    phaseStarted = performance.now();
  };
  return { started, seconds, phase, restart };
}

/**
 * A seed's `--name value` (or `--name=value`) options over `defaults`: names in kebab case
 * (`--big-share` sets `bigShare`), numbers at least 0 where the default is a number, text where
 * it is text; anything else is refused with the list of options.
 */
export function seedOptions<T extends Record<string, number | string>>(defaults: T, argv: string[]): T {
  const result: Record<string, number | string> = { ...defaults };
  for (let i = 0; i < argv.length; i += 1) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i] ?? '');
    const name = (match?.[1] ?? '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (!match || !(name in defaults)) {
      throw new Error(`unknown argument ${argv[i]} (options: ${Object.keys(defaults).join(', ')})`);
    }
    const raw = match[2] ?? argv[++i] ?? '';
    if (typeof defaults[name] === 'string') result[name] = raw;
    else {
      const value = Number(raw);
      if (raw === '' || !Number.isFinite(value) || value < 0) throw new Error(`--${match[1]} takes a number`);
      result[name] = value;
    }
  }
  return result as T;
}
