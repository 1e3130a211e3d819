import { z } from 'zod';
import { LICENSE_TYPE_KEYS } from './activities';
import { epoch, id, idText } from './fields';
import { LIMITS } from './limits';

/** Spec section 9: allowed keys per licence. */
export const LICENSE_LIMITS = { minKeys: 1, maxKeys: 100, defaultKeys: 10, defaultValidityDays: 365 } as const;

export const LicenseTypeRef = z
  .object({ key: z.enum(['pro', 'enterprise']), name: z.string() })
  .meta({ id: 'LicenseTypeRef' });

export const CompanyRef = z.object({ id: z.number().int(), name: z.string(), tenantId: z.string() });

/**
 * Spec section 3, Licence. `company` is null for a solo licence (an individual's, spec section
 * 7). Dates are epoch milliseconds. `maxAccounts` is the allowed key count and `unusedAccounts`
 * what is left of it; `invalidated` and `expired` say whether new keys can be made (a key is made
 * only on a licence that is neither).
 */
export const License = z
  .object({
    id: z.number().int(),
    company: CompanyRef.nullable(),
    type: LicenseTypeRef,
    label: z.string(),
    issueDate: z.number().int(),
    expirationDate: z.number().int(),
    maxAccounts: z.number().int(),
    unusedAccounts: z.number().int(),
    invalidated: z.boolean(),
    expired: z.boolean(),
  })
  .meta({ id: 'License' });
export type License = z.infer<typeof License>;

const Label = z
  .string({ error: 'ERROR_LICENSE_LABEL_TOO_LONG' })
  .trim()
  .max(LIMITS.nameMax, 'ERROR_LICENSE_LABEL_TOO_LONG')
  .nullish()
  .transform((value) => value ?? '');

const CompanyId = id('ERROR_COMPANY_NOT_EXIST', 'ERROR_COMPANY_REQUIRED');
const LicenseId = id('ERROR_LICENSE_NOT_EXIST', 'ERROR_LICENSE_ID_REQUIRED');

/** GET /api/license/company?id= : a company's licences. */
export const CompanyLicensesQuery = z.object({ id: idText('ERROR_COMPANY_NOT_EXIST') });

/** GET /api/license/company/license?company=&license= : one licence of a company. */
export const CompanyLicenseQuery = z.object({
  company: idText('ERROR_COMPANY_NOT_EXIST'),
  license: idText('ERROR_LICENSE_NOT_EXIST'),
});
export type CompanyLicenseQuery = z.infer<typeof CompanyLicenseQuery>;

/** POST /api/license/company/add: the type (pre-selected 'pro' in the form) and a label. */
export const AddLicense = z
  .object({
    companyId: CompanyId,
    licenseType: z.enum(LICENSE_TYPE_KEYS, {
      error: (issue) =>
        issue.input === undefined || issue.input === '' ? 'ERROR_LICENSE_TYPE_REQUIRED' : 'ERROR_LICENSE_TYPE_INVALID',
    }),
    label: Label,
  })
  .meta({ id: 'AddLicense' });
export type AddLicense = z.infer<typeof AddLicense>;
export type AddLicenseInput = z.input<typeof AddLicense>;

/** Allowed keys: required, a whole number from 1 to 100 (spec section 5). */
export const AllowedKeys = z.preprocess(
  // Coerced here rather than with z.coerce, which reads a missing value as NaN (too low, not required).
  (value) =>
    value === '' || value === null ? undefined : typeof value === 'string' && value.trim() ? Number(value) : value,
  z
    .number({
      error: (issue) =>
        issue.input === undefined ? 'ERROR_LICENSE_ALLOWED_KEYS_REQUIRED' : 'ERROR_LICENSE_ALLOWED_KEYS_TOO_LOW',
    })
    .int('ERROR_LICENSE_ALLOWED_KEYS_TOO_LOW')
    .min(LICENSE_LIMITS.minKeys, 'ERROR_LICENSE_ALLOWED_KEYS_TOO_LOW')
    .max(LICENSE_LIMITS.maxKeys, 'ERROR_LICENSE_ALLOWED_KEYS_TOO_HIGH'),
);

/**
 * POST /api/license/company/update (the renew of spec section 4): a new expiration date that is
 * not already past (the server checks against its clock), the allowed keys and the label.
 */
export const UpdateLicense = z
  .object({
    companyId: CompanyId,
    licenseId: LicenseId,
    expirationDate: z.preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      epoch('ERROR_LICENSE_EXPIRATION_DATE_INVALID').optional(),
    ),
    maxAccounts: AllowedKeys,
    label: Label,
  })
  .superRefine((value, context) => {
    if (value.expirationDate === undefined)
      context.addIssue({ code: 'custom', path: ['expirationDate'], message: 'ERROR_LICENSE_EXPIRATION_DATE_REQUIRED' });
  })
  .transform((value) => ({ ...value, expirationDate: value.expirationDate as number }))
  .meta({ id: 'UpdateLicense' });
export type UpdateLicense = z.infer<typeof UpdateLicense>;
export type UpdateLicenseInput = z.input<typeof UpdateLicense>;

/** POST /api/license/company/invalidate. */
export const InvalidateLicense = z
  .object({ companyId: CompanyId, licenseId: LicenseId })
  .meta({ id: 'InvalidateLicense' });
export type InvalidateLicense = z.infer<typeof InvalidateLicense>;

/** POST /api/license/solo/invalidate: a solo licence by its id. */
export const InvalidateSoloLicense = z.object({ licenseId: LicenseId }).meta({ id: 'InvalidateSoloLicense' });

/** DELETE /api/license/company/{companyId}/license/{licenseId} (chosen: the spec shows no path). */
export const LicensePathParams = z.object({
  companyId: idText('ERROR_COMPANY_NOT_EXIST'),
  licenseId: idText('ERROR_LICENSE_NOT_EXIST'),
});
export type LicensePathParams = z.infer<typeof LicensePathParams>;
