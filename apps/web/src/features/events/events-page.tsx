import { Alert, Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { holds } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { useLiveSnapshot } from '../../lib/live/live-source';
import { agentName } from '../../lib/live/live-state';
import { useLiveSource } from '../../lib/live/use-live-source';
import { useViewer } from '../../lib/profile-context';
import { AgentCard } from './agent-card';
import { AgentModal } from './agent-modal';
import { ConnectionBadge } from './connection-badge';

/**
 * Workflow events (spec section 2): one card per connected agent, live from the agent channel.
 * Everything shown comes from the channel's messages, so changes appear without a reload.
 */
export function EventsPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  // The server refuses a console without VIEW_WORKFLOW_EVENTS; commands also need VIEW_WORKFLOW.
  const canWatch = holds(viewer, 'VIEW_WORKFLOW_EVENTS');
  const canCommand = canWatch && holds(viewer, 'VIEW_WORKFLOW');
  const source = useLiveSource(canWatch);
  const { connection, live } = useLiveSnapshot(source);
  const [openSession, setOpenSession] = useState<string | null>(null);

  const fallbackName = t('events.agentUser');
  // An admin watching every company sees several companies' agents: each card names its company.
  const watchingAll = live.identity !== null && live.identity.tenantId === null;
  const openAgent = live.agents.find((agent) => agent.sessionId === openSession) ?? null;
  const [openName, setOpenName] = useState('');
  const modalName = openAgent ? agentName(openAgent, fallbackName) : openName;

  if (!canWatch) {
    return (
      <Stack gap="lg">
        <Title order={1} fz={26}>
          {t('events.title')}
        </Title>
        <Text c="dimmed">{t('events.noPermission')}</Text>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" wrap="wrap" gap="md">
        <Title order={1} fz={26}>
          {t('events.title')}
        </Title>
        <ConnectionBadge status={connection.status} />
      </Group>

      {connection.status === 'refused' && (
        <Alert color="red" title={t('events.connection.refused')} data-testid="live-error">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{errorText(connection.errorKey ?? 'ERROR_WEBSOCKET_CONNECTION_FAILURE')}</Text>
            {connection.errorKey !== 'ERROR_UNAUTHORIZED' && (
              <Button size="compact-sm" variant="light" color="red" onClick={() => source?.retry()}>
                {t('events.connection.retry')}
              </Button>
            )}
          </Stack>
        </Alert>
      )}

      {live.agents.length === 0 ? (
        connection.status === 'connected' ? (
          <Text c="dimmed">{t('events.noAgents')}</Text>
        ) : (
          connection.status !== 'refused' && <Text c="dimmed">{t('events.waiting')}</Text>
        )
      ) : (
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3, xl: 4 }}
          spacing="md"
          component="section"
          aria-label={t('events.card.agents')}
        >
          {live.agents.map((agent) => {
            const name = agentName(agent, fallbackName);
            return (
              <AgentCard
                key={agent.sessionId}
                agent={agent}
                name={name}
                showCompany={watchingAll}
                onViewAll={() => {
                  setOpenName(name);
                  setOpenSession(agent.sessionId);
                }}
              />
            );
          })}
        </SimpleGrid>
      )}

      <AgentModal
        opened={openSession !== null}
        agent={openAgent}
        name={modalName}
        canCommand={canCommand}
        source={source}
        onClose={() => setOpenSession(null)}
      />
    </Stack>
  );
}
