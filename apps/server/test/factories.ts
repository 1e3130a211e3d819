import { randomUUID } from 'node:crypto';
import type { Authority, BuiltInRole } from '@opsdeck/contract/authorities';
import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { companies, departments, roleAuthorities, roles, users } from '../src/db/schema';
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

/** A custom role of a company (or of the provider with `company: null`) holding exactly these authorities. */
export async function createRole(
  db: Db,
  company: TestCompany | null,
  authorities: readonly Authority[],
  name?: string,
) {
  const [row] = await db
    .insert(roles)
    .values({ tenantId: company?.tenantId ?? null, name: name ?? `Role ${next()}` })
    .returning({ id: roles.id });
  if (authorities.length) {
    await db.insert(roleAuthorities).values(authorities.map((authorityKey) => ({ roleId: row!.id, authorityKey })));
  }
  return { id: row!.id };
}

/**
 * A user of a company (or a provider admin with `company: null`) holding one built-in role, or,
 * with `authorities`, a fresh custom role holding exactly those (for authority tests).
 */
export async function createUser(
  db: Db,
  options: {
    company: TestCompany | null;
    role?: BuiltInRole;
    authorities?: readonly Authority[];
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
  const roleId = options.authorities
    ? (await createRole(db, options.company, options.authorities)).id
    : await ensureBuiltInRole(db, options.company?.tenantId ?? null, options.role ?? 'EMPLOYEE');
  await assignRole(db, row!.id, roleId);
  return { id: row!.id, email, password };
}

export async function setCompanyHead(db: Db, company: TestCompany, userId: number) {
  await db.update(companies).set({ headId: userId }).where(eq(companies.id, company.id));
}

/** A Company Administrator of `company` (in `departmentId`, if given) who is set as the company's head. */
export async function createCompanyHead(db: Db, company: TestCompany, departmentId?: number) {
  const user = await createUser(db, { company, role: 'COMPANY_ADMINISTRATOR', departmentId });
  await setCompanyHead(db, company, user.id);
  return user;
}
