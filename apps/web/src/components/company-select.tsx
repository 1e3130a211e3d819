import { Select } from '@mantine/core';
import type { Company } from '@opsdeck/contract/companies';
import { LIMITS } from '@opsdeck/contract/limits';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  type FieldPathByValue,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormReturn,
  useController,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isAdmin } from '../lib/authorities';
import { errorText } from '../lib/i18n';
import { useProfile, useViewer } from '../lib/profile-context';
import { useTenantId } from '../lib/session';
import { truncateText } from '../lib/truncate';
import { companiesQueryOptions } from '../resources/companies';

/** Company names by tenant id, for an admin's Company column; loaded only when `enabled`. */
export function useCompanyNames(enabled: boolean): Map<string, string> {
  const companies = useQuery({ ...companiesQueryOptions(), enabled });
  return useMemo(
    () => new Map((companies.data ?? []).map((company) => [company.tenantId, company.name])),
    [companies.data],
  );
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

interface CompanyFieldProps<TValues extends FieldValues, TOutput> {
  form: UseFormReturn<TValues, unknown, TOutput>;
  /** The form's field of the chosen tenant id. */
  name: FieldPathByValue<TValues, string | null>;
  disabled?: boolean;
  /**
   * The fields that belong to a company, with the value each takes when the company changes: the
   * old company's departments, roles or users mean nothing in the new one (spec section 4).
   */
  resets?: Partial<Record<Path<TValues>, unknown>>;
  /** Called after the field takes the new company. */
  onChange?: (company: Company | null) => void;
}

/** The company selector as a field of a react-hook-form form; an admin's only, so nothing for anyone else. */
export function CompanyField<TValues extends FieldValues, TOutput>({
  form,
  name,
  disabled,
  resets = {},
  onChange,
}: CompanyFieldProps<TValues, TOutput>) {
  const admin = isAdmin(useViewer());
  const { field, fieldState } = useController({ control: form.control, name });
  if (!admin) return null;
  return (
    <CompanySelect
      value={field.value}
      disabled={disabled}
      error={fieldState.error?.message}
      onBlur={field.onBlur}
      onChange={(tenantId, company) => {
        field.onChange(tenantId);
        const fields = Object.keys(resets) as Path<TValues>[];
        for (const key of fields) form.setValue(key, resets[key] as PathValue<TValues, Path<TValues>>);
        form.clearErrors(fields);
        onChange?.(company);
      }}
    />
  );
}

/**
 * The tenant whose lists a form reads: an admin's chosen company (the lists wait until one is
 * chosen), anyone else's own (undefined: the stored tenant).
 */
export function useCompanyScope(company: string | null, opened: boolean): { tenant?: string; ready: boolean } {
  const admin = isAdmin(useViewer());
  return { tenant: admin ? (company ?? undefined) : undefined, ready: opened && (!admin || Boolean(company)) };
}

/** The company a new record starts with: an admin's current one (the stored tenant), anyone else's own. */
export function useNewRecordCompany(): string | null {
  const admin = isAdmin(useViewer());
  const storedTenant = useTenantId();
  const profile = useProfile();
  return admin ? storedTenant : profile.tenantId;
}
