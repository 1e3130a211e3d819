import { z } from 'zod';
import { id, idParams, name } from './fields';
import { LicenseTypeRef } from './licenses';
import { LIMITS } from './limits';
import { listFormat, PageQuery, pageOf } from './paging';
import { UserCredential, UserEmail, UserFirstName, UserLastName } from './users';

export const IndustryType = z.object({ key: z.string(), name: z.string() }).meta({ id: 'IndustryType' });
export type IndustryType = z.infer<typeof IndustryType>;

export const CompanyHead = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  completeName: z.string(),
  emailAddress: z.string(),
});

/** Spec section 3, Company. */
export const Company = z
  .object({
    id: z.number().int(),
    tenantId: z.string(),
    name: z.string(),
    emailAddress: z.string().nullable(),
    industryType: IndustryType,
    head: CompanyHead.nullable(),
    license: z.object({ type: LicenseTypeRef, issueDate: z.number(), expirationDate: z.number() }).nullable(),
  })
  .meta({ id: 'Company' });
export type Company = z.infer<typeof Company>;

/** Spec section 5, Company: a name required, at most 255, none of the forbidden characters, not ending with a dot. */
export const CompanyName = name({
  required: 'ERROR_COMPANY_NAME_REQUIRED',
  tooLong: 'ERROR_COMPANY_NAME_TOO_LONG',
  invalid: 'ERROR_COMPANY_NAME_INVALID',
}).refine((value) => !value.endsWith('.'), 'ERROR_COMPANY_NAME_INVALID');

/** The industry: its key, or `{ key }` as the company reads it back. */
export const IndustryKey = z.preprocess(
  (value) => (value !== null && typeof value === 'object' && 'key' in value ? value.key : value),
  z
    .string({ error: 'ERROR_COMPANY_INDUSTRY_REQUIRED' })
    .trim()
    .min(1, 'ERROR_COMPANY_INDUSTRY_REQUIRED')
    .max(LIMITS.nameMax, 'ERROR_COMPANY_INDUSTRY_INVALID'),
);

/** The head created with the company (spec section 5, Company head): the username is the e-mail. */
export const NewCompanyHead = z.object({
  firstName: UserFirstName,
  lastName: UserLastName,
  emailAddress: UserEmail,
  credential: UserCredential,
});

/** POST /api/company (spec section 7): the company and its head, made in one transaction. */
export const CreateCompany = z
  .object({ name: CompanyName, industryType: IndustryKey, head: NewCompanyHead })
  .meta({ id: 'CreateCompany' });
export type CreateCompany = z.infer<typeof CreateCompany>;
export type CreateCompanyInput = z.input<typeof CreateCompany>;

/** PUT /api/company/{id}: the head is one of the company's own users. */
export const UpdateCompany = z
  .object({ name: CompanyName, industryType: IndustryKey, headId: id('ERROR_COMPANY_HEAD_REQUIRED') })
  .meta({ id: 'UpdateCompany' });
export type UpdateCompany = z.infer<typeof UpdateCompany>;
export type UpdateCompanyInput = z.input<typeof UpdateCompany>;

export const CompanyIdParams = idParams('ERROR_COMPANY_NOT_EXIST');
export const CompanyNameParams = z.object({ name: z.string().trim().min(1).max(LIMITS.nameMax) });

/** The sortable columns of the companies table (spec section 2). */
export const COMPANY_SORT_FIELDS = ['name', 'head', 'industry'] as const;
export type CompanySortField = (typeof COMPANY_SORT_FIELDS)[number];

/**
 * GET /api/company: without `page` the plain array of the spec (the company selectors read it);
 * with `page` one page, sorted and searched (company name, head first or last name, industry).
 */
export const CompanyListQuery = PageQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^(${COMPANY_SORT_FIELDS.join('|')})(,(asc|desc))?$`), 'ERROR_GENERAL_INVALID_INPUT')
    .optional(),
  ...listFormat,
});
export type CompanyListQuery = z.infer<typeof CompanyListQuery>;

export const CompanyPage = pageOf(Company).meta({ id: 'CompanyPage' });
