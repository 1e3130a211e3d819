// Fills one company with N users for the users-list benchmark, straight through SQL (the API
// would take minutes for 100,000). Run with `node --import tsx bench/seed-users.ts`; it opens the
// database the same way the server does (PGlite dir or DATABASE_URL), migrates, seeds, closes.
// PGlite has no lock between processes: never run this while a server has the directory open.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { companies, credentials, departments, users } from '../apps/server/src/db/schema';
import { assignRole, ensureBuiltInRole } from '../apps/server/src/modules/roles/queries';
import { hashPassword } from '../apps/server/src/platform/passwords';
import { runScriptAsOwner } from '../apps/server/src/platform/tenancy';
import { openSeedDatabase, takeDownTheWallIfAsked } from './seed-lib';

const count = Number(process.env.BENCH_USERS ?? 100_000);
const headEmail = process.env.BENCH_HEAD_EMAIL ?? 'head@bench.test';
const headPassword = process.env.BENCH_HEAD_PASSWORD ?? 'bench-password';

// Seeding is the owner's work (docs/tenancy.md): every company's rows in bulk, VACUUM.
runScriptAsOwner();
const database = await openSeedDatabase();
const { db } = database;
const tenantId = randomUUID();
const [company] = await db
  .insert(companies)
  .values({ tenantId, name: 'Benchmark Freight', industryTypeKey: 'logistics' })
  .returning({ id: companies.id });
const companyId = company!.id;
const adminRole = await ensureBuiltInRole(db, tenantId, 'COMPANY_ADMINISTRATOR');
const headRole = await ensureBuiltInRole(db, tenantId, 'DEPARTMENT_HEAD');
const employeeRole = await ensureBuiltInRole(db, tenantId, 'EMPLOYEE');

const departmentNames = ['Operations', 'Finance', 'Customer Care', 'Dispatch', 'Billing', 'Claims', 'Sales', 'IT'];
const departmentIds: number[] = [];
for (const name of departmentNames) {
  const [row] = await db.insert(departments).values({ tenantId, name }).returning({ id: departments.id });
  departmentIds.push(row!.id);
}

const [head] = await db
  .insert(users)
  .values({ tenantId, companyId, firstName: 'Bench', lastName: 'Head', emailAddress: headEmail })
  .returning({ id: users.id });
await db
  .insert(credentials)
  .values({ userId: head!.id, passwordHash: await hashPassword(headPassword), passwordChangedAt: Date.now() });
await assignRole(db, head!.id, adminRole);
await db.update(companies).set({ headId: head!.id }).where(sql`id = ${companyId}`);

// Names cycle through two lists whose lengths are coprime, so full names vary widely.
const firstNames = ['James', 'Maria', 'Wei', 'Fatima', 'Lucas', 'Aiko', 'Noah', 'Priya', 'Omar', 'Elena', 'Kofi'];
const lastNames = [
  'Anderson',
  'Santos',
  'Chen',
  'Haddad',
  'Moreau',
  'Tanaka',
  'Williams',
  'Raman',
  'Nguyen',
  'Okafor',
  'Schmidt',
  'Costa',
  'Jensen',
];
const started = Date.now();
await db.execute(sql`
  insert into users (tenant_id, company_id, department_id, first_name, last_name, email_address, archived, created_at)
  select ${tenantId}::uuid, ${companyId}, (${sql.raw(`array[${departmentIds.join(',')}]`)})[1 + i % ${departmentIds.length}],
    (${sql.raw(`array[${firstNames.map((n) => `'${n}'`).join(',')}]`)})[1 + i % ${firstNames.length}],
    (${sql.raw(`array[${lastNames.map((n) => `'${n}'`).join(',')}]`)})[1 + i % ${lastNames.length}],
    'user' || i || '@bench.test', i % 50 = 0, ${Date.now()}
  from generate_series(1, ${count}) as i
`);
await db.execute(sql`
  insert into user_roles (user_id, role_id)
  select id, case when id % 40 = 0 then ${headRole}::int else ${employeeRole}::int end
  from users where tenant_id = ${tenantId}::uuid and id <> ${head!.id}
`);
// A database that has been running is vacuumed: GIN pending lists merged, the visibility map set.
await takeDownTheWallIfAsked(db);
await db.execute(sql`vacuum analyze`);
console.log(`seeded ${count} users into ${database.kind} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await database.close();
