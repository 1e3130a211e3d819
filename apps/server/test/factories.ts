import { randomUUID } from 'node:crypto';
import type { BuiltInRole } from '@opsdeck/contract/authorities';
import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { companies, departments, users } from '../src/db/schema';
import { setPassword } from '../src/modules/auth/queries';
import { assignRole, ensureBuiltInRole } from '../src/modules/roles/queries';
import { hashPassword } from '../src/platform/passwords';

let sequence = 0;
const next = () => {
  sequence += 1;
  return `${process.pid}-${sequence}`;
};

export const TEST_PASSWORD = 'correct horse battery';

export type TestCompany = { id: number; tenantId: string; name: string };

export async function createCompany(
  db: Db,
  overrides: Partial<{ name: string; industry: string }> = {},
): Promise<TestCompany> {
  const tenantId = randomUUID();
  const name = overrides.name ?? `Company ${next()}`;
  const [row] = await db
    .insert(companies)
    .values({ tenantId, name, industryTypeKey: overrides.industry ?? 'banking' })
    .returning({ id: companies.id });
  return { id: row!.id, tenantId, name };
}

export async function createDepartment(
  db: Db,
  company: TestCompany,
  overrides: Partial<{ name: string; parentId: number }> = {},
) {
  const [row] = await db
    .insert(departments)
    .values({
      tenantId: company.tenantId,
      name: overrides.name ?? `Department ${next()}`,
      parentId: overrides.parentId ?? null,
    })
    .returning({ id: departments.id });
  return { id: row!.id };
}

export type TestUser = { id: number; email: string; password: string };

/** A user of a company (or a provider admin with `company: null`) holding one built-in role. */
export async function createUser(
  db: Db,
  options: {
    company: TestCompany | null;
    role: BuiltInRole;
    departmentId?: number;
    email?: string;
    password?: string;
    archived?: boolean;
  },
): Promise<TestUser> {
  const email = options.email ?? `user-${next()}@example.test`;
  const password = options.password ?? TEST_PASSWORD;
  const [row] = await db
    .insert(users)
    .values({
      tenantId: options.company?.tenantId ?? null,
      companyId: options.company?.id ?? null,
      departmentId: options.departmentId ?? null,
      firstName: 'Test',
      lastName: `User ${next()}`,
      emailAddress: email,
      archived: options.archived ?? false,
    })
    .returning({ id: users.id });
  await setPassword(db, row!.id, await hashPassword(password), Date.now());
  await assignRole(db, row!.id, await ensureBuiltInRole(db, options.company?.tenantId ?? null, options.role));
  return { id: row!.id, email, password };
}

export async function setCompanyHead(db: Db, company: TestCompany, userId: number) {
  await db.update(companies).set({ headId: userId }).where(eq(companies.id, company.id));
}
