import { ActionIcon, Affix, Card, Group, Stack, Title, Tooltip } from '@mantine/core';
import type { Department } from '@opsdeck/contract/departments';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { SearchBar } from '../../components/search-bar/search-bar';
import { holds, isAdmin } from '../../lib/authorities';
import { notifyError } from '../../lib/notify';
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
          {
            key: 'actions',
            header: t('departments.actions'),
            align: 'right' as const,
            width: 110,
            render: (row: Department) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                {canEdit && (
                  <Tooltip label={t('departments.edit')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('departments.editNamed', { name: row.name })}
                      onClick={() => setEditingId(row.id)}
                    >
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {canDelete && (
                  <Tooltip label={t('departments.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('departments.deleteNamed', { name: row.name })}
                      onClick={() => setDeleting(row)}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            ),
          },
        ]
      : []),
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={26}>
          {t('departments.title')}
        </Title>
        <div style={{ flex: '0 1 420px' }}>
          <SearchBar
            withRange={false}
            debounceMs={0}
            placeholder={t('departments.searchPlaceholder')}
            onChange={(value) => setSearch(value.text)}
          />
        </div>
      </Group>
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
        <Affix position={{ bottom: 32, right: 32 }}>
          <Tooltip label={t('departments.create')}>
            <ActionIcon size={56} radius="xl" aria-label={t('departments.create')} onClick={() => setCreating(true)}>
              <IconPlus size={28} />
            </ActionIcon>
          </Tooltip>
        </Affix>
      )}
      <DepartmentFormModal opened={creating} onClose={() => setCreating(false)} />
      {editingId !== null && <EditDepartment id={editingId} onClose={() => setEditingId(null)} />}
      {deleting && <DeleteDepartmentModal opened department={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

/** Loads the department fresh; if that fails the dialog closes and the list reloads (spec section 4). */
function EditDepartment({ id, onClose }: { id: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const detail = useQuery(departmentQueryOptions(id));
  useEffect(() => {
    if (!detail.isError) return;
    notifyError(detail.error);
    onClose();
    void queryClient.invalidateQueries({ queryKey: departmentKeys.all });
  }, [detail.isError, detail.error, onClose, queryClient]);
  if (!detail.data) return null;
  return <DepartmentFormModal opened department={detail.data} onClose={onClose} />;
}
