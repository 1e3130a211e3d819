import type { Ok } from '@opsdeck/contract/auth';
import type { Department, DepartmentHeadCandidate, SaveDepartment } from '@opsdeck/contract/departments';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

/**
 * `tenant`: undefined reads with the stored tenant (the page's list); a tenant id reads that
 * company's (the admin's company selector in the form, spec section 4).
 */
type Tenant = string | undefined;
const tenantOption = (tenant: Tenant) => (tenant === undefined ? {} : { tenantId: tenant });

export const departmentKeys = {
  all: ['departments'] as const,
  list: (tenant: Tenant) => ['departments', 'list', tenant ?? 'current'] as const,
  detail: (id: number) => ['departments', 'detail', id] as const,
  heads: (tenant: Tenant, departmentId: number | undefined) =>
    ['departments', 'heads', tenant ?? 'current', departmentId ?? 'new'] as const,
};

export function departmentsQueryOptions(tenant?: Tenant) {
  return queryOptions({
    queryKey: departmentKeys.list(tenant),
    queryFn: ({ signal }) => apiRequest<Department[]>('/department', { signal, ...tenantOption(tenant) }),
  });
}

export function departmentQueryOptions(id: number) {
  return queryOptions({
    queryKey: departmentKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Department>(`/department/${id}`, { signal }),
    retry: false,
    staleTime: 0,
  });
}

/** The department-head list of the form (GET /api/user/get-department-head-list). */
export function headListQueryOptions(tenant: Tenant, departmentId?: number) {
  return queryOptions({
    queryKey: departmentKeys.heads(tenant, departmentId),
    queryFn: ({ signal }) =>
      apiRequest<DepartmentHeadCandidate[]>('/user/get-department-head-list', {
        signal,
        query: { departmentId },
        ...tenantOption(tenant),
      }),
  });
}

export function useCreateDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, tenant }: { body: SaveDepartment; tenant?: Tenant }) =>
      apiRequest<Department>('/department', { method: 'POST', body, ...tenantOption(tenant) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: departmentKeys.all }),
  });
}

export function useUpdateDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, tenant }: { id: number; body: SaveDepartment; tenant?: Tenant }) =>
      apiRequest<Department>(`/department/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: departmentKeys.all }),
  });
}

export function useDeleteDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<Ok>(`/department/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: departmentKeys.all }),
  });
}
