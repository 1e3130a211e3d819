import { Card, Stack, Title } from '@mantine/core';
import type { Department } from '@opsdeck/contract/departments';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { DeleteModal } from '../../components/delete-modal';
import { ListPageHeader } from '../../components/list-page-header';
import { LoadForEdit } from '../../components/load-for-edit';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { holds, isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { departmentKeys, departmentQueryOptions, departmentsQueryOptions } from '../../resources/departments';
import { DELETE_DEPARTMENT_FAILURE, useDeleteDepartment } from './api';
import { DepartmentFormModal } from './department-form';
import { matchesDepartment } from './department-search';
import { DepartmentTree } from './department-tree';

const LIST: ListDefaults = { sort: { key: 'name', direction: 'asc' } };

export function DepartmentsPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const params = useListParams(LIST);
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Department | null>(null);
  const list = useQuery(departmentsQueryOptions());
  const remove = useDeleteDepartment();
  const rows = useMemo(
    () => (list.data ?? []).filter((row) => matchesDepartment(row, params.search)),
    [list.data, params.search],
  );

  const canEdit = holds(viewer, 'EDIT_DEPARTMENT');
  const canDelete = holds(viewer, 'DELETE_DEPARTMENT');
  const columns: Column<Department>[] = [
    { key: 'name', header: t('departments.name'), value: (row) => row.name, sortable: true },
    { key: 'head', header: t('departments.head'), value: (row) => row.head?.completeName ?? null, sortable: true },
    { key: 'parent', header: t('departments.parentColumn'), value: (row) => row.parent?.name ?? null, sortable: true },
    ...(admin
      ? [{ key: 'company', header: t('common.company'), value: (row: Department) => row.companyName, sortable: true }]
      : []),
    ...(canEdit || canDelete
      ? [
          actionsColumn(t('departments.actions'), (row: Department) => (
            <RowActions
              editLabel={t('departments.editNamed', { name: row.name })}
              editTooltip={t('departments.edit')}
              onEdit={canEdit ? () => setEditingId(row.id) : undefined}
              deleteLabel={t('departments.deleteNamed', { name: row.name })}
              deleteTooltip={t('departments.delete')}
              onDelete={canDelete ? () => setDeleting(row) : undefined}
            />
          )),
        ]
      : []),
  ];

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('departments.title')}
        searchPlaceholder={t('departments.searchPlaceholder')}
        list={params}
        create={
          holds(viewer, 'CREATE_DEPARTMENT')
            ? { label: t('departments.create'), onClick: () => setCreating(true) }
            : undefined
        }
      />
      <Card withBorder radius="md" padding="md">
        <DataTable
          {...params.table}
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('departments.tableLabel')}
          loading={list.isLoading}
        />
      </Card>
      <Card withBorder radius="md" padding="md">
        <Title order={2} fz={18} mb="sm">
          {t('departments.hierarchy')}
        </Title>
        <DepartmentTree departments={list.data ?? []} search={params.search} />
      </Card>

      <DepartmentFormModal opened={creating} onClose={() => setCreating(false)} />
      {editingId !== null && (
        <LoadForEdit
          query={departmentQueryOptions(editingId)}
          invalidate={departmentKeys.all}
          onClose={() => setEditingId(null)}
        >
          {(department) => <DepartmentFormModal opened department={department} onClose={() => setEditingId(null)} />}
        </LoadForEdit>
      )}
      {deleting && (
        <DeleteModal
          area="departments"
          name={deleting.name}
          remove={() => remove.mutateAsync({ id: deleting.id, tenant: deleting.tenantId })}
          failure={DELETE_DEPARTMENT_FAILURE}
          onClose={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}
