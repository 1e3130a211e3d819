import {
  type Company,
  CompanyName,
  type CreateCompany,
  IndustryKey,
  NewCompanyHead,
  type UpdateCompany,
} from '@opsdeck/contract/companies';
import { withPasswordRule } from '@opsdeck/contract/passwords';
import { z } from 'zod';
import { chosenId } from '../../lib/form-schemas';

/**
 * A Select's value (a key as text, or null) checked by the contract's rule for it, with the rule's
 * keys: the contract's industry rule takes any input, which a pipe from the select's text cannot say.
 */
const chosenKey = (rule: z.ZodType<string>) =>
  z
    .string()
    .nullable()
    .transform((value, context) => {
      const result = rule.safeParse(value ?? '');
      if (result.success) return result.data;
      for (const issue of result.error.issues) context.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    });

/**
 * The company form (spec section 5, Company and Company head) over the contract's schemas, so the
 * form and the server fail with the same keys. On create the head is made with the company (names,
 * e-mail, password and its confirmation); on update the head is chosen among the company's users.
 * Selects hold keys and ids as text.
 */
export function companyFormSchema(editing: boolean) {
  return z.object({
    name: CompanyName,
    industryType: chosenKey(IndustryKey),
    head: editing
      ? z.object({
          firstName: z.string(),
          lastName: z.string(),
          emailAddress: z.string(),
          credential: z.object({ newPassword: z.string(), confirmPassword: z.string() }),
        })
      : // The password rule (docs/security.md), nothing built from the head's names and e-mail.
        withPasswordRule(NewCompanyHead, ['credential', 'newPassword'], (head) => ({
          password: head.credential.newPassword,
          // The head's role, Company Administrator, does not hold ADMIN_ACCESS_LEVEL: 8 characters.
          admin: false,
          person: head,
        })),
    headId: editing ? chosenId('ERROR_COMPANY_HEAD_REQUIRED') : z.string().nullable(),
  });
}

export type CompanyFormValues = z.input<ReturnType<typeof companyFormSchema>>;
export type CompanyFormOutput = z.output<ReturnType<typeof companyFormSchema>>;

export function emptyCompanyForm(): CompanyFormValues {
  return {
    name: '',
    industryType: null,
    head: { firstName: '', lastName: '', emailAddress: '', credential: { newPassword: '', confirmPassword: '' } },
    headId: null,
  };
}

export function companyToForm(company: Company): CompanyFormValues {
  return {
    ...emptyCompanyForm(),
    name: company.name,
    industryType: company.industryType.key,
    headId: company.head ? String(company.head.id) : null,
  };
}

/** POST /api/company: the head signs in with their e-mail (spec section 3: username equal to the e-mail). */
export function toCreateCompany(values: CompanyFormOutput): CreateCompany {
  const email = values.head.emailAddress.trim();
  return {
    name: values.name,
    industryType: values.industryType,
    head: {
      firstName: values.head.firstName,
      lastName: values.head.lastName,
      emailAddress: email,
      credential: {
        username: email,
        newPassword: values.head.credential.newPassword,
        confirmPassword: values.head.credential.confirmPassword,
      },
    },
  };
}

export function toUpdateCompany(values: CompanyFormOutput): UpdateCompany {
  return { name: values.name, industryType: values.industryType, headId: Number(values.headId) };
}
