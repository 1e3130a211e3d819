import type { Ok } from '@opsdeck/contract/auth';
import type { Department } from '@opsdeck/contract/departments';
import type { SaveStatus, Status } from '@opsdeck/contract/statuses';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

/** undefined: the stored tenant (the page's list); a tenant id: that company's (the admin's form). */
type Tenant = string | undefined;
const tenantOption = (tenant: Tenant) => (tenant === undefined ? {} : { tenantId: tenant });

export const statusKeys = {
  all: ['statuses'] as const,
  list: (tenant: Tenant) => ['statuses', 'list', tenant ?? 'current'] as const,
  detail: (id: number) => ['statuses', 'detail', id] as const,
  departments: (tenant: Tenant) => ['statuses', 'departments', tenant ?? 'current'] as const,
};

export function statusesQueryOptions(tenant?: Tenant) {
  return queryOptions({
    queryKey: statusKeys.list(tenant),
    queryFn: ({ signal }) => apiRequest<Status[]>('/status', { signal, ...tenantOption(tenant) }),
  });
}

export function statusQueryOptions(id: number) {
  return queryOptions({
    queryKey: statusKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Status>(`/status/${id}`, { signal }),
    retry: false,
    staleTime: 0,
  });
}

/** The departments the user may put statuses in (spec section 6): those they head and below. */
export function manageableDepartmentsQueryOptions(tenant: Tenant) {
  return queryOptions({
    queryKey: statusKeys.departments(tenant),
    queryFn: ({ signal }) =>
      apiRequest<Department[]>('/department/usersAccessibleDepts', { signal, ...tenantOption(tenant) }),
  });
}

export function useCreateStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, tenant }: { body: SaveStatus; tenant?: Tenant }) =>
      apiRequest<Status>('/status', { method: 'POST', body, ...tenantOption(tenant) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statusKeys.all }),
  });
}

export function useUpdateStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, tenant }: { id: number; body: SaveStatus; tenant?: Tenant }) =>
      apiRequest<Status>(`/status/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKeys.all }),
  });
}

export function useDeleteStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tenant }: { id: number; tenant?: Tenant }) =>
      apiRequest<Ok>(`/status/${id}`, { method: 'DELETE', ...tenantOption(tenant) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKeys.all }),
  });
}
