import type { Task } from '@opsdeck/contract/tasks';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type Tenant, tenantKey, tenantOption } from './tenant';

export const taskKeys = {
  all: ['tasks'] as const,
  list: (tenant: Tenant) => ['tasks', 'list', tenantKey(tenant)] as const,
  detail: (id: number) => ['tasks', 'detail', id] as const,
};

export function tasksQueryOptions(tenant?: Tenant) {
  return queryOptions({
    queryKey: taskKeys.list(tenant),
    queryFn: ({ signal }) => apiRequest<Task[]>('/task', { signal, ...tenantOption(tenant) }),
  });
}

export function taskQueryOptions(id: number) {
  return queryOptions({
    queryKey: taskKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Task>(`/task/${id}`, { signal }),
  });
}
