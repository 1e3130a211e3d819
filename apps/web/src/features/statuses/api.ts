import type { Ok } from '@opsdeck/contract/auth';
import type { SaveStatus, Status } from '@opsdeck/contract/statuses';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { statusKeys } from '../../resources/statuses';
import { taskKeys } from '../../resources/tasks';
import { type Tenant, tenantOption } from '../../resources/tenant';

/** A status change shows in the tasks table too (each task names its status). */
const touched = [statusKeys.all, taskKeys.all];

export function useCreateStatus() {
  return useResourceMutation(
    ({ body, tenant }: { body: SaveStatus; tenant?: Tenant }) =>
      apiRequest<Status>('/status', { method: 'POST', body, ...tenantOption(tenant) }),
    touched,
  );
}

export function useUpdateStatus() {
  return useResourceMutation(
    ({ id, body, tenant }: { id: number; body: SaveStatus; tenant?: Tenant }) =>
      apiRequest<Status>(`/status/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
    touched,
  );
}

export function useDeleteStatus() {
  return useResourceMutation(
    ({ id, tenant }: { id: number; tenant?: Tenant }) =>
      apiRequest<Ok>(`/status/${id}`, { method: 'DELETE', ...tenantOption(tenant) }),
    touched,
  );
}

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
