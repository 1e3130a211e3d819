import type { SaveStatus, Status } from '@opsdeck/contract/statuses';
import type { FailurePolicy } from '../../lib/failure-policy';
import { crudMutations } from '../../lib/resource-mutation';
import { statusKeys } from '../../resources/statuses';
import { taskKeys } from '../../resources/tasks';

/** A status change shows in the tasks table too (each task names its status). */
const touched = [statusKeys.all, taskKeys.all];

const mutations = crudMutations<Status, SaveStatus>({ create: '/status', one: '/status' }, touched);
export const useCreateStatus = mutations.useCreate;
export const useUpdateStatus = mutations.useUpdate;
export const useDeleteStatus = mutations.useDelete;

/** Spec section 8, Status update: a refusal toasts with the name, anything else the general error; it closes. */
export const UPDATE_STATUS_FAILURE: FailurePolicy = {
  toast: ['ERROR_STATUS_INACCESSIBLE', 'ERROR_STATUS_NOT_EXIST'],
  otherwise: 'general',
};

/** Spec section 8, Status delete: has tasks, or not the caller's, toast with the name. */
export const DELETE_STATUS_FAILURE: FailurePolicy = {
  toast: ['ERROR_STATUS_DELETE', 'ERROR_STATUS_INACCESSIBLE', 'ERROR_STATUS_NOT_EXIST'],
  otherwise: 'general',
};
