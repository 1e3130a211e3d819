import { Badge, ColorSwatch, Image, Tooltip } from '@mantine/core';
import type { Status } from '@opsdeck/contract/statuses';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaListPage } from '../../components/area-list-page';
import { useCompanyNames } from '../../components/company-select';
import type { Column } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { areaActionsColumn } from '../../components/row-actions';
import { useRowDialogs } from '../../components/row-dialogs';
import { holds, isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { statusesQueryOptions, statusKeys, statusQueryOptions } from '../../resources/statuses';
import { DELETE_STATUS_FAILURE, useDeleteStatus } from './api';
import { StatusFormModal } from './status-form';

/** The search matches the name, the department or (for admins) the company. */
export function matchesStatus(status: Status, text: string, companyName?: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [status.name, status.department.name, companyName].some((value) => value?.toLowerCase().includes(needle));
}

/** Spec section 2: a threshold of 0 (or none) reads '-'. */
export const thresholdText = (threshold: number | null | undefined) => (threshold ? String(threshold) : '-');

const LIST: ListDefaults = { sort: { key: 'name', direction: 'asc' } };

export function StatusesPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const params = useListParams(LIST);
  const dialogs = useRowDialogs<Status>();
  const list = useQuery(statusesQueryOptions());
  const remove = useDeleteStatus();
  const companyNames = useCompanyNames(admin);
  const rows = useMemo(
    () => (list.data ?? []).filter((row) => matchesStatus(row, params.search, companyNames.get(row.tenantId))),
    [list.data, params.search, companyNames],
  );

  const columns: Column<Status>[] = [
    {
      key: 'color',
      header: t('statuses.color'),
      width: 70,
      render: (row) => (
        <ColorSwatch
          color={row.color}
          size={20}
          role="img"
          aria-label={t('statuses.colorNamed', { color: row.color })}
        />
      ),
    },
    {
      key: 'icon',
      header: t('statuses.icon'),
      width: 70,
      render: (row) => (
        <Image src={row.icon} alt={t('statuses.iconOf', { name: row.name })} w={24} h={24} fit="contain" />
      ),
    },
    {
      key: 'name',
      header: t('statuses.name'),
      value: (row) => row.name,
      sortable: true,
    },
    { key: 'department', header: t('statuses.department'), value: (row) => row.department.name, sortable: true },
    ...(admin
      ? [
          {
            key: 'company',
            header: t('common.company'),
            value: (row: Status) => companyNames.get(row.tenantId) ?? null,
            sortable: true,
          },
        ]
      : []),
    {
      key: 'threshold',
      header: t('statuses.threshold'),
      value: (row) => row.threshold,
      render: (row) => thresholdText(row.threshold),
      sortable: true,
      width: 110,
    },
    {
      key: 'trackIdle',
      header: t('statuses.trackIdle'),
      width: 110,
      align: 'center',
      render: (row) =>
        row.trackIdle ? (
          <IconCheck size={18} color="var(--mantine-color-teal-7)" role="img" aria-label={t('statuses.tracksIdle')} />
        ) : (
          <IconX size={18} color="var(--mantine-color-red-7)" role="img" aria-label={t('statuses.doesNotTrackIdle')} />
        ),
    },
    // Built-in statuses carry a badge; others the caller may not change (not of a department they
    // head) show no actions.
    ...areaActionsColumn(t, {
      area: 'statuses',
      name: (row: Status) => row.name,
      onEdit: holds(viewer, 'EDIT_STATUS') ? dialogs.edit : undefined,
      onDelete: holds(viewer, 'DELETE_STATUS') ? dialogs.remove : undefined,
      changeable: (row) => row.editable,
      instead: (row) =>
        row.builtIn && (
          <Tooltip label={t('statuses.builtInHint')}>
            <Badge variant="light" color="gray">
              {t('statuses.builtIn')}
            </Badge>
          </Tooltip>
        ),
    }),
  ];

  return (
    <AreaListPage
      area="statuses"
      list={params}
      columns={columns}
      rows={rows}
      loading={list.isLoading}
      canCreate={holds(viewer, 'CREATE_STATUS')}
      csv={{ path: '/status', query: {}, fallbackName: 'statuses.csv', help: t('table.downloadCsvWholeHelp') }}
      dialogs={dialogs}
      form={(status, onClose) => <StatusFormModal opened status={status} onClose={onClose} />}
      load={statusQueryOptions}
      invalidate={statusKeys.all}
      remove={{
        area: 'statuses',
        name: (status) => status.name,
        call: (status) => remove.mutateAsync({ id: status.id, tenant: status.tenantId }),
        failure: DELETE_STATUS_FAILURE,
      }}
    ></AreaListPage>
  );
}
