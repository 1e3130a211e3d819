import type { Executor } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { conflict, notFound } from '../../platform/errors';
import { EVERY_TENANT, scopeOf, type TenantScope } from '../../platform/tenancy';
import { findCompany } from '../companies/queries';
import { findLicense, type LicenseRow } from './queries';

/**
 * A company the caller may act on: their own for company users, any for an admin (or the one an
 * admin named in X-Tenant-Id). Any other answers 404 ERROR_COMPANY_NOT_EXIST, as if it did not exist.
 */
export async function companyInScope(db: Executor, auth: RequestAuth, companyId: number) {
  const company = await findCompany(db, scopeOf(auth), { id: companyId });
  if (!company) throw notFound('ERROR_COMPANY_NOT_EXIST');
  return company;
}

/**
 * The scope a caller reads licences in: the provider issues and sees every licence (solo ones,
 * which have no tenant, included), whatever company it acts on; a company user its own company's.
 */
export const licenceScope = (auth: Pick<RequestAuth, 'isAdmin' | 'tenantId'>): TenantScope =>
  auth.isAdmin ? EVERY_TENANT : scopeOf(auth);

/**
 * A licence of a company the caller may act on. A licence of another company (or a solo one) is
 * hidden from company users (404 ERROR_LICENSE_NOT_EXIST); the provider, who sees every licence,
 * is told it belongs elsewhere (409 ERROR_LICENSE_OTHER_COMPANY, spec section 8).
 */
export async function companyLicense(
  db: Executor,
  auth: RequestAuth,
  companyId: number,
  licenseId: number,
): Promise<{ company: { id: number; tenantId: string }; license: LicenseRow }> {
  const company = await companyInScope(db, auth, companyId);
  const license = await findLicense(db, licenceScope(auth), licenseId);
  if (!license) throw notFound('ERROR_LICENSE_NOT_EXIST');
  if (license.companyId !== company.id) {
    throw auth.isAdmin ? conflict('ERROR_LICENSE_OTHER_COMPANY') : notFound('ERROR_LICENSE_NOT_EXIST');
  }
  return { company, license };
}
