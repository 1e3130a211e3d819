import { zodResolver } from '@hookform/resolvers/zod';
import type { Task } from '@opsdeck/contract/tasks';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyField } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { nameOptions, SelectField, TextField, withCurrent } from '../../components/form-parts';
import { useRecordForm } from '../../components/record-form';
import { isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { accessibleDepartmentsQueryOptions } from '../../resources/departments';
import { statusesQueryOptions } from '../../resources/statuses';
import { SAVE_TASK_FAILURE, useCreateTask, useUpdateTask } from './api';
import { emptyTaskForm, statusesForDepartment, taskFormSchema, taskToForm, toSaveTask } from './task-form-schema';

interface TaskFormModalProps {
  opened: boolean;
  onClose: () => void;
  task?: Task;
}

/** Create and edit a task (spec sections 2 and 5): name, status and department. */
export function TaskFormModal({ opened, onClose, task }: TaskFormModalProps) {
  const { t } = useTranslation();
  const admin = isAdmin(useViewer());
  const schema = useMemo(() => taskFormSchema(admin), [admin]);
  const { form, editing, tenant, ready, modal } = useRecordForm({
    area: 'tasks',
    record: task,
    opened,
    resolver: zodResolver(schema),
    toForm: taskToForm,
    empty: emptyTaskForm,
    toBody: toSaveTask,
    create: useCreateTask(),
    update: useUpdateTask(),
  });
  const statuses = useQuery({ ...statusesQueryOptions(tenant), enabled: ready });
  const departments = useQuery({ ...accessibleDepartmentsQueryOptions(tenant), enabled: ready });
  const departmentId = form.watch('departmentId');
  // Only the statuses that apply in the chosen department; the task's own stays while its department does.
  const statusOptions = withCurrent(
    statusesForDepartment(statuses.data ?? [], departments.data ?? [], departmentId),
    task && String(task.department.id) === departmentId ? task.status : undefined,
  );
  const departmentOptions = withCurrent(departments.data ?? [], task?.department);

  return (
    <FormModal
      {...modal}
      onClose={onClose}
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
      <CompanyField form={form} name="company" disabled={editing} resets={{ statusId: null, departmentId: null }} />
      <TextField form={form} name="name" label={t('tasks.name')} required />
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
