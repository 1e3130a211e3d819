import { AUTHORITY_KEYS, type Authority } from '@opsdeck/contract/authorities';
import type { TestApp } from './app';
import { createCompanyHead, createUser, type TestCompany } from './factories';

/** Every authority a company user can hold: for the "other company" caller of the tenant table. */
export const COMPANY_AUTHORITIES = AUTHORITY_KEYS.filter((key) => key !== 'ADMIN_ACCESS_LEVEL');

/** Signs in a fresh user of `company` holding exactly `authorities`. */
export async function tokenFor(t: TestApp, company: TestCompany | null, authorities: readonly Authority[]) {
  const user = await createUser(t.database.db, { company, authorities });
  return t.login(user.email, user.password);
}

/** Signs in a fresh user of `company` holding every company authority (the tenant table's outsider). */
export const tokenWithEveryAuthority = (t: TestApp, company: TestCompany) => tokenFor(t, company, COMPANY_AUTHORITIES);

/** Makes a new head of `company` (a Company Administrator, in `departmentId` if given) and signs them in. */
export async function signInCompanyHead(t: TestApp, company: TestCompany, departmentId?: number) {
  const user = await createCompanyHead(t.database.db, company, departmentId);
  return { ...user, token: await t.login(user.email, user.password) };
}
