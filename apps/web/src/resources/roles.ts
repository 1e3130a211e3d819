import type { AuthorityItem, Role } from '@opsdeck/contract/roles';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { restResource } from './rest-resource';

/** The roles resource: the roles page and the user form's role select read the same lists. */
const roles = restResource<Role>('roles', { list: '/usergroup/findAllActive', one: '/usergroup' });

export const roleKeys = roles.keys;
/** The tenant's roles; an admin with no company chosen sees every company's and the provider's. */
export const rolesQueryOptions = roles.listOptions;
export const roleQueryOptions = roles.oneOptions;

export const authorityKeys = { all: ['authorities'] as const };

/** The role checklist: what the signed-in user may grant (every authority for admins). */
export function authoritiesQueryOptions() {
  return queryOptions({
    queryKey: authorityKeys.all,
    queryFn: ({ signal }) => apiRequest<AuthorityItem[]>('/authority/findAll', { signal }),
    staleTime: 60_000,
  });
}
