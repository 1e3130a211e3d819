import type { SaveTask, Task } from '@opsdeck/contract/tasks';
import type { FailurePolicy } from '../../lib/failure-policy';
import { crudMutations } from '../../lib/resource-mutation';
import { taskKeys } from '../../resources/tasks';

/** A task change can free or tie a status (a status with tasks cannot be deleted). */
const touched = [taskKeys.all];

const mutations = crudMutations<Task, SaveTask>({ create: '/task', one: '/task' }, touched);
export const useCreateTask = mutations.useCreate;
export const useUpdateTask = mutations.useUpdate;
export const useDeleteTask = mutations.useDelete;

/**
 * Spec section 8, Task: ERROR_TASK_INACCESSIBLE toasts (with the name) and closes; unknown errors
 * of a save show under the form, of a delete as the general error.
 */
export const SAVE_TASK_FAILURE: FailurePolicy = {
  toast: ['ERROR_TASK_INACCESSIBLE', 'ERROR_TASK_NOT_EXIST'],
  otherwise: 'form',
};
export const DELETE_TASK_FAILURE: FailurePolicy = { ...SAVE_TASK_FAILURE, otherwise: 'general' };
