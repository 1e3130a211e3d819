import { zodResolver } from '@hookform/resolvers/zod';
import { Select, TextInput } from '@mantine/core';
import type { Department, DepartmentHeadCandidate } from '@opsdeck/contract/departments';
import { LIMITS } from '@opsdeck/contract/limits';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanySelect } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { Typeahead } from '../../components/typeahead';
import { isAdmin } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { notifyDone } from '../../lib/notify';
import { useProfile, useViewer } from '../../lib/profile-context';
import { useTenantId } from '../../lib/session';
import { truncateText } from '../../lib/truncate';
import { departmentsQueryOptions, headListQueryOptions, useCreateDepartment, useUpdateDepartment } from './api';
import {
  type DepartmentFormOutput,
  type DepartmentFormValues,
  departmentFormSchema,
  departmentToForm,
  emptyDepartmentForm,
  parentChoices,
  toSaveDepartment,
} from './department-form-schema';

interface DepartmentFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The department to edit (loaded fresh); none to create one. */
  department?: Department;
}

/**
 * Create and edit (spec sections 2, 4, 5): name, the admin's company, the head picked through the
 * typeahead from the department-head list, and the parent. Changing the company resets the head
 * and the parent and reloads both lists for that tenant.
 */
export function DepartmentFormModal({ opened, onClose, department }: DepartmentFormModalProps) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const profile = useProfile();
  const admin = isAdmin(viewer);
  const storedTenant = useTenantId();
  const editing = department !== undefined;
  const schema = useMemo(() => departmentFormSchema(admin), [admin]);
  const initial = useMemo(
    () => (department ? departmentToForm(department) : emptyDepartmentForm(admin ? storedTenant : profile.tenantId)),
    [department, admin, storedTenant, profile.tenantId],
  );
  const form = useForm<DepartmentFormValues, unknown, DepartmentFormOutput>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: initial,
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (opened) form.reset(initial);
  }, [opened, initial, form]);

  const company = form.watch('company');
  // An admin reads the chosen company's lists; anyone else their own (the stored tenant).
  const tenant = admin ? (company ?? undefined) : undefined;
  const ready = opened && (!admin || Boolean(company));
  const heads = useQuery({ ...headListQueryOptions(tenant, department?.id), enabled: ready });
  const departments = useQuery({ ...departmentsQueryOptions(tenant), enabled: ready });
  const parents = parentChoices(departments.data ?? [], department?.id);

  const create = useCreateDepartment();
  const update = useUpdateDepartment();

  const submit = async (values: DepartmentFormOutput) => {
    const body = toSaveDepartment(values);
    if (department) {
      await update.mutateAsync({ id: department.id, body, tenant: department.tenantId });
      notifyDone('updated', body.name);
    } else {
      await create.mutateAsync({ body, ...(admin ? { tenant: values.company ?? undefined } : {}) });
      notifyDone('added', body.name);
    }
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={
        editing
          ? t('departments.editTitle', { name: truncateText(department.name, LIMITS.truncate.modalName) })
          : t('departments.createTitle')
      }
      form={form}
      onSubmit={submit}
      errorPlacement={{
        fields: { headId: 'head', company: 'company' },
        keys: {
          ERROR_DEPARTMENT_NAME_DUPLICATE: 'name',
          ERROR_DEPARTMENT_HEAD_NOT_SELECTED: 'head',
          ERROR_DEPARTMENT_PARENT_INVALID: 'parentId',
          ERROR_COMPANY_REQUIRED: 'company',
        },
      }}
    >
      {admin && (
        <Controller
          control={form.control}
          name="company"
          render={({ field }) => (
            <CompanySelect
              value={field.value}
              disabled={editing}
              error={errors.company?.message}
              onBlur={field.onBlur}
              onChange={(tenantId) => {
                field.onChange(tenantId);
                // Another company: its own heads and departments (spec section 4).
                form.setValue('head', { text: '', id: null });
                form.setValue('parentId', null);
                form.clearErrors(['head', 'parentId']);
              }}
            />
          )}
        />
      )}
      <TextInput
        label={t('departments.name')}
        required
        error={errorText(errors.name?.message)}
        {...form.register('name')}
      />
      <Controller
        control={form.control}
        name="head"
        render={({ field }) => (
          <Typeahead<DepartmentHeadCandidate>
            label={t('departments.head')}
            placeholder={t('departments.headPlaceholder')}
            required
            items={heads.data ?? []}
            loading={heads.isLoading}
            disabled={!ready}
            itemKey={(candidate) => candidate.id}
            itemLabel={(candidate) => candidate.completeName}
            itemDescription={(candidate) => candidate.emailAddress}
            text={field.value.text}
            onChange={(text, picked) => {
              field.onChange({ text, id: picked?.id ?? null });
              if (picked) void form.trigger('head');
            }}
            onBlur={field.onBlur}
            error={errors.head?.message ?? errors.head?.root?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="parentId"
        render={({ field }) => (
          <Select
            label={t('departments.parent')}
            placeholder={t('departments.parentPlaceholder')}
            clearable
            searchable
            disabled={!ready}
            data={parents.map((parent) => ({
              value: String(parent.id),
              label: truncateText(parent.name, LIMITS.truncate.dropdownName),
            }))}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errorText(errors.parentId?.message)}
            nothingFoundMessage={t('table.empty')}
          />
        )}
      />
    </FormModal>
  );
}
