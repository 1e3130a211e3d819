import type { Ok } from '@opsdeck/contract/auth';
import type { Department } from '@opsdeck/contract/departments';
import type { Page } from '@opsdeck/contract/paging';
import type { Role } from '@opsdeck/contract/roles';
import type { RegisterUser, UpdateUser, User, UserSortField } from '@opsdeck/contract/users';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

/** undefined: the stored tenant (the page); a tenant id: that company's (the admin's company selector). */
type Tenant = string | undefined;
const tenantOption = (tenant: Tenant) => (tenant === undefined ? {} : { tenantId: tenant });

export interface UserListParams {
  page: number;
  sort: { field: UserSortField; direction: 'asc' | 'desc' };
  search: string;
}

export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
  departments: (tenant: Tenant) => ['users', 'form', 'departments', tenant ?? 'current'] as const,
  roles: (tenant: Tenant) => ['users', 'form', 'roles', tenant ?? 'current'] as const,
};

/** One page of the users table, paged, sorted and searched by the server (GET /api/user/get-user-list?page=). */
export function usersPageQueryOptions(params: UserListParams) {
  return queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest<Page<User>>('/user/get-user-list', {
        signal,
        query: {
          page: params.page,
          size: 10,
          sort: `${params.sort.field},${params.sort.direction}`,
          search: params.search || undefined,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

export function userQueryOptions(id: number) {
  return queryOptions({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<User>(`/user/${id}`, { signal }),
    retry: false,
    staleTime: 0,
  });
}

/** The departments of the form's company (GET /api/department with that tenant). */
export function formDepartmentsQueryOptions(tenant: Tenant) {
  return queryOptions({
    queryKey: userKeys.departments(tenant),
    queryFn: ({ signal }) => apiRequest<Department[]>('/department', { signal, ...tenantOption(tenant) }),
    staleTime: 0,
  });
}

/** The roles of the form's company (GET /api/usergroup/findAllActive with that tenant). */
export function formRolesQueryOptions(tenant: Tenant) {
  return queryOptions({
    queryKey: userKeys.roles(tenant),
    queryFn: ({ signal }) => apiRequest<Role[]>('/usergroup/findAllActive', { signal, ...tenantOption(tenant) }),
    staleTime: 0,
  });
}

/** GET /api/user/checkEmailExist/{email}: true when the address is taken. */
export function checkEmailExist(email: string, signal?: AbortSignal) {
  return apiRequest<boolean>(`/user/checkEmailExist/${encodeURIComponent(email)}`, { signal });
}

export function useRegisterUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterUser) => apiRequest<User>('/user/register', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateUser }) =>
      apiRequest<User>(`/user/updateUser/${id}`, { method: 'PUT', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useArchiveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<Ok>(`/user/archive/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
