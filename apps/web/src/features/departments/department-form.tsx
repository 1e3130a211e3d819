import { zodResolver } from '@hookform/resolvers/zod';
import type { Department, DepartmentHeadCandidate } from '@opsdeck/contract/departments';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanyField } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { nameOptions, SelectField, TextField } from '../../components/form-parts';
import { useRecordForm } from '../../components/record-form';
import { Typeahead } from '../../components/typeahead';
import { isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { departmentsQueryOptions } from '../../resources/departments';
import { departmentHeadsQueryOptions } from '../../resources/users';
import { useCreateDepartment, useUpdateDepartment } from './api';
import {
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
  const admin = isAdmin(useViewer());
  const schema = useMemo(() => departmentFormSchema(admin), [admin]);
  const { form, editing, tenant, ready, modal } = useRecordForm({
    area: 'departments',
    record: department,
    opened,
    resolver: zodResolver(schema),
    toForm: departmentToForm,
    empty: emptyDepartmentForm,
    toBody: toSaveDepartment,
    create: useCreateDepartment(),
    update: useUpdateDepartment(),
  });
  const { errors } = form.formState;
  const heads = useQuery({ ...departmentHeadsQueryOptions(tenant, department?.id), enabled: ready });
  const departments = useQuery({ ...departmentsQueryOptions(tenant), enabled: ready });
  const parents = parentChoices(departments.data ?? [], department?.id);

  return (
    <FormModal
      {...modal}
      onClose={onClose}
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
      <CompanyField
        form={form}
        name="company"
        disabled={editing}
        resets={{ head: { text: '', id: null }, parentId: null }}
      />
      <TextField form={form} name="name" label={t('departments.name')} required />
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
      <SelectField
        control={form.control}
        name="parentId"
        label={t('departments.parent')}
        placeholder={t('departments.parentPlaceholder')}
        clearable
        disabled={!ready}
        data={nameOptions(parents)}
      />
    </FormModal>
  );
}
