import type { Ok } from '@opsdeck/contract/auth';
import type { AddLicense, InvalidateLicense, License, UpdateLicense } from '@opsdeck/contract/licenses';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { companyKeys } from '../../resources/companies';
import { type LicenseOwner, licenseQueryKeys } from '../../resources/licenses';

/** The company's licence summary (its card, the companies list) follows its licences. */
const touched = [licenseQueryKeys.all, companyKeys.all];

/** Every licence call acts on one company: its tenant goes in the header (an admin acts on it). */
const post = <T>(path: string, company: LicenseOwner, body: unknown) =>
  apiRequest<T>(path, { method: 'POST', body, tenantId: company.tenantId });

/** POST /api/license/company/add: a new licence of the type chosen ('pro' pre-selected) with its label. */
export function useAddLicense(company: LicenseOwner) {
  return useResourceMutation((body: AddLicense) => post<License>('/license/company/add', company, body), touched);
}

/** POST /api/license/company/update: the renew of spec section 4 (expiration date, allowed keys, label). */
export function useRenewLicense(company: LicenseOwner) {
  return useResourceMutation((body: UpdateLicense) => post<License>('/license/company/update', company, body), touched);
}

/** POST /api/license/company/invalidate. */
export function useInvalidateLicense(company: LicenseOwner) {
  return useResourceMutation(
    (body: InvalidateLicense) => post<License>('/license/company/invalidate', company, body),
    touched,
  );
}

/** DELETE /api/license/company/{companyId}/license/{licenseId}. */
export function useDeleteLicense(company: LicenseOwner) {
  return useResourceMutation(
    (licenseId: number) =>
      apiRequest<Ok>(`/license/company/${company.id}/license/${licenseId}`, {
        method: 'DELETE',
        tenantId: company.tenantId,
      }),
    touched,
  );
}

/** Spec section 8, Licence: field keys on their fields; unknown create errors show under the form. */
export const ADD_LICENSE_FAILURE: FailurePolicy = { otherwise: 'form' };
/** Renew: a licence gone meanwhile toasts ERROR_LICENSE_NOT_EXIST and closes; the rest under the form. */
export const RENEW_LICENSE_FAILURE: FailurePolicy = { toast: ['ERROR_LICENSE_NOT_EXIST'], otherwise: 'form' };
/** Invalidate and delete: a licence gone toasts ERROR_LICENSE_NOT_EXIST; other failures the general error. */
export const CHANGE_LICENSE_FAILURE: FailurePolicy = { toast: ['ERROR_LICENSE_NOT_EXIST'], otherwise: 'general' };
