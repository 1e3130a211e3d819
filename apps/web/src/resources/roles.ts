import type { AuthorityItem, Role } from '@opsdeck/contract/roles';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type Tenant, tenantKey, tenantOption } from './tenant';

/** The roles resource: the roles page and the user form's role select read the same lists. */
export const roleKeys = {
  all: ['roles'] as const,
  list: (tenant: Tenant) => ['roles', 'list', tenantKey(tenant)] as const,
  detail: (id: number) => ['roles', 'detail', id] as const,
};

/** The tenant's roles; an admin with no company chosen sees every company's and the provider's. */
export function rolesQueryOptions(tenant?: Tenant) {
  return queryOptions({
    queryKey: roleKeys.list(tenant),
    queryFn: ({ signal }) => apiRequest<Role[]>('/usergroup/findAllActive', { signal, ...tenantOption(tenant) }),
  });
}

export function roleQueryOptions(id: number) {
  return queryOptions({
    queryKey: roleKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Role>(`/usergroup/${id}`, { signal }),
  });
}

export const authorityKeys = { all: ['authorities'] as const };

/** The role checklist: what the signed-in user may grant (every authority for admins). */
export function authoritiesQueryOptions() {
  return queryOptions({
    queryKey: authorityKeys.all,
    queryFn: ({ signal }) => apiRequest<AuthorityItem[]>('/authority/findAll', { signal }),
    staleTime: 60_000,
  });
}
