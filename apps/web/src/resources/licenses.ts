import type { Company } from '@opsdeck/contract/companies';
import type { License } from '@opsdeck/contract/licenses';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

/** The company whose licences are read: its id names it, its tenant goes in the header. */
export type LicenseOwner = Pick<Company, 'id' | 'tenantId'>;

/**
 * A company's licences. Named `licenseQueryKeys`, not `licenseKeys`: in this product a "licence
 * key" is an account made on a licence (the keys page), another resource.
 */
export const licenseQueryKeys = {
  all: ['licenses'] as const,
  ofCompany: (companyId: number) => ['licenses', 'company', companyId] as const,
  one: (companyId: number, licenseId: number) => ['licenses', 'company', companyId, licenseId] as const,
};

/** GET /api/license/company?id= : the company page's licence table. */
export function companyLicensesQueryOptions(company: LicenseOwner) {
  return queryOptions({
    queryKey: licenseQueryKeys.ofCompany(company.id),
    queryFn: ({ signal }) =>
      apiRequest<License[]>('/license/company', { signal, query: { id: company.id }, tenantId: company.tenantId }),
  });
}

/** GET /api/license/company/license?company=&license= : one licence, as the renew dialog loads it. */
export function companyLicenseQueryOptions(company: LicenseOwner, licenseId: number) {
  return queryOptions({
    queryKey: licenseQueryKeys.one(company.id, licenseId),
    queryFn: ({ signal }) =>
      apiRequest<License>('/license/company/license', {
        signal,
        query: { company: company.id, license: licenseId },
        tenantId: company.tenantId,
      }),
  });
}
