import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ExecutionException } from '@opsdeck/contract/reports';
import { REPORT_ERRORS_PANEL, REPORT_EVENTS_PANEL } from '@opsdeck/contract/reports';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIST_KEYS } from '../../components/data-table/list-params';
import { holds, holdsAny } from '../../lib/authorities';
import { useLiveSnapshot } from '../../lib/live/live-source';
import { useLiveSource } from '../../lib/live/use-live-source';
import { PATHS, type PathKey } from '../../lib/paths';
import { useViewer } from '../../lib/profile-context';
import { activeAgentsQueryOptions } from '../../resources/agents';
import {
  metricsQueryOptions,
  newestExecutionsQueryOptions,
  totalHoursQueryOptions,
  useCountsQueryOptions,
} from '../../resources/reports';
import { ExecutedTimeCard } from './executed-time-card';
import { ExecutionDetailsModal } from './execution-details-modal';
import { RefreshIndicator } from './refresh-indicator';
import { QueryContent, ReportPanel } from './report-panel';
import { AgentEvents, ErrorsTable, MostUsedTable, TotalTimeSummary } from './report-panels';
import { browserTimeZone, currentMonth } from './report-range';
import { type ActiveAgents, ReportTiles } from './report-tiles';
import { POLL_MS, useReportRefresh } from './use-report-refresh';

/** Scheduled runs come from the agents' queues, which no execution notice tells of: read them again this often. */
const METRICS_POLL_MS = 60_000;

/**
 * Spec section 2, Agent report: four tiles, the executed minutes per day of the current month (the
 * browser's month, first to last millisecond), and the Most Used Workflows, Total Executed Time,
 * Workflow Errors and Events panels, each with its View All link. New runs refresh it live (or by
 * polling without the live channel); the Events panel and the active agents follow the channel.
 */
export function AgentReportPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const [month] = useState(() => currentMonth());
  const tz = useMemo(browserTimeZone, []);
  const canWatch = holds(viewer, 'VIEW_WORKFLOW_EVENTS');
  const canSeeErrors = holds(viewer, 'VIEW_ERROR_LOGS') || holds(viewer, 'ACCESS_AGENT_REPORT_TAB');

  const source = useLiveSource(canWatch);
  const { connection, live } = useLiveSnapshot(source);
  const liveAgents = source !== null && connection.status === 'connected';
  const refresh = useReportRefresh(source, month);
  const refetchInterval = refresh.refetchInterval;

  const metrics = useQuery({
    ...metricsQueryOptions(month),
    refetchInterval: refresh.mode === 'past' ? false : Math.min(refetchInterval || METRICS_POLL_MS, METRICS_POLL_MS),
  });
  const useCounts = useQuery({ ...useCountsQueryOptions(month), refetchInterval });
  const totalHours = useQuery({ ...totalHoursQueryOptions(month, tz), refetchInterval });
  const errors = useQuery({
    ...newestExecutionsQueryOptions('exceptions', month, REPORT_ERRORS_PANEL),
    enabled: canSeeErrors,
    refetchInterval,
  });
  // The agents by HTTP while the live channel is not up (connecting, reconnecting, refused).
  const polledAgents = useQuery({
    ...activeAgentsQueryOptions(),
    enabled: canWatch && !liveAgents,
    refetchInterval: POLL_MS,
  });
  const agents = liveAgents ? live.agents : polledAgents.data;
  const activeAgents: ActiveAgents = canWatch ? { kind: 'count', count: agents?.length ?? null } : { kind: 'hidden' };

  const [openRun, setOpenRun] = useState<ExecutionException | null>(null);
  const monthLabel = dayjs(month.from).format('MMMM YYYY');
  const today = dayjs().format('YYYY-MM-DD');
  // A View All link only where the viewer may go; the list pages open on this month.
  const linkTo = (key: PathKey, thisMonth: boolean) =>
    holdsAny(viewer, PATHS[key].authorities)
      ? `${PATHS[key].pattern}${thisMonth ? `?${LIST_KEYS.range}=thisMonth` : ''}`
      : undefined;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" wrap="wrap" gap="md">
        <div>
          <Title order={1} fz={26}>
            {t('reports.agent.title')}
          </Title>
          <Text c="dimmed" size="sm" data-testid="report-month">
            {monthLabel}
          </Text>
        </div>
        <RefreshIndicator mode={refresh.mode} />
      </Group>

      <ReportTiles activeAgents={activeAgents} metrics={metrics.data} />

      <QueryContent query={totalHours}>
        {(entries) => <ExecutedTimeCard entries={entries} month={monthLabel} />}
      </QueryContent>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ReportPanel
          title={t('reports.mostUsed.title')}
          viewAll={linkTo('workflowLogs', true)}
          testId="panel-most-used"
        >
          <QueryContent query={useCounts}>{(rows) => <MostUsedTable rows={rows} />}</QueryContent>
        </ReportPanel>
        <ReportPanel
          title={t('reports.totalTime.title')}
          viewAll={linkTo('workflowLogs', true)}
          testId="panel-total-time"
        >
          <QueryContent query={totalHours}>
            {(entries) => <TotalTimeSummary entries={entries} today={today} />}
          </QueryContent>
        </ReportPanel>
        {canSeeErrors && (
          <ReportPanel title={t('reports.errors.title')} viewAll={linkTo('workflowErrors', true)} testId="panel-errors">
            <QueryContent query={errors}>{(rows) => <ErrorsTable rows={rows} onOpen={setOpenRun} />}</QueryContent>
          </ReportPanel>
        )}
        {canWatch && (
          <ReportPanel
            title={t('reports.events.title')}
            viewAll={linkTo('workflowEvents', false)}
            testId="panel-events"
          >
            <AgentEvents agents={agents} limit={REPORT_EVENTS_PANEL} />
          </ReportPanel>
        )}
      </SimpleGrid>
      <ExecutionDetailsModal run={openRun} onClose={() => setOpenRun(null)} />
    </Stack>
  );
}
