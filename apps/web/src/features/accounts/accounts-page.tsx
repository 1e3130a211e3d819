import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import {
  ACCOUNT_SORT_FIELDS,
  type Account,
  type AccountSortField,
  type GeneratedAccount,
} from '@opsdeck/contract/accounts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import type { SortState } from '../../components/data-table/table-state';
import { useListParams } from '../../components/data-table/use-list-params';
import { DeleteModal } from '../../components/delete-modal';
import { rowHistory } from '../../components/history-link';
import { ListPageHeader } from '../../components/list-page-header';
import { areaActionsColumn } from '../../components/row-actions';
import { holds } from '../../lib/authorities';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { useViewer } from '../../lib/profile-context';
import { accountsPageQueryOptions } from '../../resources/accounts';
import { listQuery } from '../../resources/rest-resource';
import { KEY_CHANGE_FAILURE, SOLO_ARCHIVE_FAILURE, useDeleteKey, useInvalidateSoloLicense } from './api';
import { GeneratedKeyModal } from './generated-key-modal';
import { MacAddresses } from './mac-addresses';
import { SoloAccountFormModal } from './solo-account-form';

const DEFAULT_SORT: SortState = { key: 'fullName', direction: 'asc' };
const LIST: ListDefaults = { sort: DEFAULT_SORT, sortKeys: ACCOUNT_SORT_FIELDS };

type Dialog = { kind: 'create' } | { kind: 'delete'; row: Account } | null;

const accountName = (row: Account) => row.fullName || row.partialKey;

/**
 * Spec section 2, Accounts: every account the caller may see, 10 a page, paged, sorted and
 * searched by the server (URL-held, useListParams). A company account's delete removes its key;
 * a solo account's invalidates its solo licence (its own dialog). The provider adds solo accounts.
 *
 * It composes the list page's parts rather than AreaListPage: accounts are never edited (no row to
 * load), and one table holds two kinds of delete.
 */
export function AccountsPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const params = useListParams(LIST);
  const sort = params.sort ?? DEFAULT_SORT;
  const filter = { sort: { field: sort.key as AccountSortField, direction: sort.direction }, search: params.search };
  const list = useQuery(accountsPageQueryOptions({ page: params.page, ...filter }));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [generated, setGenerated] = useState<GeneratedAccount | null>(null);
  const deleteKey = useDeleteKey();
  const archiveSolo = useInvalidateSoloLicense();

  const columns: Column<Account>[] = [
    {
      key: 'type',
      header: t('accounts.type'),
      value: (row) => row.type.key,
      render: (row) => (
        <Group gap={4} wrap="nowrap">
          <Badge color={row.type.key === 'solo' ? 'grape' : 'indigo'} variant="light">
            {t(`accounts.types.${row.type.key}`)}
          </Badge>
          {row.invalidated && (
            <Badge color="red" variant="light">
              {t('accounts.invalidated')}
            </Badge>
          )}
        </Group>
      ),
      sortable: true,
      width: 120,
    },
    { key: 'fullName', header: t('accounts.fullName'), value: (row) => row.fullName, sortable: true },
    { key: 'email', header: t('accounts.email'), value: (row) => row.emailAddress, sortable: true, priority: 2 },
    {
      key: 'macAddresses',
      header: t('accounts.macAddresses'),
      render: (row) => <MacAddresses addresses={row.macAddresses} />,
      priority: 3,
    },
    {
      key: 'expiration',
      header: t('accounts.expiration'),
      value: (row) => row.license.expirationDate,
      render: (row) => formatEpoch(row.license.expirationDate, DATE_FORMATS.longDateTime),
      sortable: true,
      priority: 2,
    },
    // Every row told apart before it is deleted, a generated key with no person yet included: its
    // partial key, and whose it is (the company, the licence, the department).
    {
      key: 'partialKey',
      header: t('accounts.key'),
      render: (row) => (
        <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {row.partialKey}
        </Text>
      ),
    },
    {
      key: 'owner',
      header: t('accounts.owner'),
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm">{row.license.company?.name ?? t('accounts.types.solo')}</Text>
          <Text size="xs" c="dimmed">
            {[row.license.label || row.license.type.name, row.departmentName].filter(Boolean).join(' · ')}
          </Text>
        </Stack>
      ),
      priority: 2,
    },
    ...areaActionsColumn(t, {
      area: 'accounts',
      name: accountName,
      onDelete: holds(viewer, 'DELETE_ACCOUNT') ? (row: Account) => setDialog({ kind: 'delete', row }) : undefined,
      history: rowHistory(viewer, 'account', accountName),
    }),
  ];

  const open = dialog?.kind === 'delete' ? dialog.row : null;
  const company = open?.license.company;

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('accounts.title')}
        searchPlaceholder={t('accounts.searchPlaceholder')}
        serverSearch
        list={params}
        csv={{ path: '/account', query: listQuery(filter), fallbackName: 'accounts.csv' }}
        create={
          holds(viewer, 'CREATE_LICENSE')
            ? { label: t('accounts.solo.create'), onClick: () => setDialog({ kind: 'create' }) }
            : undefined
        }
      />
      <Card withBorder radius="md" padding="md">
        <DataTable
          mode="server"
          {...params.table}
          columns={columns}
          rows={list.data?.items ?? []}
          total={list.data?.total ?? 0}
          rowKey={(row) => row.id}
          label={t('accounts.tableLabel')}
          loading={list.isLoading || list.isPlaceholderData}
        />
      </Card>

      {dialog?.kind === 'create' && (
        <SoloAccountFormModal
          onClose={(account) => {
            setDialog(null);
            if (account) setGenerated(account);
          }}
        />
      )}
      {generated && <GeneratedKeyModal account={generated} onClose={() => setGenerated(null)} />}
      {open?.type.key === 'company' && company && (
        <DeleteModal
          area="accounts"
          name={accountName(open)}
          remove={() =>
            deleteKey.mutateAsync({
              scope: { company: company.id, license: open.license.id, tenant: company.tenantId },
              account: open.id,
            })
          }
          failure={KEY_CHANGE_FAILURE}
          onClose={() => setDialog(null)}
        />
      )}
      {open?.type.key === 'solo' && (
        <DeleteModal
          area="accounts.solo"
          name={accountName(open)}
          remove={() => archiveSolo.mutateAsync(open.license.id)}
          failure={SOLO_ARCHIVE_FAILURE}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
