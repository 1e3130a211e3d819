import { Card, SimpleGrid, Text } from '@mantine/core';
import type { Metrics } from '@opsdeck/contract/reports';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function Tile({ label, value, hint, testId }: { label: string; value: ReactNode; hint: string; testId: string }) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Text component="dt" size="sm" c="dimmed" fw={600}>
        {label}
      </Text>
      {/* In a <dl>, the card holds only its term and its definition: the hint is part of the value. */}
      <Text component="dd" m={0}>
        <Text span display="block" fz={32} fw={700} lh={1.2} data-testid={`${testId}-value`}>
          {value}
        </Text>
        <Text span display="block" size="xs" c="dimmed" mt={4}>
          {hint}
        </Text>
      </Text>
    </Card>
  );
}

/** The active agents tile's value: a count, or '—' when the viewer may not watch the agents. */
export type ActiveAgents = { kind: 'count'; count: number | null } | { kind: 'hidden' };

interface ReportTilesProps {
  activeAgents: ActiveAgents;
  /** Undefined while the month's metrics load (or when they failed). */
  metrics: Metrics | undefined;
}

/** Spec section 2: active agents now, failed executions, scheduled and completed workflows. */
export function ReportTiles({ activeAgents, metrics }: ReportTilesProps) {
  const { t } = useTranslation();
  const count = (value: number | undefined | null) => (value === undefined || value === null ? '…' : value);
  const month = t('reports.tiles.thisMonth');
  return (
    <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 4 }} spacing="md" m={0}>
      <Tile
        testId="tile-active-agents"
        label={t('reports.tiles.activeAgents')}
        value={activeAgents.kind === 'hidden' ? '—' : count(activeAgents.count)}
        hint={
          activeAgents.kind === 'hidden'
            ? t('reports.tiles.activeAgentsNoPermission')
            : t('reports.tiles.activeAgentsHint')
        }
      />
      <Tile
        testId="tile-failed"
        label={t('reports.tiles.failed')}
        value={count(metrics?.failedWorkflowCount)}
        hint={month}
      />
      <Tile
        testId="tile-scheduled"
        label={t('reports.tiles.scheduled')}
        value={count(metrics?.scheduledWorkflowCount)}
        hint={month}
      />
      <Tile
        testId="tile-completed"
        label={t('reports.tiles.completed')}
        value={count(metrics?.completedWorkflowCount)}
        hint={month}
      />
    </SimpleGrid>
  );
}
