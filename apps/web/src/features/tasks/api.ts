import type { Ok } from '@opsdeck/contract/auth';
import type { Department } from '@opsdeck/contract/departments';
import type { Status } from '@opsdeck/contract/statuses';
import type { SaveTask, Task } from '@opsdeck/contract/tasks';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

/** undefined: the stored tenant (the page's list); a tenant id: that company's (the admin's form). */
type Tenant = string | undefined;
const tenantOption = (tenant: Tenant) => (tenant === undefined ? {} : { tenantId: tenant });

export const taskKeys = {
  all: ['tasks'] as const,
  list: (tenant: Tenant) => ['tasks', 'list', tenant ?? 'current'] as const,
  detail: (id: number) => ['tasks', 'detail', id] as const,
  statuses: (tenant: Tenant) => ['tasks', 'statuses', tenant ?? 'current'] as const,
  departments: (tenant: Tenant) => ['tasks', 'departments', tenant ?? 'current'] as const,
};

export function tasksQueryOptions(tenant?: Tenant) {
  return queryOptions({
    queryKey: taskKeys.list(tenant),
    queryFn: ({ signal }) => apiRequest<Task[]>('/task', { signal, ...tenantOption(tenant) }),
  });
}

export function taskQueryOptions(id: number) {
  return queryOptions({
    queryKey: taskKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Task>(`/task/${id}`, { signal }),
    retry: false,
    staleTime: 0,
  });
}

/** The statuses of the form's status select (GET /api/status, readable with the task authorities). */
export function taskStatusesQueryOptions(tenant: Tenant) {
  return queryOptions({
    queryKey: taskKeys.statuses(tenant),
    queryFn: ({ signal }) => apiRequest<Status[]>('/status', { signal, ...tenantOption(tenant) }),
    staleTime: 0,
  });
}

/** The departments the user may put tasks in (spec section 6): those they head and below. */
export function taskDepartmentsQueryOptions(tenant: Tenant) {
  return queryOptions({
    queryKey: taskKeys.departments(tenant),
    queryFn: ({ signal }) =>
      apiRequest<Department[]>('/department/usersAccessibleDepts', { signal, ...tenantOption(tenant) }),
  });
}

export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, tenant }: { body: SaveTask; tenant?: Tenant }) =>
      apiRequest<Task>('/task', { method: 'POST', body, ...tenantOption(tenant) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

export function useUpdateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, tenant }: { id: number; body: SaveTask; tenant?: Tenant }) =>
      apiRequest<Task>(`/task/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tenant }: { id: number; tenant?: Tenant }) =>
      apiRequest<Ok>(`/task/${id}`, { method: 'DELETE', ...tenantOption(tenant) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
