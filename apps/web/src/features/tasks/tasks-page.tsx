import { ActionIcon, Affix, Card, Group, Stack, Title, Tooltip } from '@mantine/core';
import type { Task } from '@opsdeck/contract/tasks';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companiesQueryOptions } from '../../components/company-select';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { SearchBar } from '../../components/search-bar/search-bar';
import { holds, isAdmin } from '../../lib/authorities';
import { notifyError } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { taskKeys, taskQueryOptions, tasksQueryOptions } from './api';
import { DeleteTaskModal } from './delete-task';
import { TaskFormModal } from './task-form';
import { matchesTask } from './task-form-schema';

export function TasksPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);
  const list = useQuery(tasksQueryOptions());
  const companies = useQuery({ ...companiesQueryOptions(), enabled: admin });
  const companyNames = useMemo(
    () => new Map((companies.data ?? []).map((company) => [company.tenantId, company.name])),
    [companies.data],
  );
  const rows = useMemo(
    () => (list.data ?? []).filter((row) => matchesTask(row, search, companyNames.get(row.tenantId))),
    [list.data, search, companyNames],
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
          {
            key: 'actions',
            header: t('tasks.actions'),
            align: 'right' as const,
            width: 110,
            render: (row: Task) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                {canEdit && (
                  <Tooltip label={t('tasks.edit')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('tasks.editNamed', { name: row.name })}
                      onClick={() => setEditingId(row.id)}
                    >
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {canDelete && (
                  <Tooltip label={t('tasks.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('tasks.deleteNamed', { name: row.name })}
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
          {t('tasks.title')}
        </Title>
        <div style={{ flex: '0 1 420px' }}>
          <SearchBar
            withRange={false}
            debounceMs={0}
            placeholder={t('tasks.searchPlaceholder')}
            onChange={(value) => setSearch(value.text)}
          />
        </div>
      </Group>
      <Card withBorder radius="md" padding="md">
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('tasks.tableLabel')}
          loading={list.isLoading}
          initialSort={{ key: 'name', direction: 'asc' }}
        />
      </Card>

      {holds(viewer, 'CREATE_TASK') && (
        <Affix position={{ bottom: 32, right: 32 }}>
          <Tooltip label={t('tasks.create')}>
            <ActionIcon size={56} radius="xl" aria-label={t('tasks.create')} onClick={() => setCreating(true)}>
              <IconPlus size={28} />
            </ActionIcon>
          </Tooltip>
        </Affix>
      )}
      <TaskFormModal opened={creating} onClose={() => setCreating(false)} />
      {editingId !== null && <EditTask id={editingId} onClose={() => setEditingId(null)} />}
      {deleting && <DeleteTaskModal task={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

/** Loads the task fresh; if that fails the dialog closes and the list reloads (spec section 4). */
function EditTask({ id, onClose }: { id: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const detail = useQuery(taskQueryOptions(id));
  useEffect(() => {
    if (!detail.isError) return;
    notifyError(detail.error);
    onClose();
    void queryClient.invalidateQueries({ queryKey: taskKeys.all });
  }, [detail.isError, detail.error, onClose, queryClient]);
  if (!detail.data) return null;
  return <TaskFormModal opened task={detail.data} onClose={onClose} />;
}
