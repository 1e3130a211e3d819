import { z } from 'zod';
import { LICENSE_TYPE_KEYS } from './activities';
import { idText, requiredIdText } from './fields';
import { CompanyRef, LicenseTypeRef } from './licenses';
import { listFormat, PageQuery, pageOf } from './paging';

/** An account's type: a seat of a company's licence, or a solo licence's one seat (docs/license-management.md). */
export const ACCOUNT_TYPE_KEYS = ['company', 'solo'] as const;
export const AccountTypeRef = z.object({ key: z.enum(ACCOUNT_TYPE_KEYS), name: z.string() });

/**
 * Spec section 3, Licence key and Account: one row is both. A key is stored as its digest and
 * `partialKey` only; the person and machines come from its registration file (`hasFile`), or are
 * empty for a key generated without one. `macAddress` is the first of `macAddresses`.
 */
export const Account = z
  .object({
    id: z.number().int(),
    type: AccountTypeRef,
    partialKey: z.string(),
    departmentName: z.string().nullable(),
    fullName: z.string().nullable(),
    emailAddress: z.string().nullable(),
    macAddress: z.string().nullable(),
    macAddresses: z.array(z.string()),
    hostname: z.string().nullable(),
    hasFile: z.boolean(),
    invalidated: z.boolean(),
    createDate: z.number().int(),
    license: z.object({
      id: z.number().int(),
      type: LicenseTypeRef,
      /** The licence's label ('' when it has none): which of a company's licences the key is of. */
      label: z.string(),
      expirationDate: z.number().int(),
      company: CompanyRef.nullable(),
    }),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof Account>;

/** The answer of a generation: the account and its full key, shown this once and never again. */
export const GeneratedAccount = Account.extend({ key: z.string() }).meta({ id: 'GeneratedAccount' });
export type GeneratedAccount = z.infer<typeof GeneratedAccount>;

const companyField = idText('ERROR_COMPANY_NOT_EXIST');
const licenseField = idText('ERROR_LICENSE_NOT_EXIST');

/** GET /api/account/list?company=&license= : the keys of one licence. */
export const LicenseAccountsQuery = z.object({ company: companyField, license: licenseField });
export type LicenseAccountsQuery = z.infer<typeof LicenseAccountsQuery>;

/** POST /api/account/generate (form data): a key for a department of the company. */
export const GenerateAccount = z
  .object({
    company: companyField,
    license: licenseField,
    department: requiredIdText('ERROR_ACCOUNT_DEPARTMENT_REQUIRED', 'ERROR_DEPARTMENT_NOT_EXIST'),
  })
  .meta({ id: 'GenerateAccount' });
export type GenerateAccount = z.infer<typeof GenerateAccount>;

/** An uploaded file as the form-data routes read it (platform/form-data.ts). */
export const UploadedFile = z.object({ filename: z.string(), bytes: z.instanceof(Uint8Array) });
export type UploadedFile = z.infer<typeof UploadedFile>;

/** POST /api/account/from-file (form data): the same, with the machine's `.dat` registration file. */
export const GenerateAccountFromFile = GenerateAccount.extend({ regFile: UploadedFile.optional() }).meta({
  id: 'GenerateAccountFromFile',
});
export type GenerateAccountFromFile = z.infer<typeof GenerateAccountFromFile>;

/** POST /api/account/invalidate and /api/account/list-license-file (form data). */
export const AccountRefForm = z
  .object({ company: companyField, license: licenseField, account: idText('ERROR_ACCOUNT_NOT_EXIST') })
  .meta({ id: 'AccountRefForm' });
export type AccountRefForm = z.infer<typeof AccountRefForm>;

/** A key's licence file as POST /api/account/list-license-file lists it (one at most). */
export const LicenseFileRef = z.object({ accountId: z.number().int(), fileName: z.string() });
export type LicenseFileRef = z.infer<typeof LicenseFileRef>;

export const AccountIdParams = z.object({ id: idText('ERROR_ACCOUNT_NOT_EXIST') });

/** DELETE /api/license/company/{companyId}/license/{licenseId}/account/{accountId} (chosen). */
export const AccountPathParams = z.object({
  companyId: companyField,
  licenseId: licenseField,
  accountId: idText('ERROR_ACCOUNT_NOT_EXIST'),
});
export type AccountPathParams = z.infer<typeof AccountPathParams>;

/** The sortable columns of the accounts table. */
export const ACCOUNT_SORT_FIELDS = ['type', 'fullName', 'email', 'expiration'] as const;
export type AccountSortField = (typeof ACCOUNT_SORT_FIELDS)[number];

/** GET /api/account: every account the caller may see, one page (search: name, e-mail, MAC, company). */
export const AccountListQuery = PageQuery.extend({
  page: PageQuery.shape.page.default(1),
  sort: z
    .string()
    .regex(new RegExp(`^(${ACCOUNT_SORT_FIELDS.join('|')})(,(asc|desc))?$`), 'ERROR_GENERAL_INVALID_INPUT')
    .optional(),
  ...listFormat,
});
export type AccountListQuery = z.infer<typeof AccountListQuery>;
export const AccountPage = pageOf(Account).meta({ id: 'AccountPage' });
export type AccountPage = z.infer<typeof AccountPage>;

/** POST /api/account/solo (form data, provider only): a solo licence and its account from a registration file. */
export const CreateSoloAccount = z
  .object({
    licenseType: z.enum(LICENSE_TYPE_KEYS, { error: 'ERROR_LICENSE_TYPE_INVALID' }).default('pro'),
    regFile: UploadedFile.optional(),
  })
  .meta({ id: 'CreateSoloAccount' });
export type CreateSoloAccount = z.infer<typeof CreateSoloAccount>;
