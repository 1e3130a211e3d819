import { zodResolver } from '@hookform/resolvers/zod';
import type { Company } from '@opsdeck/contract/companies';
import { LIMITS } from '@opsdeck/contract/limits';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { nameOptions, PasswordField, SelectField, TextField, withCurrent } from '../../components/form-parts';
import type { ErrorPlacement } from '../../lib/form-errors';
import { doneText } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import { companyUsersQueryOptions, industryTypesQueryOptions } from '../../resources/companies';
import { CREATE_COMPANY_FAILURE, UPDATE_COMPANY_FAILURE, useCreateCompany, useUpdateCompany } from './api';
import {
  type CompanyFormOutput,
  type CompanyFormValues,
  companyFormSchema,
  companyToForm,
  emptyCompanyForm,
  toCreateCompany,
  toUpdateCompany,
} from './company-form-schema';

/**
 * Where the server's keys go (spec section 8, Company): validation answers name the body's fields
 * (`head.firstName`, …), the service's refusals only their key.
 */
const ERROR_PLACEMENT: ErrorPlacement<CompanyFormValues> = {
  fields: {
    'head.firstName': 'head.firstName',
    'head.lastName': 'head.lastName',
    'head.emailAddress': 'head.emailAddress',
    'head.credential.newPassword': 'head.credential.newPassword',
    'head.credential.confirmPassword': 'head.credential.confirmPassword',
  },
  keys: {
    ERROR_COMPANY_NAME_REQUIRED: 'name',
    ERROR_COMPANY_NAME_INVALID: 'name',
    ERROR_COMPANY_NAME_TOO_LONG: 'name',
    ERROR_COMPANY_NAME_DUPLICATE: 'name',
    ERROR_COMPANY_INDUSTRY_REQUIRED: 'industryType',
    ERROR_COMPANY_INDUSTRY_INVALID: 'industryType',
    ERROR_COMPANY_EMAIL_DUPLICATE: 'head.emailAddress',
    ERROR_USER_EMAIL_ALREADY_USED: 'head.emailAddress',
    ERROR_USER_EMAIL_REQUIRED: 'head.emailAddress',
    ERROR_USER_EMAIL_INVALID: 'head.emailAddress',
    ERROR_USER_EMAIL_TOO_LONG: 'head.emailAddress',
    ERROR_USER_FIRST_NAME_REQUIRED: 'head.firstName',
    ERROR_USER_FIRST_NAME_TOO_LONG: 'head.firstName',
    ERROR_USER_LAST_NAME_REQUIRED: 'head.lastName',
    ERROR_USER_LAST_NAME_TOO_LONG: 'head.lastName',
    ERROR_USER_PASSWORD_REQUIRED: 'head.credential.newPassword',
    ERROR_USER_CONFIRM_PASSWORD_REQUIRED: 'head.credential.confirmPassword',
    ERROR_USER_PASSWORD_MISMATCH: 'head.credential.confirmPassword',
    ERROR_COMPANY_HEAD_REQUIRED: 'headId',
    ERROR_COMPANY_HEAD_INVALID: 'headId',
  },
};

/** The edit dialog's head: one of the company's users (spec section 5: head required on update). */
function HeadField({
  form,
  company,
}: {
  form: UseFormReturn<CompanyFormValues, unknown, CompanyFormOutput>;
  company: Company;
}) {
  const { t } = useTranslation();
  const users = useQuery(companyUsersQueryOptions(company));
  const heads = withCurrent(
    (users.data ?? []).map((user) => ({ id: user.id, name: user.completeName })),
    company.head ? { id: company.head.id, name: company.head.completeName } : undefined,
  );
  return (
    <SelectField
      control={form.control}
      name="headId"
      label={t('companies.headSelect')}
      placeholder={t('companies.headPlaceholder')}
      required
      disabled={users.isLoading}
      data={nameOptions(heads)}
    />
  );
}

interface CompanyFormModalProps {
  onClose: () => void;
  /** The company to edit (loaded fresh); none to create one with its head. */
  company?: Company;
}

/**
 * Create and edit a company (spec sections 2, 3 and 5). Create: name, industry, and the head made
 * with it (names, e-mail, password twice). Edit: name, industry, and the head chosen among the
 * company's users.
 */
export function CompanyFormModal({ onClose, company }: CompanyFormModalProps) {
  const { t } = useTranslation();
  const editing = company !== undefined;
  const initial = useMemo(() => (company ? companyToForm(company) : emptyCompanyForm()), [company]);
  const resolver = useMemo(() => zodResolver(companyFormSchema(editing)), [editing]);
  const form = useModalForm<CompanyFormValues, CompanyFormOutput>({ opened: true, initial, resolver });
  const industries = useQuery(industryTypesQueryOptions());

  const create = useCreateCompany();
  const update = useUpdateCompany();
  const submit = async (values: CompanyFormOutput) => {
    if (company) await update.mutateAsync({ id: company.id, body: toUpdateCompany(values), tenant: company.tenantId });
    else await create.mutateAsync({ body: toCreateCompany(values) });
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title={
        company
          ? t('companies.editTitle', { name: truncateText(company.name, LIMITS.truncate.modalName) })
          : t('companies.createTitle')
      }
      form={form}
      onSubmit={submit}
      success={(values) => doneText(editing ? 'updated' : 'added', values.name)}
      failure={editing ? UPDATE_COMPANY_FAILURE : CREATE_COMPANY_FAILURE}
      itemName={company?.name}
      errorPlacement={ERROR_PLACEMENT}
    >
      <TextField form={form} name="name" label={t('companies.name')} required />
      <SelectField
        control={form.control}
        name="industryType"
        label={t('companies.industry')}
        placeholder={t('companies.industryPlaceholder')}
        required
        data={(industries.data ?? []).map((industry) => ({ value: industry.key, label: industry.name }))}
      />
      {company ? (
        <HeadField form={form} company={company} />
      ) : (
        <>
          <TextField form={form} name="head.firstName" label={t('companies.headFirstName')} required />
          <TextField form={form} name="head.lastName" label={t('companies.headLastName')} required />
          <TextField
            form={form}
            name="head.emailAddress"
            label={t('companies.headEmail')}
            description={t('companies.headEmailHint')}
            required
            type="email"
            autoComplete="off"
          />
          <PasswordField
            form={form}
            name="head.credential.newPassword"
            label={t('companies.password')}
            required
            autoComplete="new-password"
            strength={{ person: form.watch('head') }}
            rules={{
              onChange: () => {
                if (form.getFieldState('head.credential.confirmPassword').isTouched) {
                  void form.trigger('head.credential.confirmPassword');
                }
              },
            }}
          />
          <PasswordField
            form={form}
            name="head.credential.confirmPassword"
            label={t('companies.confirmPassword')}
            required
            autoComplete="new-password"
          />
        </>
      )}
    </FormModal>
  );
}
