import type { Account, GeneratedAccount } from '@opsdeck/contract/accounts';
import type { LicenseTypeKey } from '@opsdeck/contract/activities';
import type { Ok } from '@opsdeck/contract/auth';
import type { FieldValues, Path } from 'react-hook-form';
import { ApiError, apiDownload, apiRequest, isApiError } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import type { ErrorPlacement } from '../../lib/form-errors';
import { useResourceMutation } from '../../lib/resource-mutation';
import { accountKeys } from '../../resources/accounts';
import { licenseQueryKeys } from '../../resources/licenses';

/** A key uses up one of its licence's allowed keys: the licence's counts change with it. */
const touched = [accountKeys.all, licenseQueryKeys.all];

/** The licence a key belongs to, and the company tenant the calls act in (an admin's X-Tenant-Id). */
export interface KeyScope {
  company: number;
  license: number;
  tenant: string;
}

function form(fields: Record<string, string | number | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value instanceof Blob ? value : String(value));
  return data;
}

/** POST /api/account/generate (form data): a key for a department, answered with its full key once. */
export function useGenerateKey() {
  return useResourceMutation(
    ({ scope, department }: { scope: KeyScope; department: number }) =>
      apiRequest<GeneratedAccount>('/account/generate', {
        method: 'POST',
        body: form({ company: scope.company, license: scope.license, department }),
        tenantId: scope.tenant,
      }),
    touched,
  );
}

/** POST /api/account/from-file (form data): the same, bound to the machine of a `.dat` registration file. */
export function useGenerateKeyFromFile() {
  return useResourceMutation(
    ({ scope, department, regFile }: { scope: KeyScope; department: number; regFile: File }) =>
      apiRequest<GeneratedAccount>('/account/from-file', {
        method: 'POST',
        body: form({ company: scope.company, license: scope.license, department, regFile }),
        tenantId: scope.tenant,
      }),
    touched,
  );
}

/** POST /api/account/invalidate (form data). */
export function useInvalidateKey() {
  return useResourceMutation(
    ({ scope, account }: { scope: KeyScope; account: number }) =>
      apiRequest<Ok>('/account/invalidate', {
        method: 'POST',
        body: form({ company: scope.company, license: scope.license, account }),
        tenantId: scope.tenant,
      }),
    touched,
  );
}

/** DELETE /api/license/company/{companyId}/license/{licenseId}/account/{accountId}: a key, for good. */
export function useDeleteKey() {
  return useResourceMutation(
    ({ scope, account }: { scope: KeyScope; account: number }) =>
      apiRequest<Ok>(`/license/company/${scope.company}/license/${scope.license}/account/${account}`, {
        method: 'DELETE',
        tenantId: scope.tenant,
      }),
    touched,
  );
}

/** GET /api/account/export-license-file/{id}: the key's licence file, saved under the server's name. */
export function exportLicenseFile(account: Pick<Account, 'id' | 'partialKey'>, tenant: string | undefined) {
  return apiDownload(`/account/export-license-file/${account.id}`, {
    fallbackName: `${account.partialKey}.lic`,
    ...(tenant === undefined ? {} : { tenantId: tenant }),
  });
}

/** POST /api/account/solo (form data, the provider's): a solo licence and its account from a registration file. */
export function useCreateSoloAccount() {
  return useResourceMutation(
    ({ licenseType, regFile }: { licenseType: LicenseTypeKey; regFile: File }) =>
      apiRequest<GeneratedAccount>('/account/solo', { method: 'POST', body: form({ licenseType, regFile }) }),
    touched,
  );
}

/**
 * Spec section 8, Solo account archive: a missing id reads as a missing licence, so the dialog
 * says one thing for both.
 */
export function soloArchiveError(error: unknown): unknown {
  if (isApiError(error) && error.key === 'ERROR_LICENSE_ID_REQUIRED')
    return new ApiError(error.status, 'ERROR_LICENSE_NOT_EXIST', error.message, { ...error.fields });
  return error;
}

/** POST /api/license/solo/invalidate: a solo account's delete, which invalidates its licence. */
export function useInvalidateSoloLicense() {
  return useResourceMutation(async (licenseId: number) => {
    try {
      return await apiRequest<Ok>('/license/solo/invalidate', { method: 'POST', body: { licenseId } });
    } catch (error) {
      throw soloArchiveError(error);
    }
  }, touched);
}

/**
 * Spec section 8, Key generation (and the solo account made the same way from a file): an
 * expired licence and a full one toast; anything else is the general error; the dialog closes
 * either way. A bad registration file is not among these: it goes on the file field with the
 * dialog open (`registrationFileErrors`).
 */
export const KEY_GENERATION_FAILURE: FailurePolicy = {
  toast: ['ERROR_LICENSE_EXPIRED_KEY', 'ERROR_COMPANY_FULL_LICENSES'],
  otherwise: 'general',
};

/**
 * A refused registration file on the form's file field, the dialog kept open to choose another
 * (docs/licensing.md: spec section 8 toasted these and closed the dialog, which lost the
 * department chosen and said nothing next to the file at fault).
 */
export function registrationFileErrors<T extends FieldValues>(field: Path<T>): ErrorPlacement<T> {
  const keys = ['ERROR_ACCOUNT_REGFILE_INVALID', 'ERROR_ACCOUNT_REGFILE_REQUIRED', 'ERROR_ACCOUNT_REGFILE_UNSUPPORTED'];
  return { fields: { regFile: field }, keys: Object.fromEntries(keys.map((key) => [key, field])) };
}

/** A key's invalidation and delete: a key or licence gone meanwhile toasts so; others the general error. */
export const KEY_CHANGE_FAILURE: FailurePolicy = {
  toast: ['ERROR_ACCOUNT_NOT_EXIST', 'ERROR_LICENSE_NOT_EXIST'],
  otherwise: 'general',
};

/** Spec section 8, Solo account archive (after soloArchiveError): not there, or not solo; else general. */
export const SOLO_ARCHIVE_FAILURE: FailurePolicy = {
  toast: ['ERROR_LICENSE_NOT_EXIST', 'ERROR_LICENSE_NOT_SOLO'],
  otherwise: 'general',
};
