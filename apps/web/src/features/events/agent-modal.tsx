import { Alert, Badge, Button, Modal, Tabs, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { AgentConnection, AgentWorkflow, QueuedWorkflow } from '@opsdeck/contract/live';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/confirm-modal';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { Truncate } from '../../components/truncate';
import { ApiError } from '../../lib/api-client';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import type { FailurePolicy } from '../../lib/failure-policy';
import { errorText } from '../../lib/i18n';
import type { LiveSource } from '../../lib/live/live-source';
import { isRunning } from '../../lib/live/live-state';
import { truncateText } from '../../lib/truncate';
import { ordinal } from './ordinal';
import { QueueStatusBadge } from './queue-status-badge';

type Tab = 'workflows' | 'active';

type Command = { kind: 'execute'; workflow: AgentWorkflow } | { kind: 'terminate' | 'unqueue'; item: QueuedWorkflow };
/** What the confirm dialog is about to do, to the session of the agent it was asked on. */
type Action = Command & { sessionId: string };

/** A refusal or a lost connection closes the dialog with its text in a toast (spec section 8). */
const COMMAND_FAILURE: FailurePolicy = { otherwise: 'server' };

interface AgentModalProps {
  opened: boolean;
  /** The agent, read from the live state: null once it (or the connection) is gone. */
  agent: AgentConnection | null;
  name: string;
  canCommand: boolean;
  source: LiveSource | null;
  onClose: () => void;
}

/** 'View all': the agent's workflows to execute, and its running and queued items (spec section 2). */
/** The commands column of a tab's table, there only for someone who may command the agent. */
function commandColumn<T>(canCommand: boolean, header: string, render: (row: T) => ReactNode): Column<T>[] {
  return canCommand ? [{ key: 'actions', header, align: 'right', priority: 1, render }] : [];
}

export function AgentModal({ opened, agent, name, canCommand, source, onClose }: AgentModalProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('workflows');
  const [action, setAction] = useState<Action | null>(null);
  const queue = agent?.queuedWorkflows ?? [];
  const ask = (command: Command) => {
    if (agent) setAction({ ...command, sessionId: agent.sessionId });
  };

  const workflowColumns: Column<AgentWorkflow>[] = [
    { key: 'name', header: t('events.modal.columns.name'), value: (row) => row.name, sortable: true, priority: 1 },
    {
      key: 'lastExecution',
      header: t('events.modal.columns.lastExecution'),
      value: (row) => row.lastExecution,
      render: (row) => formatEpoch(row.lastExecution, DATE_FORMATS.dateTime),
      sortable: true,
      priority: 2,
    },
    ...commandColumn<AgentWorkflow>(canCommand, t('events.modal.columns.actions'), (row) => (
      <Button variant="subtle" size="compact-sm" onClick={() => ask({ kind: 'execute', workflow: row })}>
        {t('events.actions.execute')}
      </Button>
    )),
  ];

  const queueColumns: Column<QueuedWorkflow>[] = [
    { key: 'name', header: t('events.modal.columns.name'), value: (row) => row.name, priority: 1 },
    {
      key: 'status',
      header: t('events.modal.columns.status'),
      priority: 2,
      render: (row) => <QueueStatusBadge item={row} />,
    },
    {
      key: 'executionStart',
      header: t('events.modal.columns.executionStart'),
      priority: 2,
      render: (row) => formatEpoch(row.executionStart, DATE_FORMATS.dateTime),
    },
    {
      key: 'position',
      header: t('events.modal.columns.position'),
      priority: 1,
      render: (row) => ordinal(row.position),
    },
    ...commandColumn<QueuedWorkflow>(canCommand, t('events.modal.columns.actions'), (row) => {
      const kind = isRunning(row) ? 'terminate' : 'unqueue';
      return (
        <Button
          variant="subtle"
          color={kind === 'terminate' ? 'red' : undefined}
          size="compact-sm"
          onClick={() => ask({ kind, item: row })}
        >
          {t(`events.actions.${kind}`)}
        </Button>
      );
    }),
  ];

  const close = () => {
    setAction(null);
    setTab('workflows');
    onClose();
  };

  return (
    <>
      <Modal
        opened={opened}
        onClose={close}
        size="xl"
        centered
        title={<Truncate text={name} max={LIMITS.truncate.modalName} fw={600} />}
        closeButtonProps={{ 'aria-label': t('modal.close') }}
      >
        {agent ? (
          <Text size="sm" c="dimmed" ff="monospace" mb="sm">
            {agent.macAddress} · {agent.hostname}
          </Text>
        ) : (
          <Alert color="gray" mb="sm">
            {t('events.modal.agentGone')}
          </Alert>
        )}
        <Tabs value={tab} onChange={(value) => setTab(value === 'active' ? 'active' : 'workflows')} keepMounted={false}>
          <Tabs.List aria-label={t('events.modal.tabs', { name })}>
            <Tabs.Tab value="workflows">{t('events.modal.workflowList')}</Tabs.Tab>
            <Tabs.Tab
              value="active"
              rightSection={
                <Badge size="sm" circle={queue.length < 10} variant="filled" data-testid="active-count">
                  {queue.length}
                </Badge>
              }
            >
              {t('events.modal.active')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="workflows" pt="md">
            <DataTable
              columns={workflowColumns}
              rows={agent?.workflows ?? []}
              rowKey={(row) => row.id}
              label={t('events.modal.workflowList')}
              initialSort={{ key: 'name', direction: 'asc' }}
              emptyText={errorText('ERROR_WORKFLOW_EVENTS_WORKFLOW_LIST_EMPTY')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="active" pt="md">
            <DataTable
              columns={queueColumns}
              rows={queue}
              rowKey={(row) => row.id}
              label={t('events.modal.active')}
              emptyText={t('events.noEvents')}
            />
          </Tabs.Panel>
        </Tabs>
      </Modal>
      {action && <CommandConfirm action={action} agentName={name} source={source} onClose={() => setAction(null)} />}
    </>
  );
}

interface CommandConfirmProps {
  action: Action;
  agentName: string;
  source: LiveSource | null;
  onClose: () => void;
}

/** The confirmation before a command; the command goes over the live channel, answered by RECEIPT or a refusal. */
/**
 * It stays open if the agent or the connection goes meanwhile: confirming then says why the command
 * cannot go (ERROR_WEBSOCKET_CONNECTION_FAILURE, ERROR_AGENT_NOT_CONNECTED).
 */
function CommandConfirm({ action, agentName, source, onClose }: CommandConfirmProps) {
  const { t } = useTranslation();
  const itemName = action.kind === 'execute' ? action.workflow.name : action.item.name;
  const names = {
    name: truncateText(itemName, LIMITS.truncate.modalName),
    agent: truncateText(agentName, LIMITS.truncate.modalName),
  };
  const run = () => {
    if (!source) return Promise.reject(new ApiError(0, 'ERROR_WEBSOCKET_CONNECTION_FAILURE', ''));
    if (action.kind === 'execute') return source.execute(action.sessionId, action.workflow.id);
    return source.terminate(action.sessionId, action.item.workflowId, action.item.id);
  };
  return (
    <ConfirmModal
      opened
      onClose={onClose}
      title={t(`events.confirm.${action.kind}Title`)}
      onConfirm={run}
      success={t(`events.done.${action.kind}`, { name: truncateText(itemName, LIMITS.truncate.toastName) })}
      failure={COMMAND_FAILURE}
      confirmLabel={t(`events.actions.${action.kind}`)}
      danger={action.kind !== 'execute'}
    >
      <Text>{t(`events.confirm.${action.kind}Body`, names)}</Text>
    </ConfirmModal>
  );
}
