import { ActionIcon, Affix, Card, Group, Stack, Title, Tooltip } from '@mantine/core';
import type { User, UserSortField } from '@opsdeck/contract/users';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { SortState } from '../../components/data-table/table-state';
import { SearchBar } from '../../components/search-bar/search-bar';
import { holds } from '../../lib/authorities';
import { notifyError } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { userKeys, userQueryOptions, usersPageQueryOptions } from './api';
import { ArchiveUserModal } from './archive-user';
import { UserFormModal } from './user-form';

const DEFAULT_SORT: SortState = { key: 'fullName', direction: 'asc' };

/**
 * Spec section 2, Users: search, a table of 10 a page that the server pages, sorts and searches
 * (a company may hold 100,000 users), a floating create button, and create, edit and archive dialogs.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [archiving, setArchiving] = useState<User | null>(null);
  const list = useQuery(
    usersPageQueryOptions({
      page,
      sort: { field: sort.key as UserSortField, direction: sort.direction },
      search,
    }),
  );

  const canEdit = holds(viewer, 'EDIT_USER');
  const canDelete = holds(viewer, 'DELETE_USER');
  const columns: Column<User>[] = [
    { key: 'fullName', header: t('users.fullName'), value: (row) => row.completeName, sortable: true },
    { key: 'department', header: t('users.department'), value: (row) => row.displayDepartment, sortable: true },
    { key: 'role', header: t('users.role'), value: (row) => row.displayGroups, sortable: true },
    // Spec section 6: the Company column only with ADMIN_ACCESS_LEVEL.
    ...(holds(viewer, 'ADMIN_ACCESS_LEVEL')
      ? [{ key: 'company', header: t('common.company'), value: (row: User) => row.companyName, sortable: true }]
      : []),
    { key: 'email', header: t('users.email'), value: (row) => row.emailAddress, sortable: true },
    ...(canEdit || canDelete
      ? [
          {
            key: 'actions',
            header: t('users.actions'),
            align: 'right' as const,
            width: 110,
            render: (row: User) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                {canEdit && (
                  <Tooltip label={t('users.edit')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('users.editNamed', { name: row.completeName })}
                      onClick={() => setEditingId(row.id)}
                    >
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {canDelete && (
                  <Tooltip label={t('users.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('users.deleteNamed', { name: row.completeName })}
                      onClick={() => setArchiving(row)}
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
          {t('users.title')}
        </Title>
        <div style={{ flex: '0 1 420px' }}>
          <SearchBar
            withRange={false}
            placeholder={t('users.searchPlaceholder')}
            onChange={(value) => {
              setSearch(value.text);
              setPage(1);
            }}
          />
        </div>
      </Group>
      <Card withBorder radius="md" padding="md">
        <DataTable
          mode="server"
          columns={columns}
          rows={list.data?.items ?? []}
          total={list.data?.total ?? 0}
          page={page}
          onPageChange={setPage}
          sort={sort}
          onSortChange={(next) => {
            setSort(next);
            setPage(1);
          }}
          rowKey={(row) => row.id}
          label={t('users.tableLabel')}
          loading={list.isLoading}
        />
      </Card>

      {holds(viewer, 'CREATE_USER') && (
        <Affix position={{ bottom: 32, right: 32 }}>
          <Tooltip label={t('users.create')}>
            <ActionIcon size={56} radius="xl" aria-label={t('users.create')} onClick={() => setCreating(true)}>
              <IconPlus size={28} />
            </ActionIcon>
          </Tooltip>
        </Affix>
      )}
      <UserFormModal opened={creating} onClose={() => setCreating(false)} />
      {editingId !== null && <EditUser id={editingId} onClose={() => setEditingId(null)} />}
      {archiving && <ArchiveUserModal opened user={archiving} onClose={() => setArchiving(null)} />}
    </Stack>
  );
}

/** Loads the user fresh; if that fails the dialog closes and the list reloads (spec section 4). */
function EditUser({ id, onClose }: { id: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const detail = useQuery(userQueryOptions(id));
  useEffect(() => {
    if (!detail.isError) return;
    notifyError(detail.error);
    onClose();
    void queryClient.invalidateQueries({ queryKey: userKeys.all });
  }, [detail.isError, detail.error, onClose, queryClient]);
  if (!detail.data) return null;
  return <UserFormModal opened user={detail.data} onClose={onClose} />;
}
