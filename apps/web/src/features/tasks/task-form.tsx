import { zodResolver } from '@hookform/resolvers/zod';
import { Select, TextInput } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Task } from '@opsdeck/contract/tasks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanySelect } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { isApiError } from '../../lib/api-client';
import { isAdmin } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { notifyDone, notifyErrorKey } from '../../lib/notify';
import { useProfile, useViewer } from '../../lib/profile-context';
import { useTenantId } from '../../lib/session';
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
  const profile = useProfile();
  const admin = isAdmin(viewer);
  const storedTenant = useTenantId();
  const editing = task !== undefined;
  const schema = useMemo(() => taskFormSchema(admin), [admin]);
  const initial = useMemo(
    () => (task ? taskToForm(task) : emptyTaskForm(admin ? storedTenant : profile.tenantId)),
    [task, admin, storedTenant, profile.tenantId],
  );
  const form = useForm<TaskFormValues, unknown, TaskFormOutput>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: initial,
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (opened) form.reset(initial);
  }, [opened, initial, form]);

  const company = form.watch('company');
  const tenant = admin ? (company ?? undefined) : undefined;
  const ready = opened && (!admin || Boolean(company));
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

  const options = (list: { id: number; name: string }[]) =>
    list.map((item) => ({ value: String(item.id), label: truncateText(item.name, LIMITS.truncate.dropdownName) }));

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
                form.setValue('statusId', null);
                form.setValue('departmentId', null);
                form.clearErrors(['statusId', 'departmentId']);
              }}
            />
          )}
        />
      )}
      <TextInput label={t('tasks.name')} required error={errorText(errors.name?.message)} {...form.register('name')} />
      <Controller
        control={form.control}
        name="statusId"
        render={({ field }) => (
          <Select
            label={t('tasks.status')}
            placeholder={t('tasks.statusPlaceholder')}
            required
            searchable
            disabled={!ready}
            data={options(statusOptions)}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errorText(errors.statusId?.message)}
            nothingFoundMessage={t('table.empty')}
          />
        )}
      />
      <Controller
        control={form.control}
        name="departmentId"
        render={({ field }) => (
          <Select
            label={t('tasks.department')}
            placeholder={t('tasks.departmentPlaceholder')}
            required
            searchable
            disabled={!ready}
            data={options(departmentOptions)}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errorText(errors.departmentId?.message)}
            nothingFoundMessage={t('table.empty')}
          />
        )}
      />
    </FormModal>
  );
}
