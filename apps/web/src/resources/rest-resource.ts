import type { Page } from '@opsdeck/contract/paging';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type Tenant, tenantKey, tenantOption } from './tenant';

/**
 * A resource's keys and its two reads, the tenant's list and one row, all under one root key
 * (['tasks']): invalidating the root refreshes every view of the resource. `list` is the list's
 * path; one row is `${one}/${id}`.
 */
export function restResource<Row>(root: string, paths: { list: string; one: string }) {
  const keys = {
    all: [root] as const,
    list: (tenant: Tenant) => [root, 'list', tenantKey(tenant)] as const,
    detail: (id: number) => [root, 'detail', id] as const,
  };
  return {
    keys,
    /** The tenant's rows; undefined is the stored tenant (every company's for an admin with none). */
    listOptions: (tenant?: Tenant) =>
      queryOptions({
        queryKey: keys.list(tenant),
        queryFn: ({ signal }) => apiRequest<Row[]>(paths.list, { signal, ...tenantOption(tenant) }),
      }),
    /** One row, as the edit dialogs load it. */
    oneOptions: (id: number) =>
      queryOptions({
        queryKey: keys.detail(id),
        queryFn: ({ signal }) => apiRequest<Row>(`${paths.one}/${id}`, { signal }),
      }),
  };
}

/** What a server-paged table asks for: the page, the sorted column and the search text. */
export interface ListPageParams<SortField extends string> {
  page: number;
  sort: { field: SortField; direction: 'asc' | 'desc' };
  search: string;
}

/** The filter and order of a server-paged table, as its page call and its CSV export send them. */
export const listQuery = (params: Omit<ListPageParams<string>, 'page'>) => ({
  sort: `${params.sort.field},${params.sort.direction}`,
  search: params.search || undefined,
});

/**
 * One page of a server-paged table (`?page=&size=10&sort=field,dir&search=`), keyed
 * `[root, 'page', params]`; the previous page stays shown while the next one loads.
 */
export function pageQueryOptions<Row, SortField extends string>(
  root: string,
  path: string,
  params: ListPageParams<SortField>,
  options: { tenantId?: null } = {},
) {
  return queryOptions({
    queryKey: [root, 'page', params] as const,
    queryFn: ({ signal }) =>
      apiRequest<Page<Row>>(path, {
        signal,
        ...options,
        query: { page: params.page, size: 10, ...listQuery(params) },
      }),
    placeholderData: keepPreviousData,
  });
}
