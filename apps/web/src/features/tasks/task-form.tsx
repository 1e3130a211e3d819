import { zodResolver } from '@hookform/resolvers/zod';
import { TextInput } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Task } from '@opsdeck/contract/tasks';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyField, useCompanyScope, useNewRecordCompany } from '../../components/company-select';
import { FormModal, useModalForm } from '../../components/form-modal';
import { nameOptions, SelectField } from '../../components/form-parts';
import { isApiError } from '../../lib/api-client';
import { isAdmin } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { notifyDone, notifyErrorKey } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { truncateText } from '../../lib/truncate';
import { taskDepartmentsQueryOptions, taskStatusesQueryOptions, useCreateTask, useUpdateTask } from './api';
import {
  emptyTaskForm,
  type TaskFormOutput,
  type TaskFormValues,
  taskFormSchema,
  taskToForm,
  toSaveTask,
  withCurrent,
} from './task-form-schema';

/** Failures that close the dialog with a toast naming the task (spec section 8, Task). */
const TOASTED = new Set(['ERROR_TASK_INACCESSIBLE', 'ERROR_TASK_NOT_EXIST']);

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
  const statuses = useQuery({ ...taskStatusesQueryOptions(tenant), enabled: ready });
  const departments = useQuery({ ...taskDepartmentsQueryOptions(tenant), enabled: ready });
  const statusOptions = withCurrent(statuses.data ?? [], task?.status);
  const departmentOptions = withCurrent(departments.data ?? [], task?.department);

  const create = useCreateTask();
  const update = useUpdateTask();

  const submit = async (values: TaskFormOutput) => {
    const body = toSaveTask(values);
    try {
      if (task) {
        await update.mutateAsync({ id: task.id, body, tenant: task.tenantId });
        notifyDone('updated', body.name);
      } else {
        await create.mutateAsync({ body, ...(admin ? { tenant: values.company ?? undefined } : {}) });
        notifyDone('added', body.name);
      }
    } catch (error) {
      // ERROR_TASK_INACCESSIBLE: a toast, and the dialog closes; the rest shows on the form.
      if (isApiError(error) && TOASTED.has(error.key)) notifyErrorKey(error.key, task?.name ?? body.name);
      else throw error;
    }
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
        name="statusId"
        label={t('tasks.status')}
        placeholder={t('tasks.statusPlaceholder')}
        required
        disabled={!ready}
        data={nameOptions(statusOptions)}
      />
      <SelectField
        control={form.control}
        name="departmentId"
        label={t('tasks.department')}
        placeholder={t('tasks.departmentPlaceholder')}
        required
        disabled={!ready}
        data={nameOptions(departmentOptions)}
      />
    </FormModal>
  );
}
