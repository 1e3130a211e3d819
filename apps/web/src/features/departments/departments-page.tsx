import { Card, Stack, Title } from '@mantine/core';
import type { Department } from '@opsdeck/contract/departments';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { FloatingCreateButton } from '../../components/floating-create-button';
import { ListPageHeader } from '../../components/list-page-header';
import { LoadForEdit } from '../../components/load-for-edit';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { holds, isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { departmentKeys, departmentQueryOptions, departmentsQueryOptions } from './api';
import { DeleteDepartmentModal } from './delete-department';
import { DepartmentFormModal } from './department-form';
import { DepartmentTree } from './department-tree';

/** Spec section 2: the search matches the name, the head, the parent and (for admins) the company. */
export function matchesDepartment(department: Department, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [department.name, department.head?.completeName, department.parent?.name, department.companyName].some(
    (value) => value?.toLowerCase().includes(needle),
  );
}

export function DepartmentsPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Department | null>(null);
  const list = useQuery(departmentsQueryOptions());
  const rows = useMemo(() => (list.data ?? []).filter((row) => matchesDepartment(row, search)), [list.data, search]);

  const canEdit = holds(viewer, 'EDIT_DEPARTMENT');
  const canDelete = holds(viewer, 'DELETE_DEPARTMENT');
  const columns: Column<Department>[] = [
    { key: 'name', header: t('departments.name'), value: (row) => row.name, sortable: true },
    { key: 'head', header: t('departments.head'), value: (row) => row.head?.completeName ?? null, sortable: true },
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
        onSearch={setSearch}
      />
      <Card withBorder radius="md" padding="md">
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('departments.tableLabel')}
          loading={list.isLoading}
          initialSort={{ key: 'name', direction: 'asc' }}
        />
      </Card>
      <Card withBorder radius="md" padding="md">
        <Title order={2} fz={18} mb="sm">
          {t('departments.hierarchy')}
        </Title>
        <DepartmentTree departments={list.data ?? []} />
      </Card>

      {holds(viewer, 'CREATE_DEPARTMENT') && (
        <FloatingCreateButton label={t('departments.create')} onClick={() => setCreating(true)} />
      )}
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
      {deleting && <DeleteDepartmentModal opened department={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}
