import { zodResolver } from '@hookform/resolvers/zod';
import { TextInput } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Task } from '@opsdeck/contract/tasks';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyField, useCompanyScope, useNewRecordCompany } from '../../components/company-select';
import { FormModal, useModalForm } from '../../components/form-modal';
import { nameOptions, SelectField, withCurrent } from '../../components/form-parts';
import { isAdmin } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { doneText } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { truncateText } from '../../lib/truncate';
import { accessibleDepartmentsQueryOptions } from '../../resources/departments';
import { statusesQueryOptions } from '../../resources/statuses';
import { SAVE_TASK_FAILURE, useCreateTask, useUpdateTask } from './api';
import {
  emptyTaskForm,
  statusesForDepartment,
  type TaskFormOutput,
  type TaskFormValues,
  taskFormSchema,
  taskToForm,
  toSaveTask,
} from './task-form-schema';

interface TaskFormModalProps {
  opened: boolean;
  onClose: () => void;
  task?: Task;
}

/** Create and edit a task (spec sections 2 and 5): name, status and department. */
export function TaskFormModal({ opened, onClose, task }: TaskFormModalProps) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const newCompany = useNewRecordCompany();
  const editing = task !== undefined;
  const schema = useMemo(() => taskFormSchema(admin), [admin]);
  const initial = useMemo(() => (task ? taskToForm(task) : emptyTaskForm(newCompany)), [task, newCompany]);
  const form = useModalForm<TaskFormValues, TaskFormOutput>({ opened, initial, resolver: zodResolver(schema) });
  const { errors } = form.formState;
  const { tenant, ready } = useCompanyScope(form.watch('company'), opened);
  const statuses = useQuery({ ...statusesQueryOptions(tenant), enabled: ready });
  const departments = useQuery({ ...accessibleDepartmentsQueryOptions(tenant), enabled: ready });
  const departmentId = form.watch('departmentId');
  // Only the statuses that apply in the chosen department; the task's own stays while its department does.
  const statusOptions = withCurrent(
    statusesForDepartment(statuses.data ?? [], departments.data ?? [], departmentId),
    task && String(task.department.id) === departmentId ? task.status : undefined,
  );
  const departmentOptions = withCurrent(departments.data ?? [], task?.department);

  const create = useCreateTask();
  const update = useUpdateTask();

  const submit = async (values: TaskFormOutput) => {
    const body = toSaveTask(values);
    if (task) await update.mutateAsync({ id: task.id, body, tenant: task.tenantId });
    else await create.mutateAsync({ body, ...(admin ? { tenant: values.company ?? undefined } : {}) });
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={
        editing
          ? t('tasks.editTitle', { name: truncateText(task.name, LIMITS.truncate.modalName) })
          : t('tasks.createTitle')
      }
      form={form}
      onSubmit={submit}
      success={(values) => doneText(editing ? 'updated' : 'added', values.name)}
      failure={SAVE_TASK_FAILURE}
      itemName={task?.name ?? form.getValues('name')}
      errorPlacement={{
        keys: {
          ERROR_STATUS_NOT_EXIST: 'statusId',
          ERROR_DEPARTMENT_NOT_EXIST: 'departmentId',
          ERROR_COMPANY_REQUIRED: 'company',
        },
      }}
    >
      {admin && (
        <CompanyField
          control={form.control}
          name="company"
          disabled={editing}
          onChange={() => {
            form.setValue('statusId', null);
            form.setValue('departmentId', null);
            form.clearErrors(['statusId', 'departmentId']);
          }}
        />
      )}
      <TextInput label={t('tasks.name')} required error={errorText(errors.name?.message)} {...form.register('name')} />
      <SelectField
        control={form.control}
        name="departmentId"
        label={t('tasks.department')}
        placeholder={t('tasks.departmentPlaceholder')}
        required
        disabled={!ready}
        data={nameOptions(departmentOptions)}
        // Another department, other statuses: the chosen one no longer applies.
        onChange={() => form.setValue('statusId', null)}
      />
      <SelectField
        control={form.control}
        name="statusId"
        label={t('tasks.status')}
        placeholder={t(departmentId ? 'tasks.statusPlaceholder' : 'tasks.statusAfterDepartment')}
        required
        disabled={!ready || !departmentId}
        data={nameOptions(statusOptions)}
      />
    </FormModal>
  );
}
