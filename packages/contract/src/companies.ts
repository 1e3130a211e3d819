import { z } from 'zod';

export const IndustryType = z.object({ key: z.string(), name: z.string() }).meta({ id: 'IndustryType' });
export type IndustryType = z.infer<typeof IndustryType>;

export const CompanyHead = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  completeName: z.string(),
  emailAddress: z.string(),
});

export const LicenseTypeRef = z.object({ key: z.enum(['pro', 'enterprise']), name: z.string() });

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
