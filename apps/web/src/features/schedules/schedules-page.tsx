import { ActionIcon, Alert, Button, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { isDeletable, isUpdatable, type Schedule } from '@opsdeck/contract/schedules';
import { IconAlertTriangle, IconPencil, IconSettings, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyNames } from '../../components/company-select';
import { type Column, DataTable, type RowId } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { ListPageHeader } from '../../components/list-page-header';
import { holds, isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { type ScheduleFilter, scheduleListQuery, schedulesQueryOptions } from '../../resources/schedules';
import { CreateSchedulesModal } from './create-schedules-modal';
import { DeleteSchedulesModal } from './delete-schedules-modal';
import { fullName, scheduleDate, scheduleShift } from './schedule-format';
import { UpdateSchedulesModal } from './update-schedules-modal';

type Mode = 'update' | 'delete';

// Spec: the schedules list opens on today.
const LIST: ListDefaults = { preset: 'today' };

/**
 * Spec section 2, Schedules: user, date and shift, filtered by user name and date range (today at
 * first); Update and Delete modes select rows past their lock; a create dialog.
 */
export function SchedulesPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const companyNames = useCompanyNames(admin);
  const canCreate = holds(viewer, 'CREATE_SCHEDULE');
  const modes = (['update', 'delete'] as const).filter((mode) =>
    holds(viewer, mode === 'update' ? 'EDIT_SCHEDULE' : 'DELETE_SCHEDULE'),
  );
  const params = useListParams(LIST);
  const filter: ScheduleFilter = { ...params.range, userName: params.search };
  const schedules = useQuery(schedulesQueryOptions(filter));
  const rows = schedules.data ?? [];
  const [mode, setMode] = useState<Mode | null>(null);
  const [selected, setSelected] = useState<RowId[]>([]);
  const [warning, setWarning] = useState(false);
  const [dialog, setDialog] = useState<Mode | 'create' | null>(null);
  // The dialog keeps the rows it opened with while the list refreshes under it.
  const [dialogRows, setDialogRows] = useState<Schedule[]>([]);

  const now = Date.now();
  const selectable = (row: Schedule) => (mode === 'update' ? isUpdatable(row, now) : isDeletable(row, now));
  const chosen = rows.filter((row) => selected.includes(row.id) && selectable(row));

  const enterMode = (next: Mode) => {
    setMode(next);
    setSelected([]);
    setWarning(false);
  };
  const leaveMode = () => {
    setMode(null);
    setSelected([]);
    setWarning(false);
    setDialog(null);
  };
  const act = () => {
    if (chosen.length === 0) setWarning(true);
    else {
      setDialogRows(chosen);
      setDialog(mode);
    }
  };

  const columns: Column<Schedule>[] = [
    { key: 'user', header: t('schedules.user'), value: fullName, sortable: true },
    {
      key: 'date',
      header: t('schedules.date'),
      value: (row) => row.scheduleStart,
      render: scheduleDate,
      sortable: true,
    },
    { key: 'shift', header: t('schedules.shift'), value: scheduleShift, truncate: false },
    // An admin with no company picked sees every company's schedules: say whose they are.
    ...(admin
      ? [
          {
            key: 'company',
            header: t('common.company'),
            value: (row: Schedule) => companyNames.get(row.tenantId) ?? null,
            sortable: true,
          },
        ]
      : []),
  ];

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('schedules.title')}
        searchPlaceholder={t('schedules.searchPlaceholder')}
        list={params}
        serverSearch
        withRange
        initialPreset={LIST.preset}
        csv={{ path: '/schedule', query: scheduleListQuery(filter), fallbackName: 'schedules.csv' }}
        actions={
          modes.length > 0 && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="default" size="lg" aria-label={t('schedules.settings')}>
                  <IconSettings size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {modes.map((item) => (
                  <Menu.Item
                    key={item}
                    leftSection={item === 'update' ? <IconPencil size={16} /> : <IconTrash size={16} />}
                    onClick={() => enterMode(item)}
                  >
                    {t(item === 'update' ? 'schedules.updateMode' : 'schedules.deleteMode')}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )
        }
        create={
          canCreate
            ? { label: t('schedules.create'), withTooltip: false, onClick: () => setDialog('create') }
            : undefined
        }
      />

      {mode && (
        <Paper withBorder p="sm" radius="md" role="region" aria-label={t(`schedules.${mode}Mode`)}>
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Stack gap={2}>
              <Text size="sm">{t(mode === 'update' ? 'schedules.updateHint' : 'schedules.deleteHint')}</Text>
              <Text size="xs" c="dimmed">
                {t('schedules.selectedCount', { count: chosen.length })}
              </Text>
            </Stack>
            <Group gap="sm">
              <Button variant="default" onClick={leaveMode}>
                {t('schedules.cancel')}
              </Button>
              <Button color={mode === 'delete' ? 'red' : undefined} onClick={act}>
                {t(mode === 'update' ? 'schedules.updateSelected' : 'schedules.deleteSelected')}
              </Button>
            </Group>
          </Group>
          {warning && chosen.length === 0 && (
            <Alert mt="sm" color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {t('schedules.nothingSelected')}
            </Alert>
          )}
        </Paper>
      )}

      <DataTable
        {...params.table}
        label={t('schedules.tableLabel')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        loading={schedules.isPending}
        emptyText={t('schedules.empty')}
        selection={
          mode
            ? {
                selectable,
                selected,
                onChange: (ids) => {
                  setSelected(ids);
                  setWarning(false);
                },
                selectAllLabel: t('schedules.selectAll'),
                rowLabel: (row) => t('schedules.selectRow', { name: fullName(row), date: scheduleDate(row) }),
              }
            : undefined
        }
      />

      {dialog === 'create' && <CreateSchedulesModal opened onClose={() => setDialog(null)} />}
      {dialog === 'update' && (
        <UpdateSchedulesModal schedules={dialogRows} onClose={() => setDialog(null)} onDone={leaveMode} />
      )}
      {dialog === 'delete' && (
        <DeleteSchedulesModal schedules={dialogRows} onClose={() => setDialog(null)} onDone={leaveMode} />
      )}
    </Stack>
  );
}
