import type { DepartmentHeadCandidate } from '@opsdeck/contract/departments';
import type { User, UserSortField } from '@opsdeck/contract/users';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type ListPageParams, pageQueryOptions, restResource } from './rest-resource';
import { type Tenant, tenantKey, tenantOption } from './tenant';

export type UserPageParams = ListPageParams<UserSortField>;

/**
 * The users resource: the users table, the schedule form's user picker and the department form's
 * head list are all views of users, so a user created, changed or archived refreshes every one.
 */
const users = restResource<User>('users', { list: '/user/get-user-list', one: '/user' });

export const userKeys = {
  ...users.keys,
  emailTaken: (email: string) => ['users', 'email-taken', email.toLowerCase()] as const,
  departmentHeads: (tenant: Tenant, departmentId: number | undefined) =>
    ['users', 'department-heads', tenantKey(tenant), departmentId ?? 'new'] as const,
};

/** One page of the users table, paged, sorted and searched by the server (GET /api/user/get-user-list?page=). */
export const usersPageQueryOptions = (params: UserPageParams) =>
  pageQueryOptions<User, UserSortField>('users', '/user/get-user-list', params);

/** Every user of the company, unpaged (GET /api/user/get-user-list). */
export const usersQueryOptions = users.listOptions;
export const userQueryOptions = users.oneOptions;

/** GET /api/user/checkEmailExist/{email}: true when the address is taken. */
export function emailTakenQueryOptions(email: string) {
  return queryOptions({
    queryKey: userKeys.emailTaken(email),
    queryFn: ({ signal }) => apiRequest<boolean>(`/user/checkEmailExist/${encodeURIComponent(email)}`, { signal }),
    staleTime: 10_000,
  });
}

/** The department form's head list (GET /api/user/get-department-head-list). */
export function departmentHeadsQueryOptions(tenant: Tenant, departmentId?: number) {
  return queryOptions({
    queryKey: userKeys.departmentHeads(tenant, departmentId),
    queryFn: ({ signal }) =>
      apiRequest<DepartmentHeadCandidate[]>('/user/get-department-head-list', {
        signal,
        query: { departmentId },
        ...tenantOption(tenant),
      }),
  });
}

/** GET /api/user/getActiveUsers/false: every user of the tenant not archived (the monitor's person filter). */
export function activeUsersQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'active', 'all'] as const,
    queryFn: ({ signal }) => apiRequest<User[]>('/user/getActiveUsers/false', { signal }),
  });
}
