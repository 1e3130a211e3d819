import { ActionIcon, Badge, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { CreatedWebhookEndpoint, WebhookEndpoint } from '@opsdeck/contract/webhooks';
import { IconListDetails } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { TenantSectionProps } from '../../components/data-table/use-list-params';
import { DeleteModal } from '../../components/delete-modal';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { DELETE_WEBHOOK_FAILURE, useDeleteWebhook, webhooksQueryOptions } from './api';
import { CreatedWebhookModal } from './created-webhook-modal';
import { DeliveriesModal } from './deliveries-modal';
import { eventLabelKey } from './webhook-events';
import { WebhookFormModal } from './webhook-form';

type Open =
  | { kind: 'create' }
  | { kind: 'created'; endpoint: CreatedWebhookEndpoint }
  | { kind: 'edit'; row: WebhookEndpoint }
  | { kind: 'delete'; row: WebhookEndpoint }
  | { kind: 'deliveries'; id: number }
  | null;

/** An endpoint's state: enabled, or disabled by a person, or by the server (and why). */
export function EndpointStateBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation();
  if (endpoint.enabled)
    return (
      <Badge color="#237a36" variant="filled">
        {t('webhooks.state.enabled')}
      </Badge>
    );
  const reason = endpoint.disabledReason;
  return (
    <Stack gap={2} align="flex-start">
      <Badge color="gray.7" variant="filled">
        {t('webhooks.state.disabled')}
      </Badge>
      {reason && (
        <Text size="xs" c="dimmed">
          {t(`webhooks.disabledShort.${reason === 'gone' || reason === 'failing' ? reason : 'other'}`)}
        </Text>
      )}
    </Stack>
  );
}

/** The search matches the URL, the description or an event type. */
export function matchesEndpoint(endpoint: WebhookEndpoint, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [endpoint.url, endpoint.description, ...endpoint.events].some((value) => value.toLowerCase().includes(needle));
}

function endpointColumns(
  t: TFunction,
  actions: {
    deliveries: (row: WebhookEndpoint) => void;
    edit: (row: WebhookEndpoint) => void;
    remove: (row: WebhookEndpoint) => void;
  },
): Column<WebhookEndpoint>[] {
  return [
    { key: 'url', header: t('webhooks.url'), value: (row) => row.url, sortable: true },
    {
      key: 'description',
      header: t('webhooks.description'),
      value: (row) => row.description || null,
      sortable: true,
      priority: 3,
    },
    {
      key: 'events',
      header: t('webhooks.events'),
      value: (row) => row.events.length,
      render: (row) => (
        <Text size="sm" title={row.events.map((type) => t(eventLabelKey(type))).join(', ')}>
          {row.events.length === 1
            ? t(eventLabelKey(row.events[0] ?? ''))
            : t('webhooks.eventCount', { count: row.events.length })}
        </Text>
      ),
      sortable: true,
      priority: 2,
    },
    {
      key: 'state',
      header: t('webhooks.stateHeader'),
      value: (row) => (row.enabled ? 1 : 0),
      render: (row) => <EndpointStateBadge endpoint={row} />,
      sortable: true,
    },
    {
      key: 'createdAt',
      header: t('webhooks.created'),
      value: (row) => row.createdAt,
      render: (row) => formatEpoch(row.createdAt, DATE_FORMATS.date),
      sortable: true,
      priority: 3,
    },
    {
      ...actionsColumn(t('webhooks.actions'), (row: WebhookEndpoint) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={t('webhooks.deliveries')}>
            <ActionIcon
              variant="subtle"
              aria-label={t('webhooks.deliveriesNamed', { name: row.url })}
              onClick={() => actions.deliveries(row)}
            >
              <IconListDetails size={18} />
            </ActionIcon>
          </Tooltip>
          <RowActions
            editLabel={t('webhooks.editNamed', { name: row.url })}
            editTooltip={t('webhooks.edit')}
            onEdit={() => actions.edit(row)}
            deleteLabel={t('webhooks.deleteNamed', { name: row.url })}
            deleteTooltip={t('webhooks.delete')}
            onDelete={() => actions.remove(row)}
            history={{ entityType: 'webhook', entityId: row.id, name: row.url }}
          />
        </Group>
      )),
      width: 190,
    },
  ];
}

/**
 * A tenant's webhook endpoints (docs/webhooks.md), the same on the webhooks page and on a company's
 * page for the provider: each endpoint's URL, events and state, with its delivery log, edit and
 * delete; a new one's signing secret is shown once.
 */
export function WebhookEndpoints({ tenant, header, search = '', table }: TenantSectionProps) {
  const { t } = useTranslation();
  const list = useQuery(webhooksQueryOptions(tenant));
  const remove = useDeleteWebhook(tenant);
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const rows = useMemo(() => (list.data ?? []).filter((row) => matchesEndpoint(row, search)), [list.data, search]);
  // The log's endpoint as the list has it now: an edit (enabled again) shows in the open log.
  const deliveriesOf = open?.kind === 'deliveries' ? list.data?.find((row) => row.id === open.id) : undefined;

  const columns = endpointColumns(t, {
    deliveries: (row) => setOpen({ kind: 'deliveries', id: row.id }),
    edit: (row) => setOpen({ kind: 'edit', row }),
    remove: (row) => setOpen({ kind: 'delete', row }),
  });

  return (
    <>
      {header(() => setOpen({ kind: 'create' }))}
      <Card withBorder radius="md" padding="md">
        <DataTable
          {...table}
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('webhooks.tableLabel')}
          emptyText={search ? undefined : t('webhooks.empty')}
          loading={list.isLoading}
        />
      </Card>
      {(open?.kind === 'create' || open?.kind === 'edit') && (
        <WebhookFormModal
          tenant={tenant}
          endpoint={open.kind === 'edit' ? open.row : undefined}
          // The form closes itself after a create: by then the secret's dialog has taken its place.
          onClose={() => setOpen((current) => (current?.kind === 'created' ? current : null))}
          onCreated={(endpoint) => setOpen({ kind: 'created', endpoint })}
        />
      )}
      {open?.kind === 'created' && <CreatedWebhookModal endpoint={open.endpoint} onClose={close} />}
      {open?.kind === 'delete' && (
        <DeleteModal
          area="webhooks"
          name={open.row.url}
          remove={() => remove.mutateAsync(open.row.id)}
          failure={DELETE_WEBHOOK_FAILURE}
          onClose={close}
        />
      )}
      {deliveriesOf && <DeliveriesModal tenant={tenant} endpoint={deliveriesOf} onClose={close} />}
    </>
  );
}
