import { Card, Title } from '@mantine/core';
import type { Department } from '@opsdeck/contract/departments';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaListPage } from '../../components/area-list-page';
import type { Column } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { areaActionsColumn } from '../../components/row-actions';
import { useRowDialogs } from '../../components/row-dialogs';
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
  const dialogs = useRowDialogs<Department>();
  const list = useQuery(departmentsQueryOptions());
  const remove = useDeleteDepartment();
  const rows = useMemo(
    () => (list.data ?? []).filter((row) => matchesDepartment(row, params.search)),
    [list.data, params.search],
  );

  const columns: Column<Department>[] = [
    { key: 'name', header: t('departments.name'), value: (row) => row.name, sortable: true },
    { key: 'head', header: t('departments.head'), value: (row) => row.head?.completeName ?? null, sortable: true },
    { key: 'parent', header: t('departments.parentColumn'), value: (row) => row.parent?.name ?? null, sortable: true },
    ...(admin
      ? [{ key: 'company', header: t('common.company'), value: (row: Department) => row.companyName, sortable: true }]
      : []),
    ...areaActionsColumn(t, {
      area: 'departments',
      name: (row: Department) => row.name,
      onEdit: holds(viewer, 'EDIT_DEPARTMENT') ? dialogs.edit : undefined,
      onDelete: holds(viewer, 'DELETE_DEPARTMENT') ? dialogs.remove : undefined,
    }),
  ];

  return (
    <AreaListPage
      area="departments"
      list={params}
      columns={columns}
      rows={rows}
      loading={list.isLoading}
      canCreate={holds(viewer, 'CREATE_DEPARTMENT')}
      csv={{ path: '/department', query: {}, fallbackName: 'departments.csv', help: t('table.downloadCsvWholeHelp') }}
      dialogs={dialogs}
      form={(department, onClose) => <DepartmentFormModal opened department={department} onClose={onClose} />}
      load={departmentQueryOptions}
      invalidate={departmentKeys.all}
      remove={{
        area: 'departments',
        name: (department) => department.name,
        call: (department) => remove.mutateAsync({ id: department.id, tenant: department.tenantId }),
        failure: DELETE_DEPARTMENT_FAILURE,
      }}
    >
      <Card withBorder radius="md" padding="md">
        <Title order={2} fz={18} mb="sm">
          {t('departments.hierarchy')}
        </Title>
        <DepartmentTree departments={list.data ?? []} search={params.search} />
      </Card>
    </AreaListPage>
  );
}
