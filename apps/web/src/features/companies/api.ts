import type { Company, CreateCompany, UpdateCompany } from '@opsdeck/contract/companies';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { crudMutations, useResourceMutation } from '../../lib/resource-mutation';
import { companyKeys } from '../../resources/companies';
import { userKeys } from '../../resources/users';

/** A company's head is one of its users: a create or a head change shows on the users' views too. */
const touched = [companyKeys.all, userKeys.all];

const mutations = crudMutations<Company, CreateCompany, UpdateCompany>(
  { create: '/company', one: '/company' },
  touched,
);

/**
 * POST /api/company. A new company belongs to no tenant yet, so no tenant header goes with it
 * (an admin's stored company has nothing to do with it).
 */
export function useCreateCompany() {
  return useResourceMutation(
    ({ body }: { body: CreateCompany }) => apiRequest<Company>('/company', { method: 'POST', body, tenantId: null }),
    touched,
  );
}

/** PUT /api/company/{id}, with the company's own tenant (the dialog passes `record.tenantId`). */
export const useUpdateCompany = mutations.useUpdate;
/** DELETE /api/company/{id}: spec section 7, with the tenant header of that company. */
export const useDeleteCompany = mutations.useDelete;

/**
 * Spec section 8, Company: name, industry, head and e-mail keys go on their fields; any other
 * failure is a general message under the form, with everything typed kept.
 */
export const CREATE_COMPANY_FAILURE: FailurePolicy = { otherwise: 'form' };
/** Update: the same, and a company gone meanwhile toasts ERROR_COMPANY_NOT_EXIST and closes. */
export const UPDATE_COMPANY_FAILURE: FailurePolicy = { toast: ['ERROR_COMPANY_NOT_EXIST'], otherwise: 'form' };
/** Delete: a company with licences (or gone) toasts with its name; anything else ERROR_GENERAL_INTERNAL. */
export const DELETE_COMPANY_FAILURE: FailurePolicy = {
  toast: ['ERROR_COMPANY_HAS_LICENSE', 'ERROR_COMPANY_NOT_EXIST'],
  otherwise: 'general',
};
