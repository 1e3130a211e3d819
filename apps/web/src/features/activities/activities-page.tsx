import type { Activity } from '@opsdeck/contract/activities';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AreaListPage } from '../../components/area-list-page';
import type { Column } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { areaActionsColumn } from '../../components/row-actions';
import { useRowDialogs } from '../../components/row-dialogs';
import { holds } from '../../lib/authorities';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { useViewer } from '../../lib/profile-context';
import { activitiesQueryOptions, activityKeys, activityQueryOptions } from '../../resources/activities';
import { ActivityFormModal } from './activity-form';
import { matchesActivity } from './activity-form-schema';
import { ARCHIVE_ACTIVITY_FAILURE, useDeleteActivity } from './api';

const LIST: ListDefaults = { sort: { key: 'createDate', direction: 'desc' } };

/** Spec section 2, Activities: create date (MMM DD), name, key and category, 10 a page; create, edit, archive. */
export function ActivitiesPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const params = useListParams(LIST);
  const dialogs = useRowDialogs<Activity>();
  const list = useQuery(activitiesQueryOptions());
  const remove = useDeleteActivity();
  const rows = useMemo(
    () => (list.data ?? []).filter((row) => matchesActivity(row, params.search)),
    [list.data, params.search],
  );

  const columns: Column<Activity>[] = [
    {
      key: 'createDate',
      header: t('activities.createDate'),
      value: (row) => row.createDate,
      render: (row) => formatEpoch(row.createDate, DATE_FORMATS.activityDate),
      sortable: true,
      width: 120,
    },
    { key: 'name', header: t('activities.name'), value: (row) => row.name, sortable: true },
    { key: 'key', header: t('activities.key'), value: (row) => row.key, sortable: true },
    { key: 'category', header: t('activities.category'), value: (row) => row.category || null, sortable: true },
    ...areaActionsColumn(t, {
      area: 'activities',
      name: (row: Activity) => row.name,
      onEdit: holds(viewer, 'EDIT_ACTIVITY') ? dialogs.edit : undefined,
      onDelete: holds(viewer, 'DELETE_ACTIVITY') ? dialogs.remove : undefined,
    }),
  ];

  return (
    <AreaListPage
      area="activities"
      list={params}
      columns={columns}
      rows={rows}
      loading={list.isLoading}
      canCreate={holds(viewer, 'CREATE_ACTIVITY')}
      csv={{ path: '/activity', query: {}, fallbackName: 'activities.csv', help: t('table.downloadCsvWholeHelp') }}
      dialogs={dialogs}
      form={(activity, onClose) => <ActivityFormModal activity={activity} onClose={onClose} />}
      load={activityQueryOptions}
      invalidate={activityKeys.all}
      remove={{
        area: 'activities',
        name: (activity) => activity.name,
        call: (activity) => remove.mutateAsync({ id: activity.id }),
        failure: ARCHIVE_ACTIVITY_FAILURE,
      }}
    />
  );
}
