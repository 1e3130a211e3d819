import { Badge, Card, Stack, Text } from '@mantine/core';
import { AUTHORITIES, isAuthority } from '@opsdeck/contract/authorities';
import type { ApiToken, CreatedApiToken } from '@opsdeck/contract/tokens';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { DeleteModal } from '../../components/delete-modal';
import { ListPageHeader } from '../../components/list-page-header';
import { areaActionsColumn } from '../../components/row-actions';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { tokensQueryOptions } from '../../resources/tokens';
import { REVOKE_TOKEN_FAILURE, useRevokeToken } from './api';
import { CreatedTokenModal } from './created-token-modal';
import { TokenFormModal } from './token-form';

const LIST: ListDefaults = { sort: { key: 'createdAt', direction: 'desc' } };

const scopeTitle = (scope: string) => (isAuthority(scope) ? AUTHORITIES[scope] : scope);

type Open = { kind: 'create' } | { kind: 'created'; token: CreatedApiToken } | { kind: 'revoke'; row: ApiToken } | null;

/**
 * The signed-in user's API tokens (docs/security.md, API tokens), reached from the top bar's user
 * menu: each token's scopes, dates and last use; make one (shown once) or revoke one.
 */
export function TokensPage() {
  const { t } = useTranslation();
  const params = useListParams(LIST);
  const list = useQuery(tokensQueryOptions());
  const revoke = useRevokeToken();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const now = Date.now();
  const rows = useMemo(() => {
    const needle = params.search.trim().toLowerCase();
    return (list.data ?? []).filter((row) => !needle || row.name.toLowerCase().includes(needle));
  }, [list.data, params.search]);

  const columns: Column<ApiToken>[] = [
    { key: 'name', header: t('tokens.name'), value: (row) => row.name, sortable: true },
    {
      key: 'scopes',
      header: t('tokens.scopes'),
      priority: 2,
      render: (row) => (
        <Text size="sm" title={row.scopes.map(scopeTitle).join(', ')}>
          {row.scopes.length === 1
            ? scopeTitle(row.scopes[0] ?? '')
            : t('tokens.scopeCount', { count: row.scopes.length })}
        </Text>
      ),
    },
    {
      key: 'createdAt',
      header: t('tokens.created'),
      value: (row) => row.createdAt,
      render: (row) => formatEpoch(row.createdAt, DATE_FORMATS.date),
      sortable: true,
      priority: 3,
    },
    {
      key: 'expiresAt',
      header: t('tokens.expires'),
      value: (row) => row.expiresAt,
      render: (row) =>
        row.expiresAt <= now ? (
          <Badge color="red" variant="light">
            {t('tokens.expired')}
          </Badge>
        ) : (
          formatEpoch(row.expiresAt, DATE_FORMATS.date)
        ),
      sortable: true,
    },
    {
      key: 'lastUsedAt',
      header: t('tokens.lastUsed'),
      value: (row) => row.lastUsedAt,
      render: (row) =>
        row.lastUsedAt === null ? (
          t('tokens.neverUsed')
        ) : (
          <Stack gap={0}>
            <Text size="sm">{formatEpoch(row.lastUsedAt, DATE_FORMATS.dateTime)}</Text>
            {row.lastUsedAddress && (
              <Text size="xs" c="dimmed">
                {t('tokens.fromAddress', { address: row.lastUsedAddress })}
              </Text>
            )}
          </Stack>
        ),
      sortable: true,
      priority: 2,
    },
    ...areaActionsColumn(t, {
      area: 'tokens',
      name: (row: ApiToken) => row.name,
      onDelete: (row) => setOpen({ kind: 'revoke', row }),
    }),
  ];

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('tokens.title')}
        searchPlaceholder={t('tokens.searchPlaceholder')}
        list={params}
        create={{ label: t('tokens.create'), onClick: () => setOpen({ kind: 'create' }) }}
      />
      <Text c="dimmed" size="sm">
        {t('tokens.intro')}
      </Text>
      <Card withBorder radius="md" padding="md">
        <DataTable
          {...params.table}
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('tokens.tableLabel')}
          loading={list.isLoading}
        />
      </Card>
      {open?.kind === 'create' && (
        <TokenFormModal
          // The form closes itself after a success: by then the token's dialog has taken its place.
          onClose={() => setOpen((current) => (current?.kind === 'create' ? null : current))}
          onCreated={(token) => setOpen({ kind: 'created', token })}
        />
      )}
      {open?.kind === 'created' && <CreatedTokenModal token={open.token} onClose={close} />}
      {open?.kind === 'revoke' && (
        <DeleteModal
          area="tokens"
          name={open.row.name}
          remove={() => revoke.mutateAsync(open.row.id)}
          failure={REVOKE_TOKEN_FAILURE}
          success={t('tokens.revoked', { name: open.row.name })}
          onClose={close}
        />
      )}
    </Stack>
  );
}
