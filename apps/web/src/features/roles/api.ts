import type { CreateRole, Role, UpdateRole } from '@opsdeck/contract/roles';
import type { FailurePolicy } from '../../lib/failure-policy';
import { crudMutations } from '../../lib/resource-mutation';
import { profileKeys } from '../../resources/profile';
import { roleKeys } from '../../resources/roles';
import { userKeys } from '../../resources/users';

/**
 * The users table shows each user's role by name; spec section 7 reloads the profile after a role
 * update, so that the user's own authorities follow at once.
 */
const touched = [roleKeys.all, userKeys.all, profileKeys.all];

const mutations = crudMutations<Role, CreateRole, UpdateRole>(
  { create: '/usergroup', one: '/usergroup', remove: '/usergroup/archiveRole' },
  touched,
);
export const useCreateRole = mutations.useCreate;
export const useUpdateRole = mutations.useUpdate;
export const useDeleteRole = mutations.useDelete;

/** Spec section 8, Role delete: these toast with the role's name; anything else is the general error. */
export const DELETE_ROLE_FAILURE: FailurePolicy = {
  toast: ['ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER', 'ERROR_GENERAL_PROTECTED', 'ERROR_ROLE_NOT_EXIST'],
  otherwise: 'general',
};
