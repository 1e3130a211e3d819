import type { Executor } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { conflict, notFound } from '../../platform/errors';
import { scopeOf } from '../../platform/tenancy';
import { findCompany } from '../companies/queries';
import { findLicense, type LicenseRow } from './queries';

/**
 * A company the caller may act on: their own for company users, any for an admin (or the one an
 * admin named in X-Tenant-Id). Any other answers 404 ERROR_COMPANY_NOT_EXIST, as if it did not exist.
 */
export async function companyInScope(db: Executor, auth: RequestAuth, companyId: number) {
  const company = await findCompany(db, { id: companyId });
  const scope = scopeOf(auth);
  if (!company || (scope.kind === 'one' && company.tenantId !== scope.tenantId)) {
    throw notFound('ERROR_COMPANY_NOT_EXIST');
  }
  return company;
}

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
  const license = await findLicense(db, licenseId);
  if (!license) throw notFound('ERROR_LICENSE_NOT_EXIST');
  if (license.companyId !== company.id) {
    throw auth.isAdmin ? conflict('ERROR_LICENSE_OTHER_COMPANY') : notFound('ERROR_LICENSE_NOT_EXIST');
  }
  return { company, license };
}
