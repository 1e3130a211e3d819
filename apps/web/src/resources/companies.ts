import type { Company } from '@opsdeck/contract/companies';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

export const companyKeys = {
  all: ['companies'] as const,
  list: () => ['companies', 'list'] as const,
};

/** Every company an admin may act on (GET /api/company answers all of them for admins). */
export function companiesQueryOptions() {
  return queryOptions({
    queryKey: companyKeys.list(),
    queryFn: ({ signal }) => apiRequest<Company[]>('/company', { signal, tenantId: null }),
    staleTime: 60_000,
  });
}
