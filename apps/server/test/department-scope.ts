import { eq } from 'drizzle-orm';
import { departments } from '../src/db/schema';
import { ADMIN, type TestApp } from './app';
import { createCompany, createDepartment, createUser, type TestCompany } from './factories';
import { signInCompanyHead, tokenWithEveryAuthority } from './sign-in';

/** Signs in a new Department Head of `company` who heads `departmentId`. */
async function headOfDepartment(t: TestApp, company: TestCompany, departmentId: number) {
  const db = t.database.db;
  const user = await createUser(db, { company, role: 'DEPARTMENT_HEAD', departmentId });
  await db.update(departments).set({ headId: user.id }).where(eq(departments.id, departmentId));
  return t.login(user.email, user.password);
}

/**
 * The world of spec section 6's "departments the user heads and their descendants" rule, which
 * statuses and tasks share. Company a: Operations ⊃ Dispatch, and Finance beside it, each with a
 * head of its own, and a company head; company b: Elsewhere, and a user holding every company
 * authority. Answers the ids and the signed-in tokens.
 */
export async function departmentScopeWorld(t: TestApp) {
  const db = t.database.db;
  const a = await createCompany(db);
  const b = await createCompany(db);
  const parentDept = (await createDepartment(db, a, { name: 'Operations' })).id;
  const childDept = (await createDepartment(db, a, { name: 'Dispatch', parentId: parentDept })).id;
  const siblingDept = (await createDepartment(db, a, { name: 'Finance' })).id;
  const otherDept = (await createDepartment(db, b, { name: 'Elsewhere' })).id;
  const adminToken = await t.login(ADMIN.email, ADMIN.password);
  const companyHeadToken = (await signInCompanyHead(t, a)).token;
  return {
    a,
    b,
    parentDept,
    childDept,
    siblingDept,
    otherDept,
    adminToken,
    companyHeadToken,
    parentHeadToken: await headOfDepartment(t, a, parentDept),
    siblingHeadToken: await headOfDepartment(t, a, siblingDept),
    otherToken: await tokenWithEveryAuthority(t, b),
  };
}

/** What `departmentScopeWorld` answers: the companies, department ids and signed-in tokens. */
export type DepartmentScopeWorld = Awaited<ReturnType<typeof departmentScopeWorld>>;
