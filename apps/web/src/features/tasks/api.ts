import type { Ok } from '@opsdeck/contract/auth';
import type { SaveTask, Task } from '@opsdeck/contract/tasks';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { taskKeys } from '../../resources/tasks';
import { type Tenant, tenantOption } from '../../resources/tenant';

/** A task change can free or tie a status (a status with tasks cannot be deleted). */
const touched = [taskKeys.all];

export function useCreateTask() {
  return useResourceMutation(
    ({ body, tenant }: { body: SaveTask; tenant?: Tenant }) =>
      apiRequest<Task>('/task', { method: 'POST', body, ...tenantOption(tenant) }),
    touched,
  );
}

export function useUpdateTask() {
  return useResourceMutation(
    ({ id, body, tenant }: { id: number; body: SaveTask; tenant?: Tenant }) =>
      apiRequest<Task>(`/task/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
    touched,
  );
}

export function useDeleteTask() {
  return useResourceMutation(
    ({ id, tenant }: { id: number; tenant?: Tenant }) =>
      apiRequest<Ok>(`/task/${id}`, { method: 'DELETE', ...tenantOption(tenant) }),
    touched,
  );
}

/**
 * Spec section 8, Task: ERROR_TASK_INACCESSIBLE toasts (with the name) and closes; unknown errors
 * of a save show under the form, of a delete as the general error.
 */
export const SAVE_TASK_FAILURE: FailurePolicy = {
  toast: ['ERROR_TASK_INACCESSIBLE', 'ERROR_TASK_NOT_EXIST'],
  otherwise: 'form',
};
export const DELETE_TASK_FAILURE: FailurePolicy = { ...SAVE_TASK_FAILURE, otherwise: 'general' };
