import { ActionIcon, Affix, Badge, Card, ColorSwatch, Group, Image, Stack, Title, Tooltip } from '@mantine/core';
import type { Status } from '@opsdeck/contract/statuses';
import { IconCheck, IconPencil, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companiesQueryOptions } from '../../components/company-select';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { SearchBar } from '../../components/search-bar/search-bar';
import { holds, isAdmin } from '../../lib/authorities';
import { notifyError } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { statusesQueryOptions, statusKeys, statusQueryOptions } from './api';
import { DeleteStatusModal } from './delete-status';
import { StatusFormModal } from './status-form';

/** The search matches the name, the department or (for admins) the company. */
export function matchesStatus(status: Status, text: string, companyName?: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [status.name, status.department.name, companyName].some((value) => value?.toLowerCase().includes(needle));
}

/** Spec section 2: a threshold of 0 (or none) reads '-'. */
export const thresholdText = (threshold: number | null | undefined) => (threshold ? String(threshold) : '-');

export function StatusesPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Status | null>(null);
  const list = useQuery(statusesQueryOptions());
  const companies = useQuery({ ...companiesQueryOptions(), enabled: admin });
  const companyNames = useMemo(
    () => new Map((companies.data ?? []).map((company) => [company.tenantId, company.name])),
    [companies.data],
  );
  const rows = useMemo(
    () => (list.data ?? []).filter((row) => matchesStatus(row, search, companyNames.get(row.tenantId))),
    [list.data, search, companyNames],
  );

  const canEdit = holds(viewer, 'EDIT_STATUS');
  const canDelete = holds(viewer, 'DELETE_STATUS');
  const columns: Column<Status>[] = [
    {
      key: 'color',
      header: t('statuses.color'),
      width: 70,
      render: (row) => (
        <ColorSwatch color={row.color} size={20} aria-label={t('statuses.colorNamed', { color: row.color })} />
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
    ...(canEdit || canDelete
      ? [
          {
            key: 'actions',
            header: t('statuses.actions'),
            align: 'right' as const,
            width: 110,
            render: (row: Status) =>
              row.editable ? (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  {canEdit && (
                    <Tooltip label={t('statuses.edit')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('statuses.editNamed', { name: row.name })}
                        onClick={() => setEditingId(row.id)}
                      >
                        <IconPencil size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {canDelete && (
                    <Tooltip label={t('statuses.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('statuses.deleteNamed', { name: row.name })}
                        onClick={() => setDeleting(row)}
                      >
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              ) : (
                <Tooltip label={t('statuses.builtInHint')}>
                  <Badge variant="light" color="gray">
                    {t('statuses.builtIn')}
                  </Badge>
                </Tooltip>
              ),
          },
        ]
      : []),
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={26}>
          {t('statuses.title')}
        </Title>
        <div style={{ flex: '0 1 420px' }}>
          <SearchBar
            withRange={false}
            debounceMs={0}
            placeholder={t('statuses.searchPlaceholder')}
            onChange={(value) => setSearch(value.text)}
          />
        </div>
      </Group>
      <Card withBorder radius="md" padding="md">
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('statuses.tableLabel')}
          loading={list.isLoading}
          initialSort={{ key: 'name', direction: 'asc' }}
        />
      </Card>

      {holds(viewer, 'CREATE_STATUS') && (
        <Affix position={{ bottom: 32, right: 32 }}>
          <Tooltip label={t('statuses.create')}>
            <ActionIcon size={56} radius="xl" aria-label={t('statuses.create')} onClick={() => setCreating(true)}>
              <IconPlus size={28} />
            </ActionIcon>
          </Tooltip>
        </Affix>
      )}
      <StatusFormModal opened={creating} onClose={() => setCreating(false)} />
      {editingId !== null && <EditStatus id={editingId} onClose={() => setEditingId(null)} />}
      {deleting && <DeleteStatusModal status={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

/** Loads the status fresh; if that fails the dialog closes and the list reloads (spec section 4). */
function EditStatus({ id, onClose }: { id: number; onClose: () => void }) {
  const queryClient = useQueryClient();
  const detail = useQuery(statusQueryOptions(id));
  useEffect(() => {
    if (!detail.isError) return;
    notifyError(detail.error);
    onClose();
    void queryClient.invalidateQueries({ queryKey: statusKeys.all });
  }, [detail.isError, detail.error, onClose, queryClient]);
  if (!detail.data) return null;
  return <StatusFormModal opened status={detail.data} onClose={onClose} />;
}
