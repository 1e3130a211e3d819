import type { Department } from '@opsdeck/contract/departments';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { restResource } from './rest-resource';
import { type Tenant, tenantKey, tenantOption } from './tenant';

/**
 * The departments resource: every view of a department list reads through these options, so
 * invalidating ['departments'] refreshes the page, the tree and every form's department select.
 */
const departments = restResource<Department>('departments', { list: '/department', one: '/department' });

export const departmentKeys = {
  ...departments.keys,
  /** GET /api/department/usersAccessibleDepts: those the user heads and below (spec section 6). */
  accessible: (tenant: Tenant) => ['departments', 'accessible', tenantKey(tenant)] as const,
};

export const departmentsQueryOptions = departments.listOptions;
export const departmentQueryOptions = departments.oneOptions;

/** The departments the user may put statuses, tasks and schedules in: those they head and below. */
export function accessibleDepartmentsQueryOptions(tenant?: Tenant) {
  return queryOptions({
    queryKey: departmentKeys.accessible(tenant),
    queryFn: ({ signal }) =>
      apiRequest<Department[]>('/department/usersAccessibleDepts', { signal, ...tenantOption(tenant) }),
  });
}
