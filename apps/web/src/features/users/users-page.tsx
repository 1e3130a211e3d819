import { USER_SORT_FIELDS, type User, type UserSortField } from '@opsdeck/contract/users';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AreaListPage } from '../../components/area-list-page';
import type { Column } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import type { SortState } from '../../components/data-table/table-state';
import { useListParams } from '../../components/data-table/use-list-params';
import { rowHistory } from '../../components/history-link';
import { areaActionsColumn } from '../../components/row-actions';
import { useRowDialogs } from '../../components/row-dialogs';
import { holds } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { listQuery } from '../../resources/rest-resource';
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
  const dialogs = useRowDialogs<User>();
  const archive = useArchiveUser();
  const sort = params.sort ?? DEFAULT_SORT;
  const filter = { sort: { field: sort.key as UserSortField, direction: sort.direction }, search: params.search };
  const list = useQuery(usersPageQueryOptions({ page: params.page, ...filter }));

  // Spec section 6: the Company column (and searching by company) only with ADMIN_ACCESS_LEVEL.
  const showsCompany = holds(viewer, 'ADMIN_ACCESS_LEVEL');
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
    ...areaActionsColumn(t, {
      area: 'users',
      name: (row: User) => row.completeName,
      onEdit: holds(viewer, 'EDIT_USER') ? dialogs.edit : undefined,
      onDelete: holds(viewer, 'DELETE_USER') ? dialogs.remove : undefined,
      deleteBlocked: (row) => (row.deletable ? undefined : t('users.notDeletable')),
      history: rowHistory(viewer, 'user', (row: User) => row.completeName),
    }),
  ];

  return (
    <AreaListPage
      area="users"
      list={params}
      columns={columns}
      rows={list.data?.items ?? []}
      total={list.data?.total ?? 0}
      loading={list.isLoading || list.isPlaceholderData}
      canCreate={holds(viewer, 'CREATE_USER')}
      searchPlaceholder={t(showsCompany ? 'users.searchPlaceholder' : 'users.searchPlaceholderOwnCompany')}
      csv={{ path: '/user/get-user-list', query: listQuery(filter), fallbackName: 'users.csv' }}
      dialogs={dialogs}
      form={(user, onClose) => <UserFormModal opened user={user} onClose={onClose} />}
      load={userQueryOptions}
      invalidate={userKeys.all}
      remove={{
        area: 'users',
        name: (user) => user.completeName,
        call: (user) => archive.mutateAsync(user.id),
        failure: USER_CHANGE_FAILURE,
      }}
    ></AreaListPage>
  );
}
