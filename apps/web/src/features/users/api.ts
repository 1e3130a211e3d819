import type { Ok } from '@opsdeck/contract/auth';
import type { RegisterUser, UpdateUser, User } from '@opsdeck/contract/users';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { departmentKeys } from '../../resources/departments';
import { userKeys } from '../../resources/users';

/** Departments show their head by name, so a user's change can show there too. */
const touched = [userKeys.all, departmentKeys.all];

export function useRegisterUser() {
  return useResourceMutation(
    (body: RegisterUser) => apiRequest<User>('/user/register', { method: 'POST', body }),
    touched,
  );
}

export function useUpdateUser() {
  return useResourceMutation(
    ({ id, body }: { id: number; body: UpdateUser }) =>
      apiRequest<User>(`/user/updateUser/${id}`, { method: 'PUT', body }),
    touched,
  );
}

export function useArchiveUser() {
  return useResourceMutation((id: number) => apiRequest<Ok>(`/user/archive/${id}`, { method: 'DELETE' }), touched);
}

/** Spec section 8, User: an archive or a failed update shows the server's message in a toast and closes. */
export const USER_CHANGE_FAILURE: FailurePolicy = { otherwise: 'server' };
