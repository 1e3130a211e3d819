import type { Task } from '@opsdeck/contract/tasks';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaListPage } from '../../components/area-list-page';
import { useCompanyNames } from '../../components/company-select';
import type { Column } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { areaActionsColumn } from '../../components/row-actions';
import { useRowDialogs } from '../../components/row-dialogs';
import { holds, isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { taskKeys, taskQueryOptions, tasksQueryOptions } from '../../resources/tasks';
import { DELETE_TASK_FAILURE, useDeleteTask } from './api';
import { TaskFormModal } from './task-form';
import { matchesTask } from './task-form-schema';

const LIST: ListDefaults = { sort: { key: 'name', direction: 'asc' } };

export function TasksPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const params = useListParams(LIST);
  const dialogs = useRowDialogs<Task>();
  const list = useQuery(tasksQueryOptions());
  const remove = useDeleteTask();
  const companyNames = useCompanyNames(admin);
  const rows = useMemo(
    () => (list.data ?? []).filter((row) => matchesTask(row, params.search, companyNames.get(row.tenantId))),
    [list.data, params.search, companyNames],
  );

  const columns: Column<Task>[] = [
    { key: 'name', header: t('tasks.name'), value: (row) => row.name, sortable: true },
    { key: 'status', header: t('tasks.status'), value: (row) => row.status.name, sortable: true },
    { key: 'department', header: t('tasks.department'), value: (row) => row.department.name, sortable: true },
    ...(admin
      ? [
          {
            key: 'company',
            header: t('common.company'),
            value: (row: Task) => companyNames.get(row.tenantId) ?? null,
            sortable: true,
          },
        ]
      : []),
    // Only tasks of departments the viewer heads (or below) can be changed (spec section 6).
    ...areaActionsColumn(t, {
      area: 'tasks',
      name: (row: Task) => row.name,
      onEdit: holds(viewer, 'EDIT_TASK') ? dialogs.edit : undefined,
      onDelete: holds(viewer, 'DELETE_TASK') ? dialogs.remove : undefined,
      changeable: (row) => row.editable,
    }),
  ];

  return (
    <AreaListPage
      area="tasks"
      list={params}
      columns={columns}
      rows={rows}
      loading={list.isLoading}
      canCreate={holds(viewer, 'CREATE_TASK')}
      csv={{ path: '/task', query: {}, fallbackName: 'tasks.csv', help: t('table.downloadCsvWholeHelp') }}
      dialogs={dialogs}
      form={(task, onClose) => <TaskFormModal opened task={task} onClose={onClose} />}
      load={taskQueryOptions}
      invalidate={taskKeys.all}
      remove={{
        area: 'tasks',
        name: (task) => task.name,
        call: (task) => remove.mutateAsync({ id: task.id, tenant: task.tenantId }),
        failure: DELETE_TASK_FAILURE,
      }}
    />
  );
}
