import { Alert, Badge, Button, Code, Group, Modal, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { WebhookDelivery, WebhookEndpoint } from '@opsdeck/contract/webhooks';
import { IconRefresh, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { isApiError } from '../../lib/api-client';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { errorText } from '../../lib/i18n';
import { notifyError, notifySuccess } from '../../lib/notify';
import { truncateText } from '../../lib/truncate';
import type { Tenant } from '../../resources/tenant';
import { DELIVERIES_PAGE_SIZE, deliveriesQueryOptions, useRedeliver, useSendTestEvent } from './api';
import { eventLabelKey } from './webhook-events';

/** While a delivery on the page is still pending, the log is read again each second; else every few. */
export const POLL_PENDING_MS = 1_000;
export const POLL_IDLE_MS = 4_000;

/**
 * A delivery's status, white on a dark shade (4.5:1 or more, as the run status badge): pending
 * blue, succeeded green, failed red.
 */
const STATUS_COLORS: Record<WebhookDelivery['status'], string> = {
  pending: 'blue.9',
  succeeded: '#237a36',
  failed: 'red.9',
};

export function DeliveryStatusBadge({ status }: { status: WebhookDelivery['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant="filled" data-status={status}>
      {t(`webhooks.deliveryStatus.${status}`)}
    </Badge>
  );
}

const time = (epoch: number | null) => (
  <span style={{ whiteSpace: 'nowrap' }}>{formatEpoch(epoch, DATE_FORMATS.log)}</span>
);

function deliveryColumns(t: TFunction, redeliver: (row: WebhookDelivery) => void, busy: number | null) {
  const columns: Column<WebhookDelivery>[] = [
    { key: 'at', header: t('webhooks.columns.at'), render: (row) => time(row.at) },
    {
      key: 'eventType',
      header: t('webhooks.columns.eventType'),
      render: (row) => (
        <Text size="sm" ff="monospace" title={t(eventLabelKey(row.eventType), { defaultValue: row.eventType })}>
          {row.eventType}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t('webhooks.columns.status'),
      render: (row) => <DeliveryStatusBadge status={row.status} />,
    },
    { key: 'statusCode', header: t('webhooks.columns.statusCode'), value: (row) => row.statusCode },
    {
      key: 'durationMs',
      header: t('webhooks.columns.duration'),
      value: (row) => (row.durationMs === null ? null : t('webhooks.durationMs', { ms: row.durationMs })),
      priority: 2,
    },
    { key: 'attempt', header: t('webhooks.columns.attempt'), value: (row) => row.attempt, priority: 3 },
    {
      key: 'nextAttemptAt',
      header: t('webhooks.columns.nextAttempt'),
      render: (row) => time(row.nextAttemptAt),
      priority: 3,
    },
    {
      key: 'actions',
      header: t('webhooks.actions'),
      align: 'right',
      render: (row) => (
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconRefresh size={14} aria-hidden="true" />}
          loading={busy === row.id}
          // The row's click shows its response: the button's own click does not.
          onClick={(event) => {
            event.stopPropagation();
            redeliver(row);
          }}
          onKeyDown={(event) => event.stopPropagation()}
        >
          {t('webhooks.redeliver')}
        </Button>
      ),
    },
  ];
  return columns;
}

/** The first 1 KiB of a delivery's last answer, or why there was none, under the table. */
function ResponsePanel({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Stack gap={4} component="section" aria-labelledby={titleId}>
      <Title order={3} fz="md" id={titleId}>
        {t('webhooks.responseOf', {
          type: delivery.eventType,
          at: formatEpoch(delivery.lastAttemptAt ?? delivery.at, DATE_FORMATS.log),
        })}
      </Title>
      {delivery.response ? (
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {delivery.response}
        </Code>
      ) : (
        <Text size="sm" c="dimmed">
          {delivery.status === 'pending' && delivery.attempt === 0
            ? t('webhooks.notYetSent')
            : t('webhooks.noResponse')}
        </Text>
      )}
    </Stack>
  );
}

interface DeliveriesModalProps {
  tenant: Tenant;
  endpoint: WebhookEndpoint;
  onClose: () => void;
}

/**
 * An endpoint's delivery log, newest first, 10 a page as the server pages it: each delivery's
 * time, event, status, HTTP status, duration, attempts and next attempt; a row's click (or Enter)
 * shows the first 1 KiB of its answer, and its 'Redeliver' sends the event again. 'Send test event'
 * queues a `webhook.test`; the log is read again every few seconds while open (each second while a
 * delivery is pending), so an outcome shows without a reload.
 */
export function DeliveriesModal({ tenant, endpoint, onClose }: DeliveriesModalProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<number | null>(null);
  const [redelivering, setRedelivering] = useState<number | null>(null);
  const log = useQuery({
    ...deliveriesQueryOptions(tenant, endpoint.id, page),
    refetchInterval: (query) =>
      query.state.data?.items.some((delivery) => delivery.status === 'pending') ? POLL_PENDING_MS : POLL_IDLE_MS,
  });
  const sendTest = useSendTestEvent(tenant);
  const redeliver = useRedeliver(tenant);
  const rows = log.data?.items ?? [];
  const selected = rows.find((row) => row.id === shown);

  const test = async () => {
    try {
      await sendTest.mutateAsync(endpoint.id);
      notifySuccess(t('webhooks.testQueued'));
      setPage(1);
    } catch (error) {
      notifyError(error, endpoint.url);
    }
  };

  const again = async (row: WebhookDelivery) => {
    setRedelivering(row.id);
    try {
      await redeliver.mutateAsync(row.id);
      notifySuccess(t('webhooks.redeliverQueued', { type: row.eventType }));
      setPage(1);
    } catch (error) {
      notifyError(error, row.eventType);
    } finally {
      setRedelivering(null);
    }
  };

  const toggleOnKey = (row: WebhookDelivery) => (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    setShown((current) => (current === row.id ? null : row.id));
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="80rem"
      centered
      title={t('webhooks.deliveriesTitle', { name: truncateText(endpoint.url, LIMITS.truncate.modalName) })}
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      <Stack gap="md">
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed">
            {t('webhooks.deliveriesIntro')}
          </Text>
          <Button
            leftSection={<IconSend size={16} aria-hidden="true" />}
            onClick={test}
            loading={sendTest.isPending}
            disabled={!endpoint.enabled}
            // The dialog opens on its action, not on its close button.
            data-autofocus
          >
            {t('webhooks.sendTest')}
          </Button>
        </Group>
        {!endpoint.enabled && (
          <Alert color="orange" variant="light">
            {t('webhooks.testNeedsEnabled')}
          </Alert>
        )}
        {log.isError && (
          <Alert color="red" title={t('webhooks.deliveriesFailed')}>
            {errorText(isApiError(log.error) ? log.error.errorKey : 'ERROR_GENERAL_INTERNAL')}
          </Alert>
        )}
        <VisuallyHidden id={hintId}>{t('webhooks.rowHint')}</VisuallyHidden>
        <DataTable
          mode="server"
          columns={deliveryColumns(t, again, redelivering)}
          rows={rows}
          total={log.data?.total ?? 0}
          totalCapped={log.data?.totalCapped}
          page={page}
          onPageChange={setPage}
          sort={null}
          onSortChange={() => {}}
          pageSize={DELIVERIES_PAGE_SIZE}
          rowKey={(row) => row.id}
          label={t('webhooks.deliveriesLabel')}
          emptyText={t('webhooks.noDeliveries')}
          loading={log.isLoading}
          onRowClick={(row) => setShown((current) => (current === row.id ? null : row.id))}
          rowProps={(row) => ({
            tabIndex: 0,
            onKeyDown: toggleOnKey(row),
            'aria-describedby': hintId,
            'data-delivery-status': row.status,
            // The row whose response shows below (aria-expanded is for a treegrid's rows, not a table's).
            'data-shown': row.id === shown,
            style: { cursor: 'pointer', background: row.id === shown ? 'var(--mantine-color-indigo-0)' : undefined },
          })}
        />
        {selected && <ResponsePanel delivery={selected} />}
      </Stack>
    </Modal>
  );
}
