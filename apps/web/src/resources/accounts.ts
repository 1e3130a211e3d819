import type { Account, AccountSortField } from '@opsdeck/contract/accounts';
import type { Page } from '@opsdeck/contract/paging';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type Tenant, tenantKey, tenantOption } from './tenant';

export interface AccountPageParams {
  page: number;
  sort: { field: AccountSortField; direction: 'asc' | 'desc' };
  search: string;
}

/**
 * The accounts resource (spec section 3: a licence key and an account are one row): the keys of a
 * licence and the accounts table are views of it, so a key generated, invalidated or deleted
 * refreshes both.
 */
export const accountKeys = {
  all: ['accounts'] as const,
  ofLicense: (company: number, license: number, tenant: Tenant) =>
    ['accounts', 'license', company, license, tenantKey(tenant)] as const,
  page: (params: AccountPageParams) => ['accounts', 'page', params] as const,
};

/** The keys of one licence (GET /api/account/list?company=&license=), read in the company's tenant. */
export function licenseAccountsQueryOptions(company: number, license: number, tenant: Tenant) {
  return queryOptions({
    queryKey: accountKeys.ofLicense(company, license, tenant),
    queryFn: ({ signal }) =>
      apiRequest<Account[]>('/account/list', { signal, query: { company, license }, ...tenantOption(tenant) }),
  });
}

/** One page of the accounts table, paged, sorted and searched by the server (GET /api/account). */
export function accountsPageQueryOptions(params: AccountPageParams) {
  return queryOptions({
    queryKey: accountKeys.page(params),
    queryFn: ({ signal }) =>
      apiRequest<Page<Account>>('/account', {
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
