import type { RequestAuth } from './access';
import { badRequest } from './errors';

/**
 * The tenant a read is scoped to: the request's tenant (X-Tenant-Id for admins, the own company
 * otherwise), or null for an admin who picked no company, who then reads every company's rows.
 * Every tenant-owned query filters by this; a row outside it answers 404 as if it did not exist.
 */
export function readTenant(auth: RequestAuth): string | null {
  return auth.tenantId;
}

/**
 * The tenant a write lands in. Company users always write in their own; an admin names the
 * company (X-Tenant-Id) or is refused with ERROR_COMPANY_REQUIRED (spec section 5: "Company
 * required for admins").
 */
export function writeTenant(auth: RequestAuth): string {
  if (auth.tenantId === null) throw badRequest('ERROR_COMPANY_REQUIRED', { company: 'ERROR_COMPANY_REQUIRED' });
  return auth.tenantId;
}
