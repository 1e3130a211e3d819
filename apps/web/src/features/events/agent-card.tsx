import { Button, Card, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { AgentConnection, QueuedWorkflow } from '@opsdeck/contract/live';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Truncate } from '../../components/truncate';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { isRunning } from '../../lib/live/live-state';
import { QueueStatusBadge } from './queue-status-badge';

/** Spec section 9: an agent card shows its first 2 queued workflows. */
export const CARD_QUEUE_ITEMS = 2;

interface AgentCardProps {
  agent: AgentConnection;
  /** The agent's name, or 'Agent User'. */
  name: string;
  /** Shown for an admin watching every company, where cards of several companies mix. */
  showCompany: boolean;
  onViewAll: () => void;
}

/** One connected agent: who and where it is, the head of its queue, and the way to the rest. */
export function AgentCard({ agent, name, showCompany, onViewAll }: AgentCardProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const shown = agent.queuedWorkflows.slice(0, CARD_QUEUE_ITEMS);
  const rest = agent.queuedWorkflows.length - shown.length;
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="article"
      aria-labelledby={titleId}
      data-testid="agent-card"
      data-mac={agent.macAddress}
      data-session={agent.sessionId}
    >
      <Stack gap="sm" h="100%">
        <div>
          <Title order={2} fz="lg" id={titleId}>
            <Truncate text={name} max={LIMITS.truncate.modalName} />
          </Title>
          <Text size="sm" c="dimmed" ff="monospace" data-testid="agent-mac">
            <VisuallyHidden>{t('events.card.mac')}: </VisuallyHidden>
            {agent.macAddress}
          </Text>
          <Text size="sm" c="dimmed">
            <VisuallyHidden>{t('events.card.hostname')}: </VisuallyHidden>
            {agent.hostname}
          </Text>
          {showCompany && agent.companyName && (
            <Text size="sm" c="dimmed">
              <VisuallyHidden>{t('events.card.company')}: </VisuallyHidden>
              <Truncate text={agent.companyName} max={LIMITS.truncate.companyName} />
            </Text>
          )}
        </div>
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed" style={{ flex: 1 }}>
            {t('events.noEvents')}
          </Text>
        ) : (
          <Stack
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none', flex: 1 }}
            aria-label={t('events.card.queue', { name })}
          >
            {shown.map((item) => (
              <QueueItem key={item.id} item={item} />
            ))}
          </Stack>
        )}
        <Group justify="space-between" align="center">
          {rest > 0 ? (
            <Text size="sm" fw={500} data-testid="queue-more">
              {t('events.card.more', { count: rest })}
            </Text>
          ) : (
            <span />
          )}
          <Button variant="subtle" size="compact-sm" onClick={onViewAll} aria-describedby={titleId}>
            {t('events.card.viewAll')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function QueueItem({ item }: { item: QueuedWorkflow }) {
  const { t } = useTranslation();
  const running = isRunning(item);
  return (
    <li data-testid="queue-item" data-status={running ? 'running' : 'queued'}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text size="sm" fw={500} style={{ minWidth: 0 }}>
          <Truncate text={item.name} max={LIMITS.truncate.tableContent} />
        </Text>
        <QueueStatusBadge item={item} showPosition />
      </Group>
      {running && (
        <Text size="xs" c="dimmed">
          {t('events.item.started', { date: formatEpoch(item.executionStart, DATE_FORMATS.dateTime) })}
        </Text>
      )}
    </li>
  );
}
