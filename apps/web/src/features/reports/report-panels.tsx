import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { AgentConnection } from '@opsdeck/contract/live';
import type { ExecutionException, ExecutionTimeEntry, UseCount } from '@opsdeck/contract/reports';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { Truncate } from '../../components/truncate';
import { formatMinutes } from '../../lib/dates';
import { agentName, isRunning } from '../../lib/live/live-state';
import { formatLogDate } from './execution-columns';
import { hoursAndMinutes, summarizeExecutedTime } from './report-format';

function EmptyText({ children }: { children: string }) {
  return (
    <Text c="dimmed" size="sm">
      {children}
    </Text>
  );
}

/** Most Used Workflows: the month's most used workflows, most used first. */
export function MostUsedTable({ rows }: { rows: readonly UseCount[] }) {
  const { t } = useTranslation();
  if (rows.length === 0) return <EmptyText>{t('reports.mostUsed.empty')}</EmptyText>;
  const columns: Column<UseCount>[] = [
    { key: 'workflowName', header: t('reports.mostUsed.workflow'), value: (row) => row.workflowName },
    {
      key: 'useCount',
      header: t('reports.mostUsed.useCount'),
      value: (row) => row.useCount,
      align: 'right',
      width: 110,
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(row) => row.workflowName}
      label={t('reports.mostUsed.title')}
      pageSize={Math.max(rows.length, 1)}
    />
  );
}

/** A duration as '12 h 5 min', or under an hour in minutes to one decimal ('42.5 min', spec section 9). */
export function useDurationText() {
  const { t } = useTranslation();
  return (milliseconds: number) =>
    milliseconds < 3_600_000
      ? t('reports.totalTime.minutesOnly', { minutes: formatMinutes(milliseconds) })
      : t('reports.totalTime.duration', hoursAndMinutes(milliseconds));
}

/** Total Executed Time: the month's total, its busiest day, the daily average so far and the days with runs. */
export function TotalTimeSummary({ entries, today }: { entries: readonly ExecutionTimeEntry[]; today: string }) {
  const { t } = useTranslation();
  const duration = useDurationText();
  const summary = summarizeExecutedTime(entries, today);
  if (summary.totalMs === 0) return <EmptyText>{t('reports.totalTime.empty')}</EmptyText>;
  const fact = (label: string, value: string, testId: string) => (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
  return (
    <Stack gap="md">
      <div>
        <Text size="sm" c="dimmed">
          {t('reports.totalTime.total')}
        </Text>
        <Text fz={32} fw={700} lh={1.2} data-testid="total-time">
          {duration(summary.totalMs)}
        </Text>
      </div>
      <SimpleGrid component="dl" cols={{ base: 1, xs: 3 }} spacing="sm" m={0}>
        {summary.busiest &&
          fact(
            t('reports.totalTime.busiestDay'),
            t('reports.totalTime.busiestDayValue', {
              date: dayjs(summary.busiest.date).format('YYYY/MM/DD'),
              duration: duration(summary.busiest.executionTime),
            }),
            'busiest-day',
          )}
        {fact(
          t('reports.totalTime.dailyAverage'),
          `${formatMinutes(summary.averageMs)} ${t('reports.chart.minutes').toLowerCase()}`,
          'daily-average',
        )}
        {fact(
          t('reports.totalTime.daysWithRuns'),
          t('reports.totalTime.daysWithRunsValue', { count: summary.daysWithRuns, total: entries.length }),
          'days-with-runs',
        )}
      </SimpleGrid>
    </Stack>
  );
}

/** Workflow Errors: the month's newest exceptions (start, workflow, message); a row opens its details. */
export function ErrorsTable({
  rows,
  onOpen,
}: {
  rows: readonly ExecutionException[];
  onOpen: (row: ExecutionException) => void;
}) {
  const { t } = useTranslation();
  if (rows.length === 0) return <EmptyText>{t('reports.errors.empty')}</EmptyText>;
  const columns: Column<ExecutionException>[] = [
    {
      key: 'executionStart',
      header: t('reports.columns.executionStart'),
      value: (row) => row.executionStart,
      render: (row) => formatLogDate(row.executionStart),
      truncate: false,
    },
    { key: 'workflow', header: t('reports.columns.workflow'), value: (row) => row.workflowName },
    { key: 'message', header: t('reports.columns.message'), value: (row) => row.errorMessage, priority: 2 },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
      label={t('reports.errors.tableLabel')}
      onRowClick={onOpen}
      rowProps={(row) => ({
        tabIndex: 0,
        onKeyDown: (event) => {
          if (event.key !== 'Enter' && event.key !== ' ') return;
          event.preventDefault();
          onOpen(row);
        },
      })}
    />
  );
}

/** Running first, then the agents with something queued, then the idle ones; arrival order otherwise. */
function busiestFirst(agents: readonly AgentConnection[]): AgentConnection[] {
  const rank = (agent: AgentConnection) => {
    const [first] = agent.queuedWorkflows;
    return first ? (isRunning(first) ? 0 : 1) : 2;
  };
  return agents
    .map((agent, index) => ({ agent, index }))
    .sort((a, b) => rank(a.agent) - rank(b.agent) || a.index - b.index)
    .map(({ agent }) => agent);
}

/** Events: up to `limit` agents and the first queued workflow of each (spec section 9: 2). */
export function AgentEvents({ agents, limit }: { agents: readonly AgentConnection[] | undefined; limit: number }) {
  const { t } = useTranslation();
  if (agents === undefined) return <EmptyText>{t('table.loading')}</EmptyText>;
  if (agents.length === 0) return <EmptyText>{t('reports.events.noAgents')}</EmptyText>;
  const shown = busiestFirst(agents).slice(0, limit);
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('reports.events.listLabel')}>
      {shown.map((agent) => {
        const [first] = agent.queuedWorkflows;
        return (
          <li key={agent.sessionId} data-testid="report-agent" data-mac={agent.macAddress}>
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm">
                  <Truncate text={agentName(agent, t('reports.events.agentUser'))} max={LIMITS.truncate.modalName} />
                </Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {agent.macAddress}
                </Text>
              </div>
              <div style={{ minWidth: 0, textAlign: 'right' }}>
                {first ? (
                  <>
                    <Text size="sm" data-testid="report-agent-workflow">
                      <Truncate text={first.name} max={LIMITS.truncate.tableContent} />
                    </Text>
                    {isRunning(first) ? (
                      <Badge color="teal.9" variant="filled" size="sm">
                        {t('reports.events.running')}
                      </Badge>
                    ) : (
                      <Badge color="gray" variant="light" size="sm">
                        {t('reports.events.queued')}
                      </Badge>
                    )}
                  </>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('reports.events.noEvents')}
                  </Text>
                )}
              </div>
            </Group>
          </li>
        );
      })}
    </Stack>
  );
}
