import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { startLogMaintenance } from './maintenance';

const migrations = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
const silent = { info() {}, warn() {} } as unknown as Parameters<typeof startLogMaintenance>[0]['log'];
let folder: string | undefined;

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The committed migrations up to and including `last`, in a folder of their own. */
async function migrationsUpTo(last: number) {
  folder = await mkdtemp(path.join(tmpdir(), 'opsdeck-migrations-'));
  await cp(migrations, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= last);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

// The migration's SQL is the same on both databases; the PostgreSQL run of the suite skips this one.
describe.skipIf(process.env.TEST_DB === 'postgres')(
  'upgrading to the partitioned execution logs (migration 0011)',
  () => {
    it("moves 0010's logs into their months, and the first start builds their rollups", async () => {
      const client = new PGlite({ extensions: { pg_trgm } });
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: await migrationsUpTo(10) });
      const started = Date.now() - 40 * 86_400_000;
      await client.exec(`
      insert into industry_types (key, name) values ('upgrade', 'Upgrade') on conflict do nothing;
      insert into companies (tenant_id, name, industry_type_key, created_at) values (gen_random_uuid(), 'Acme', 'upgrade', 0);
      insert into workflows (tenant_id, name, file_name, size, updated_at, created_at)
        select tenant_id, 'Payroll', 'Payroll.rax', 1, 0, 0 from companies;
      insert into execution_logs (id, tenant_id, company_id, mac_address, workflow_id, workflow_name,
          execution_start, execution_end, status_type, received_at)
        select gen_random_uuid(), c.tenant_id, c.id, 'AA:BB:CC:DD:EE:01', w.id, 'Payroll', ${started} + n, ${started} + n + 60000,
          case when n % 3 = 0 then 'faulted' else 'success' end, 0
        from companies c, workflows w, generate_series(0, 5) as n;`);

      await migrate(db, { migrationsFolder: migrations });
      const month = new Date(started);
      const partition = `execution_logs_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
      const moved = await client.query<{ part: string; n: number }>(
        'select tableoid::regclass::text as part, count(*)::int as n from execution_logs group by 1',
      );
      expect(moved.rows).toEqual([{ part: partition, n: 6 }]);
      expect((await client.query('select 1 from pg_class where relname = $1', ['execution_logs_0010'])).rows).toEqual(
        [],
      );

      const maintenance = startLogMaintenance({ db: db as unknown as Db, retentionDays: 400, log: silent });
      await maintenance.stop();
      const daily = await client.query<{ succeeded: number; faulted: number }>(
        'select sum(succeeded)::int as succeeded, sum(faulted)::int as faulted from execution_daily_rollups',
      );
      expect(daily.rows).toEqual([{ succeeded: 4, faulted: 2 }]);
      await client.close();
      // A hang guard: every migration runs from an empty database, on two busy cores.
    }, 120_000);
  },
);
