import type { Company, CompanySortField, IndustryType } from '@opsdeck/contract/companies';
import type { User } from '@opsdeck/contract/users';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { type ListPageParams, pageQueryOptions } from './rest-resource';

export type CompanyPageParams = ListPageParams<CompanySortField>;

/**
 * Companies are the provider's, not a tenant's: every read goes without a tenant header (an
 * admin's stored company must not narrow them; a company user is answered their own company).
 */
export const companyKeys = {
  all: ['companies'] as const,
  list: () => ['companies', 'list'] as const,
  detail: (id: number) => ['companies', 'detail', id] as const,
};

/** Every company an admin may act on (GET /api/company answers all of them for admins). */
export function companiesQueryOptions() {
  return queryOptions({
    queryKey: companyKeys.list(),
    queryFn: ({ signal }) => apiRequest<Company[]>('/company', { signal, tenantId: null }),
    staleTime: 60_000,
  });
}

/** One page of the companies table, paged, sorted and searched by the server (GET /api/company?page=). */
export const companiesPageQueryOptions = (params: CompanyPageParams) =>
  pageQueryOptions<Company, CompanySortField>('companies', '/company', params, { tenantId: null });

/** One company (GET /api/company/{id}): the edit dialog and the company page. */
export function companyQueryOptions(id: number) {
  return queryOptions({
    queryKey: companyKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Company>(`/company/${id}`, { signal, tenantId: null }),
  });
}

/** The industry types a company is given (GET /api/industry-type); the server's fixed list. */
export function industryTypesQueryOptions() {
  return queryOptions({
    queryKey: ['industry-types'] as const,
    queryFn: ({ signal }) => apiRequest<IndustryType[]>('/industry-type', { signal, tenantId: null }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The users of one company, whom the edit dialog offers as its head (GET
 * /api/user/find-by-company/{id}). A view of users, so its key starts with ['users']: a user
 * created, changed or archived refreshes it. Sent with the company's tenant (an admin acts on it).
 */
export function companyUsersQueryOptions(company: Pick<Company, 'id' | 'tenantId'>) {
  return queryOptions({
    queryKey: ['users', 'by-company', company.id] as const,
    queryFn: ({ signal }) =>
      apiRequest<User[]>(`/user/find-by-company/${company.id}`, { signal, tenantId: company.tenantId }),
  });
}
