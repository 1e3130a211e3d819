import { Card, Stack } from '@mantine/core';
import type { User, UserSortField } from '@opsdeck/contract/users';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { SortState } from '../../components/data-table/table-state';
import { FloatingCreateButton } from '../../components/floating-create-button';
import { ListPageHeader } from '../../components/list-page-header';
import { LoadForEdit } from '../../components/load-for-edit';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { holds } from '../../lib/authorities';
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

  // Spec section 6: the Company column (and searching by company) only with ADMIN_ACCESS_LEVEL.
  const showsCompany = holds(viewer, 'ADMIN_ACCESS_LEVEL');
  const canEdit = holds(viewer, 'EDIT_USER');
  const canDelete = holds(viewer, 'DELETE_USER');
  const columns: Column<User>[] = [
    { key: 'fullName', header: t('users.fullName'), value: (row) => row.completeName, sortable: true },
    { key: 'department', header: t('users.department'), value: (row) => row.displayDepartment, sortable: true },
    { key: 'role', header: t('users.role'), value: (row) => row.displayGroups, sortable: true },
    ...(showsCompany
      ? [{ key: 'company', header: t('common.company'), value: (row: User) => row.companyName, sortable: true }]
      : []),
    { key: 'email', header: t('users.email'), value: (row) => row.emailAddress, sortable: true },
    ...(canEdit || canDelete
      ? [
          actionsColumn(t('users.actions'), (row: User) => (
            <RowActions
              editLabel={t('users.editNamed', { name: row.completeName })}
              editTooltip={t('users.edit')}
              onEdit={canEdit ? () => setEditingId(row.id) : undefined}
              deleteLabel={t('users.deleteNamed', { name: row.completeName })}
              deleteTooltip={t('users.delete')}
              onDelete={canDelete ? () => setArchiving(row) : undefined}
            />
          )),
        ]
      : []),
  ];

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('users.title')}
        searchPlaceholder={t(showsCompany ? 'users.searchPlaceholder' : 'users.searchPlaceholderOwnCompany')}
        serverSearch
        onSearch={(text) => {
          setSearch(text);
          setPage(1);
        }}
      />
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
        <FloatingCreateButton label={t('users.create')} onClick={() => setCreating(true)} />
      )}
      <UserFormModal opened={creating} onClose={() => setCreating(false)} />
      {editingId !== null && (
        <LoadForEdit query={userQueryOptions(editingId)} invalidate={userKeys.all} onClose={() => setEditingId(null)}>
          {(user) => <UserFormModal opened user={user} onClose={() => setEditingId(null)} />}
        </LoadForEdit>
      )}
      {archiving && <ArchiveUserModal opened user={archiving} onClose={() => setArchiving(null)} />}
    </Stack>
  );
}
