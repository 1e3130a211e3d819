import type { Department, SaveDepartment } from '@opsdeck/contract/departments';
import type { FailurePolicy } from '../../lib/failure-policy';
import { crudMutations } from '../../lib/resource-mutation';
import { departmentKeys } from '../../resources/departments';
import { userKeys } from '../../resources/users';

/** A department change touches every department list and the head lists (a head heads one). */
const touched = [departmentKeys.all, userKeys.all];

const mutations = crudMutations<Department, SaveDepartment>({ create: '/department', one: '/department' }, touched);
export const useCreateDepartment = mutations.useCreate;
export const useUpdateDepartment = mutations.useUpdate;
export const useDeleteDepartment = mutations.useDelete;

/** Spec section 8, Department delete: these toast with the name; anything else is the general error. */
export const DELETE_DEPARTMENT_FAILURE: FailurePolicy = {
  toast: [
    'ERROR_DEPARTMENT_DELETE_HAS_CHILDREN',
    'ERROR_DEPARTMENT_DELETE_ASSOCIATED_WITH_STATUSES',
    'ERROR_DEPARTMENT_NOT_EXIST',
  ],
  otherwise: 'general',
};
