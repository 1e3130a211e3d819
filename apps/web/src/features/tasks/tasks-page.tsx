import { Card, Stack } from '@mantine/core';
import type { Task } from '@opsdeck/contract/tasks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyNames } from '../../components/company-select';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { DeleteModal } from '../../components/delete-modal';
import { ListPageHeader } from '../../components/list-page-header';
import { LoadForEdit } from '../../components/load-for-edit';
import { actionsColumn, RowActions } from '../../components/row-actions';
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
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);
  const list = useQuery(tasksQueryOptions());
  const remove = useDeleteTask();
  const companyNames = useCompanyNames(admin);
  const rows = useMemo(
    () => (list.data ?? []).filter((row) => matchesTask(row, params.search, companyNames.get(row.tenantId))),
    [list.data, params.search, companyNames],
  );

  const canEdit = holds(viewer, 'EDIT_TASK');
  const canDelete = holds(viewer, 'DELETE_TASK');
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
    ...(canEdit || canDelete
      ? [
          // Only tasks of departments the viewer heads (or below) can be changed (spec section 6).
          actionsColumn(t('tasks.actions'), (row: Task) => (
            <RowActions
              editLabel={t('tasks.editNamed', { name: row.name })}
              editTooltip={t('tasks.edit')}
              onEdit={canEdit && row.editable ? () => setEditingId(row.id) : undefined}
              deleteLabel={t('tasks.deleteNamed', { name: row.name })}
              deleteTooltip={t('tasks.delete')}
              onDelete={canDelete && row.editable ? () => setDeleting(row) : undefined}
            />
          )),
        ]
      : []),
  ];

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('tasks.title')}
        searchPlaceholder={t('tasks.searchPlaceholder')}
        list={params}
        create={
          holds(viewer, 'CREATE_TASK') ? { label: t('tasks.create'), onClick: () => setCreating(true) } : undefined
        }
      />
      <Card withBorder radius="md" padding="md">
        <DataTable
          {...params.table}
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('tasks.tableLabel')}
          loading={list.isLoading}
        />
      </Card>

      <TaskFormModal opened={creating} onClose={() => setCreating(false)} />
      {editingId !== null && (
        <LoadForEdit query={taskQueryOptions(editingId)} invalidate={taskKeys.all} onClose={() => setEditingId(null)}>
          {(task) => <TaskFormModal opened task={task} onClose={() => setEditingId(null)} />}
        </LoadForEdit>
      )}
      {deleting && (
        <DeleteModal
          area="tasks"
          name={deleting.name}
          remove={() => remove.mutateAsync({ id: deleting.id, tenant: deleting.tenantId })}
          failure={DELETE_TASK_FAILURE}
          onClose={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}
