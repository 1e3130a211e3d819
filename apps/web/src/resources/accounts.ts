import type { Account, AccountSortField } from '@opsdeck/contract/accounts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type ListPageParams, pageQueryOptions } from './rest-resource';
import { type Tenant, tenantKey, tenantOption } from './tenant';

export type AccountPageParams = ListPageParams<AccountSortField>;

/**
 * The accounts resource (spec section 3: a licence key and an account are one row): the keys of a
 * licence and the accounts table are views of it, so a key generated, invalidated or deleted
 * refreshes both.
 */
export const accountKeys = {
  all: ['accounts'] as const,
  ofLicense: (company: number, license: number, tenant: Tenant) =>
    ['accounts', 'license', company, license, tenantKey(tenant)] as const,
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
export const accountsPageQueryOptions = (params: AccountPageParams) =>
  pageQueryOptions<Account, AccountSortField>('accounts', '/account', params);
