import type { Status } from '@opsdeck/contract/statuses';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type Tenant, tenantKey, tenantOption } from './tenant';

/** The statuses resource: the statuses page and the task form's status select read the same list. */
export const statusKeys = {
  all: ['statuses'] as const,
  list: (tenant: Tenant) => ['statuses', 'list', tenantKey(tenant)] as const,
  detail: (id: number) => ['statuses', 'detail', id] as const,
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
  });
}
