import { Select } from '@mantine/core';
import type { Company } from '@opsdeck/contract/companies';
import { LIMITS } from '@opsdeck/contract/limits';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../lib/api-client';
import { errorText } from '../lib/i18n';
import { truncateText } from '../lib/truncate';

/** Every company an admin may act on (GET /api/company answers all of them for admins). */
export function companiesQueryOptions() {
  return queryOptions({
    queryKey: ['companies', 'list'],
    queryFn: ({ signal }) => apiRequest<Company[]>('/company', { signal, tenantId: null }),
    staleTime: 60_000,
  });
}

interface CompanySelectProps {
  /** The chosen company's tenant id. */
  value: string | null;
  onChange: (tenantId: string | null, company: Company | null) => void;
  /** An error key (the form's field error). */
  error?: string;
  disabled?: boolean;
  onBlur?: () => void;
}

/**
 * The admin's company selector of the user, department and role forms (spec section 6). The form
 * resets its department and role when the company changes and reloads them for that tenant.
 */
export function CompanySelect({ value, onChange, error, disabled, onBlur }: CompanySelectProps) {
  const { t } = useTranslation();
  const companies = useQuery(companiesQueryOptions());
  const list = companies.data ?? [];
  return (
    <Select
      label={t('common.company')}
      placeholder={t('common.companyPlaceholder')}
      required
      searchable
      data={list.map((company) => ({
        value: company.tenantId,
        label: truncateText(company.name, LIMITS.truncate.dropdownName),
      }))}
      value={value}
      onChange={(tenantId) => onChange(tenantId, list.find((company) => company.tenantId === tenantId) ?? null)}
      onBlur={onBlur}
      error={errorText(error)}
      disabled={disabled}
      nothingFoundMessage={t('table.empty')}
    />
  );
}
