import type { Ok } from '@opsdeck/contract/auth';
import type { Department, SaveDepartment } from '@opsdeck/contract/departments';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { departmentKeys } from '../../resources/departments';
import { type Tenant, tenantOption } from '../../resources/tenant';
import { userKeys } from '../../resources/users';

/** A department change touches every department list and the head lists (a head heads one). */
const touched = [departmentKeys.all, userKeys.all];

export function useCreateDepartment() {
  return useResourceMutation(
    ({ body, tenant }: { body: SaveDepartment; tenant?: Tenant }) =>
      apiRequest<Department>('/department', { method: 'POST', body, ...tenantOption(tenant) }),
    touched,
  );
}

export function useUpdateDepartment() {
  return useResourceMutation(
    ({ id, body, tenant }: { id: number; body: SaveDepartment; tenant?: Tenant }) =>
      apiRequest<Department>(`/department/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
    touched,
  );
}

export function useDeleteDepartment() {
  return useResourceMutation((id: number) => apiRequest<Ok>(`/department/${id}`, { method: 'DELETE' }), touched);
}

/** Spec section 8, Department delete: these toast with the name; anything else is the general error. */
export const DELETE_DEPARTMENT_FAILURE: FailurePolicy = {
  toast: [
    'ERROR_DEPARTMENT_DELETE_HAS_CHILDREN',
    'ERROR_DEPARTMENT_DELETE_ASSOCIATED_WITH_STATUSES',
    'ERROR_DEPARTMENT_NOT_EXIST',
  ],
  otherwise: 'general',
};
