import { randomUUID } from 'node:crypto';
import type { Authority, BuiltInRole } from '@opsdeck/contract/authorities';
import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { accounts, companies, departments, licenses, roleAuthorities, roles, users, workflows } from '../src/db/schema';
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

export type AgentKeyPerson = { fullName?: string | null; email?: string | null; departmentId?: number | null };
export const TEST_MAC = 'AA:BB:CC:DD:EE:01';

/**
 * A licence of the company (or a solo one) and one key on it, with the agent that key identifies
 * (as the execution logs name it): for tests that report runs without a live connection.
 */
export async function createAgentKey(db: Db, owner: TestCompany | null, person: AgentKeyPerson = {}) {
  const [license] = await db
    .insert(licenses)
    .values({
      companyId: owner?.id ?? null,
      tenantId: owner?.tenantId ?? null,
      typeKey: 'pro',
      issueDate: Date.now(),
      expirationDate: Date.now() + 30 * 86_400_000,
      maxAccounts: 10,
    })
    .returning({ id: licenses.id });
  const [account] = await db
    .insert(accounts)
    .values({
      licenseId: license!.id,
      tenantId: owner?.tenantId ?? null,
      solo: owner === null,
      departmentId: person.departmentId ?? null,
      departmentName: person.departmentId ? 'Dispatch' : null,
      keyDigest: randomUUID(),
      partialKey: 'ODK-TEST-…-KEY1',
      fullName: person.fullName === undefined ? 'Amara Okoye' : person.fullName,
      emailAddress: person.email === undefined ? null : person.email,
    })
    .returning({ id: accounts.id });
  const agent = { accountId: account!.id, tenantId: owner?.tenantId ?? null, macAddress: TEST_MAC };
  return { licenseId: license!.id, accountId: account!.id, agent };
}

/** A workflow row of the company (no file): enough for runs to name it. */
export async function createWorkflowRow(db: Db, owner: TestCompany, name = 'Invoice intake', archived = false) {
  const [row] = await db
    .insert(workflows)
    .values({ tenantId: owner.tenantId, name, fileName: `${name}.rax`, size: 10, archived, updatedAt: Date.now() })
    .returning({ id: workflows.id });
  return row!.id;
}
