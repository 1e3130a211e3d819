import type { Ok } from '@opsdeck/contract/auth';
import type { CreateRole, Role, UpdateRole } from '@opsdeck/contract/roles';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { profileKeys } from '../../resources/profile';
import { roleKeys } from '../../resources/roles';
import { type Tenant, tenantOption } from '../../resources/tenant';
import { userKeys } from '../../resources/users';

/** The users table shows each user's role by name. */
const touched = [roleKeys.all, userKeys.all];

export function useCreateRole() {
  return useResourceMutation(
    /** `tenant`: the admin's chosen company; undefined keeps the user's own. */
    ({ body, tenant }: { body: CreateRole; tenant?: Tenant }) =>
      apiRequest<Role>('/usergroup', { method: 'POST', body, ...tenantOption(tenant) }),
    touched,
  );
}

export function useUpdateRole() {
  return useResourceMutation(
    ({ id, body }: { id: number; body: UpdateRole }) => apiRequest<Role>(`/usergroup/${id}`, { method: 'PUT', body }),
    // Spec section 7: the profile is reloaded after a role update, so the user's own authorities follow at once.
    [...touched, profileKeys.all],
  );
}

export function useDeleteRole() {
  return useResourceMutation(
    (id: number) => apiRequest<Ok>(`/usergroup/archiveRole/${id}`, { method: 'DELETE' }),
    touched,
  );
}

/** Spec section 8, Role delete: these toast with the role's name; anything else is the general error. */
export const DELETE_ROLE_FAILURE: FailurePolicy = {
  toast: ['ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER', 'ERROR_GENERAL_PROTECTED', 'ERROR_ROLE_NOT_EXIST'],
  otherwise: 'general',
};
