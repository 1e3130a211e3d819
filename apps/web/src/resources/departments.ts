import type { Department } from '@opsdeck/contract/departments';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type Tenant, tenantKey, tenantOption } from './tenant';

/**
 * The departments resource: every view of a department list reads through these options, so
 * invalidating ['departments'] refreshes the page, the tree and every form's department select.
 */
export const departmentKeys = {
  all: ['departments'] as const,
  /** GET /api/department: the company's departments. */
  list: (tenant: Tenant) => ['departments', 'list', tenantKey(tenant)] as const,
  /** GET /api/department/usersAccessibleDepts: those the user heads and below (spec section 6). */
  accessible: (tenant: Tenant) => ['departments', 'accessible', tenantKey(tenant)] as const,
  detail: (id: number) => ['departments', 'detail', id] as const,
};

export function departmentsQueryOptions(tenant?: Tenant) {
  return queryOptions({
    queryKey: departmentKeys.list(tenant),
    queryFn: ({ signal }) => apiRequest<Department[]>('/department', { signal, ...tenantOption(tenant) }),
  });
}

/** The departments the user may put statuses, tasks and schedules in: those they head and below. */
export function accessibleDepartmentsQueryOptions(tenant?: Tenant) {
  return queryOptions({
    queryKey: departmentKeys.accessible(tenant),
    queryFn: ({ signal }) =>
      apiRequest<Department[]>('/department/usersAccessibleDepts', { signal, ...tenantOption(tenant) }),
  });
}

export function departmentQueryOptions(id: number) {
  return queryOptions({
    queryKey: departmentKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Department>(`/department/${id}`, { signal }),
  });
}
