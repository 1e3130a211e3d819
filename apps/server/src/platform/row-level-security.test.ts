import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../test/app';
import {
  createAgentKey,
  createCompany,
  createCompanyHead,
  createDepartment,
  createUser,
  createWorkflowRow,
  type TestCompany,
  type TestUser,
} from '../../test/factories';
import { type Executor, selectRows } from '../db/client';
import { roles, users } from '../db/schema';
import { asProvider, EVERY_TENANT, inTenant, type TenantScope } from './tenancy';

// The suite shares one module registry between files (vitest.config.ts, `isolate: false`): a
// module another file imported first would stay the real one. So this file starts from an empty
// registry (its imports, mocks included, are evaluated afresh), and leaves one behind it.
vi.hoisted(() => vi.resetModules());

// The mutation of docs/tenancy.md's wall: the users service's one-user read loses its scope (it
// reads by id alone, as a forgotten `inScope` would), so only the database stands between the
// companies. The original still runs for every other caller.
vi.mock('../modules/users/queries', async (importOriginal) => {
  const original = await importOriginal<typeof import('../modules/users/queries')>();
  return {
    ...original,
    findUser: (db: Executor, _scope: TenantScope, id: number) => original.findUser(db, EVERY_TENANT, id),
  };
});

/** The tables the wall covers through a parent, not a tenant column of their own. */
const THROUGH_PARENT = [
  'sessions',
  'credentials',
  'password_reset_keys',
  'notification_preferences',
  'user_widget_layouts',
  'user_widgets',
  'user_roles',
  'role_authorities',
  'activity_agents',
  'execution_last_runs',
  'webhook_deliveries',
];

const WALL_REFUSED = /row-level security/;

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let headA: TestUser;
let userB: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.services.unit.db;
  a = await createCompany(db);
  b = await createCompany(db);
  for (const company of [a, b]) {
    const department = await createDepartment(db, company);
    await createUser(db, { company, departmentId: department.id });
    await createAgentKey(db, company, { fullName: 'Agent', departmentId: department.id });
    await createWorkflowRow(db, company);
  }
  headA = await createCompanyHead(db, a);
  userB = await createUser(db, { company: b });
});

afterAll(async () => {
  // The next file of this worker gets the real modules again.
  vi.doUnmock('../modules/users/queries');
  vi.resetModules();
  await t?.close();
});

type Settings = { scope?: string; tenantId?: string };

/** Puts the transaction's connection in the server's role with these settings (none: unset). */
async function enter(tx: Executor, settings: Settings) {
  await tx.execute(sql`set local role opsdeck_app`);
  await tx.execute(sql`select set_config('opsdeck.scope', ${settings.scope ?? ''}, true)`);
  await tx.execute(sql`select set_config('opsdeck.tenant_id', ${settings.tenantId ?? ''}, true)`);
}

/**
 * Runs `work` in one transaction as the server's role with the settings given; `refusal` runs a
 * statement that must fail in a savepoint, so the transaction goes on, and says why it failed.
 */
async function asApp<T>(
  settings: Settings,
  work: (tx: Executor, refusal: (statement: ReturnType<typeof sql>) => Promise<string | null>) => Promise<T>,
) {
  return t.app.services.unit.run(async (tx) => {
    await enter(tx, settings);
    const refusal = async (statement: ReturnType<typeof sql>) => {
      await tx.execute(sql`savepoint attempt`);
      try {
        await tx.execute(statement);
        return null;
      } catch (error) {
        return String(((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
      } finally {
        await tx.execute(sql`rollback to savepoint attempt`);
        // The server's connection sets its own scope again after a rollback: set the test's.
        await enter(tx, settings);
      }
    };
    return work(tx, refusal);
  });
}

const tenantTables = () =>
  selectRows<{ name: string; partition: boolean; secured: boolean; forced: boolean; granted: boolean }>(
    t.app.services.unit.db,
    sql`select c.relname as name, c.relispartition as partition, c.relrowsecurity as secured,
               c.relforcerowsecurity as forced, has_table_privilege('opsdeck_app', c.oid, 'select') as granted
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute col on col.attrelid = c.oid and col.attname = 'tenant_id' and not col.attisdropped
        where n.nspname = 'public' and c.relkind in ('r', 'p')
        order by c.relname`,
  );

describe('the wall in the database', () => {
  it('forces row-level security on every table with a tenant column; the role may not name a partition', async () => {
    const tables = await tenantTables();
    expect(tables.length).toBeGreaterThan(25);
    const open = tables.filter((table) => (table.partition ? table.granted : !(table.secured && table.forced)));
    expect(open.map((table) => table.name)).toEqual([]);
    const children = await selectRows<{ name: string }>(
      t.app.services.unit.db,
      sql`select relname as name from pg_class where relname in ${THROUGH_PARENT}
          and relrowsecurity and relforcerowsecurity`,
    );
    expect(children.map((row) => row.name).sort()).toEqual([...THROUGH_PARENT].sort());
    // And every table the server reads is granted to its role: a new table's migration says so.
    const ungranted = await selectRows<{ name: string }>(
      t.app.services.unit.db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
          and not has_table_privilege('opsdeck_app', c.oid, 'select, insert, update, delete')`,
    );
    expect(ungranted).toEqual([]);
  });

  it('shows and takes no row without a tenant set', async () => {
    const tables = (await tenantTables()).filter((table) => !table.partition);
    await asApp({}, async (tx, refusal) => {
      for (const { name } of [...tables, ...THROUGH_PARENT.map((name) => ({ name }))]) {
        const [row] = await selectRows<{ n: number }>(tx, sql`select count(*)::int as n from ${sql.identifier(name)}`);
        expect({ name, rows: row!.n }).toEqual({ name, rows: 0 });
      }
      expect(await refusal(sql`insert into departments (tenant_id, name) values (${a.tenantId}, 'Smuggled')`)).toMatch(
        WALL_REFUSED,
      );
    });
  });

  it("shows one tenant only its own rows, and refuses a row written in another's name", async () => {
    const tables = (await tenantTables()).filter((table) => !table.partition);
    const [roleOfB] = await asProvider(() =>
      t.app.services.unit.db.select({ id: roles.id }).from(roles).where(eq(roles.tenantId, b.tenantId)),
    );
    const seen = await asApp({ scope: 'tenant', tenantId: a.tenantId }, async (tx, refusal) => {
      const counts: Record<string, number> = {};
      for (const { name } of tables) {
        const [row] = await selectRows<{ mine: number; theirs: number }>(
          tx,
          sql`select count(*) filter (where tenant_id = ${a.tenantId})::int as mine,
                     count(*) filter (where tenant_id is distinct from ${a.tenantId})::int as theirs
              from ${sql.identifier(name)}`,
        );
        expect({ name, theirs: row!.theirs }).toEqual({ name, theirs: 0 });
        counts[name] = row!.mine;
      }
      expect(await refusal(sql`insert into departments (tenant_id, name) values (${b.tenantId}, 'Smuggled')`)).toMatch(
        WALL_REFUSED,
      );
      // Moving one's own row to another company is a write in its name too.
      expect(
        await refusal(sql`update departments set tenant_id = ${b.tenantId} where tenant_id = ${a.tenantId}`),
      ).toMatch(WALL_REFUSED);
      // Another company's rows cannot be changed or deleted: they are not there to touch.
      const [changed] = await selectRows<{ n: number }>(
        tx,
        sql`with gone as (delete from departments where tenant_id = ${b.tenantId} returning 1) select count(*)::int as n from gone`,
      );
      expect(changed!.n).toBe(0);
      // Through a parent: another company's user's sessions and roles are out of sight.
      const [grants] = await selectRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from user_roles where user_id = ${userB.id}`,
      );
      expect(grants!.n).toBe(0);
      // A grant of B's role to A's own user is a write in B's name too.
      expect(
        await refusal(sql`insert into user_roles (user_id, role_id) values (${headA.id}, ${roleOfB!.id})`),
      ).toMatch(WALL_REFUSED);
      return counts;
    });
    // The tables the factories filled do show A's rows: the wall is not simply closed.
    for (const name of ['companies', 'users', 'departments', 'licenses', 'accounts', 'roles', 'workflows'])
      expect({ name, shown: seen[name]! > 0 }).toEqual({ name, shown: true });
  });

  it("lets the provider's scope see every company", async () => {
    const [row] = await asApp({ scope: 'provider' }, (tx) =>
      selectRows<{ n: number }>(
        tx,
        sql`select count(distinct tenant_id)::int as n from users where tenant_id in (${a.tenantId}, ${b.tenantId})`,
      ),
    );
    expect(row!.n).toBe(2);
  });

  it("keeps a query that forgot its scope to the work's tenant, in the server's own code", async () => {
    const db = t.app.services.unit.db;
    const everyone = await asProvider(() => db.select({ tenantId: users.tenantId }).from(users));
    expect(new Set(everyone.map((row) => row.tenantId))).toContain(b.tenantId);
    const seenByA = await inTenant(a.tenantId, () => db.select({ tenantId: users.tenantId }).from(users));
    expect(seenByA.length).toBeGreaterThan(0);
    expect(new Set(seenByA.map((row) => row.tenantId))).toEqual(new Set([a.tenantId]));
    // Inside a transaction, too, and a write in B's name fails.
    await expect(
      inTenant(a.tenantId, () =>
        t.app.services.unit.run((tx) =>
          tx.update(users).set({ firstName: 'Moved' }).where(eq(users.id, userB.id)).returning(),
        ),
      ),
    ).resolves.toEqual([]);
  });

  it("refuses a company's request to archive another company's user even when the service forgets its scope", async () => {
    const db = t.app.services.unit.db;
    const tokenA = await t.login(headA.email, headA.password);
    const admin = await t.login(ADMIN.email, ADMIN.password);
    // The mutation took: the provider acting on company A (X-Tenant-Id) archives B's user, which
    // the read in A's scope would not have found; only the provider's database scope lets it.
    const another = await createUser(db, { company: b });
    const provider = await t.call(`/api/user/archive/${another.id}`, {
      method: 'DELETE',
      token: admin,
      tenantId: a.tenantId,
    });
    expect(provider.status).toBe(200);
    const answer = await t.call<{ key: string }>(`/api/user/archive/${userB.id}`, { method: 'DELETE', token: tokenA });
    expect(answer.status).toBe(404);
    const [row] = await asProvider(() =>
      db.select({ archived: users.archived }).from(users).where(eq(users.id, userB.id)),
    );
    expect(row!.archived).toBe(false);
  });

  it('keeps interleaved requests of two companies each to their own rows', async () => {
    const db = t.app.services.unit.db;
    const rounds = await Promise.all(
      Array.from({ length: 60 }, (_, index) => {
        const company = index % 2 === 0 ? a : b;
        return inTenant(company.tenantId, async () => {
          const rows =
            index % 3 === 0
              ? await t.app.services.unit.run((tx) => tx.select({ tenantId: users.tenantId }).from(users))
              : await db.select({ tenantId: users.tenantId }).from(users);
          return { company: company.tenantId, seen: [...new Set(rows.map((row) => row.tenantId))] };
        });
      }),
    );
    for (const round of rounds) expect(round.seen).toEqual([round.company]);
  });
});
