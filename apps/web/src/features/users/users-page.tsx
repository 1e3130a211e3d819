import { Card, Stack } from '@mantine/core';
import { USER_SORT_FIELDS, type User, type UserSortField } from '@opsdeck/contract/users';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import type { SortState } from '../../components/data-table/table-state';
import { useListParams } from '../../components/data-table/use-list-params';
import { DeleteModal } from '../../components/delete-modal';
import { ListPageHeader } from '../../components/list-page-header';
import { LoadForEdit } from '../../components/load-for-edit';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { holds } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { userKeys, userQueryOptions, usersPageQueryOptions } from '../../resources/users';
import { USER_CHANGE_FAILURE, useArchiveUser } from './api';
import { UserFormModal } from './user-form';

const DEFAULT_SORT: SortState = { key: 'fullName', direction: 'asc' };
const LIST: ListDefaults = { sort: DEFAULT_SORT, sortKeys: USER_SORT_FIELDS };

/**
 * Spec section 2, Users: search, a table of 10 a page that the server pages, sorts and searches
 * (a company may hold 100,000 users), a floating create button, and create, edit and archive dialogs.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const params = useListParams(LIST);
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [archiving, setArchiving] = useState<User | null>(null);
  const archive = useArchiveUser();
  const sort = params.sort ?? DEFAULT_SORT;
  const list = useQuery(
    usersPageQueryOptions({
      page: params.page,
      sort: { field: sort.key as UserSortField, direction: sort.direction },
      search: params.search,
    }),
  );

  // Spec section 6: the Company column (and searching by company) only with ADMIN_ACCESS_LEVEL.
  const showsCompany = holds(viewer, 'ADMIN_ACCESS_LEVEL');
  const canEdit = holds(viewer, 'EDIT_USER');
  const canDelete = holds(viewer, 'DELETE_USER');
  const columns: Column<User>[] = [
    { key: 'fullName', header: t('users.fullName'), value: (row) => row.completeName, sortable: true },
    {
      key: 'department',
      header: t('users.department'),
      value: (row) => row.displayDepartment,
      sortable: true,
      priority: 2,
    },
    { key: 'role', header: t('users.role'), value: (row) => row.displayGroups, sortable: true, priority: 3 },
    ...(showsCompany
      ? [
          {
            key: 'company',
            header: t('common.company'),
            value: (row: User) => row.companyName,
            sortable: true,
            priority: 3 as const,
          },
        ]
      : []),
    { key: 'email', header: t('users.email'), value: (row) => row.emailAddress, sortable: true, priority: 2 },
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
              deleteBlockedReason={row.deletable ? undefined : t('users.notDeletable')}
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
        list={params}
        create={
          holds(viewer, 'CREATE_USER') ? { label: t('users.create'), onClick: () => setCreating(true) } : undefined
        }
      />
      <Card withBorder radius="md" padding="md">
        <DataTable
          mode="server"
          columns={columns}
          {...params.table}
          rows={list.data?.items ?? []}
          total={list.data?.total ?? 0}
          rowKey={(row) => row.id}
          label={t('users.tableLabel')}
          loading={list.isLoading}
        />
      </Card>

      <UserFormModal opened={creating} onClose={() => setCreating(false)} />
      {editingId !== null && (
        <LoadForEdit query={userQueryOptions(editingId)} invalidate={userKeys.all} onClose={() => setEditingId(null)}>
          {(user) => <UserFormModal opened user={user} onClose={() => setEditingId(null)} />}
        </LoadForEdit>
      )}
      {archiving && (
        <DeleteModal
          area="users"
          name={archiving.completeName}
          remove={() => archive.mutateAsync(archiving.id)}
          failure={USER_CHANGE_FAILURE}
          onClose={() => setArchiving(null)}
        />
      )}
    </Stack>
  );
}
