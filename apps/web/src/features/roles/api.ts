import type { AuthorityItem, CreateRole, Role, UpdateRole } from '@opsdeck/contract/roles';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

export const roleKeys = {
  all: ['roles'] as const,
  list: () => ['roles', 'list'] as const,
  detail: (id: number) => ['roles', 'detail', id] as const,
  authorities: () => ['roles', 'authorities'] as const,
};

/** The tenant's roles; an admin with no company chosen sees every company's and the provider's. */
export function rolesQueryOptions() {
  return queryOptions({
    queryKey: roleKeys.list(),
    queryFn: ({ signal }) => apiRequest<Role[]>('/usergroup/findAllActive', { signal }),
  });
}

export function roleQueryOptions(id: number) {
  return queryOptions({
    queryKey: roleKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Role>(`/usergroup/${id}`, { signal }),
    retry: false,
    staleTime: 0,
  });
}

/** The checklist: what the signed-in user may grant (every authority for admins). */
export function authoritiesQueryOptions() {
  return queryOptions({
    queryKey: roleKeys.authorities(),
    queryFn: ({ signal }) => apiRequest<AuthorityItem[]>('/authority/findAll', { signal }),
    staleTime: 60_000,
  });
}

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    /** `tenantId`: the admin's chosen company; undefined keeps the user's own. */
    mutationFn: ({ body, tenantId }: { body: CreateRole; tenantId?: string }) =>
      apiRequest<Role>('/usergroup', { method: 'POST', body, ...(tenantId ? { tenantId } : {}) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateRole }) =>
      apiRequest<Role>(`/usergroup/${id}`, { method: 'PUT', body }),
    onSuccess: async () => {
      // Spec section 7: the profile is reloaded after a role update, so the user's own
      // authorities follow at once. ['auth'] is the auth feature's key root (features do not
      // import each other).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: roleKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['auth'] }),
      ]);
    },
  });
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ ok: true }>(`/usergroup/archiveRole/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
