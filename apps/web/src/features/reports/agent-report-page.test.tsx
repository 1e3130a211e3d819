import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { LiveSourceContext } from '../../lib/live/live-source';
import { ProfileContext } from '../../lib/profile-context';
import { buildProfile, fakeApi, type RecordedCall } from '../../test/fake-api';
import { FakeLiveSource } from '../../test/fake-live-source';
import { buildAgent, buildQueued } from '../../test/live-builders';
import { renderWithProviders } from '../../test/render';
import { AgentReportPage } from './agent-report-page';
import { currentMonth } from './report-range';
import { buildException } from './test-data';

const EVERYTHING = [
  'ACCESS_AGENT_REPORT_TAB',
  'VIEW_WORKFLOW_EVENTS',
  'VIEW_ERROR_LOGS',
  'ACCESS_WORKFLOW_ERROR_LOGS_TAB',
  'ACCESS_WORKFLOW_EVENTS_TAB',
];
const PATHS = {
  metrics: '/api/report/agent/metrics',
  useCounts: '/api/report/agent/use-counts',
  totalHours: '/api/report/agent/total-hours',
  exceptions: '/api/report/agent/exceptions',
  agents: '/api/active-agents',
};

/** Every day of the current month, with `minutes` on the days given (1-based). */
function monthDays(minutes: Record<number, number> = {}) {
  const month = currentMonth();
  const days = dayjs(month.from).daysInMonth();
  return Array.from({ length: days }, (_, index) => ({
    date: dayjs(month.from)
      .date(index + 1)
      .format('YYYY-MM-DD'),
    executionTime: (minutes[index + 1] ?? 0) * 60_000,
  }));
}

const withData = {
  [`GET ${PATHS.metrics}`]: () => ({
    body: { completedWorkflowCount: 42, failedWorkflowCount: 5, scheduledWorkflowCount: 7 },
  }),
  [`GET ${PATHS.useCounts}`]: () => ({
    body: [
      { workflowName: 'Invoice intake', useCount: 30 },
      { workflowName: 'Carrier booking', useCount: 12 },
    ],
  }),
  [`GET ${PATHS.totalHours}`]: () => ({ body: monthDays({ 1: 90, 2: 12.5 }) }),
  [`GET ${PATHS.exceptions}`]: () => ({
    body: Array.from({ length: 5 }, (_, index) =>
      buildException({ id: `e${index}`, workflowName: `Failing ${index}`, errorMessage: `Broke ${index}` }),
    ),
  }),
};

const empty = {
  [`GET ${PATHS.metrics}`]: () => ({
    body: { completedWorkflowCount: 0, failedWorkflowCount: 0, scheduledWorkflowCount: 0 },
  }),
  [`GET ${PATHS.useCounts}`]: () => ({ body: [] }),
  [`GET ${PATHS.totalHours}`]: () => ({ body: monthDays() }),
  [`GET ${PATHS.exceptions}`]: () => ({ body: [] }),
  [`GET ${PATHS.agents}`]: () => ({ body: [] }),
};

function renderReport(handlers: Parameters<typeof fakeApi>[0], auths: string[] = EVERYTHING) {
  const api = fakeApi(handlers);
  const source = new FakeLiveSource();
  const view = renderWithProviders(
    <ProfileContext.Provider value={buildProfile({ auths })}>
      <LiveSourceContext.Provider value={source}>
        <AgentReportPage />
      </LiveSourceContext.Provider>
    </ProfileContext.Provider>,
    { path: '/dashboard/report/agent' },
  );
  return { ...view, ...api, source, user: userEvent.setup() };
}

const queryOf = (call: RecordedCall) => Object.fromEntries(new URL(call.url, 'http://console.test').searchParams);
const callsTo = (calls: RecordedCall[], path: string) => calls.filter((call) => call.url.split('?')[0] === path);
const tile = (id: string) => screen.getByTestId(`${id}-value`).textContent;
const panel = (id: string) => screen.getByTestId(`panel-${id}`);

describe('agent report', () => {
  it("asks for this month's figures and shows the tiles, the panels and their View All links", async () => {
    const { calls, source } = renderReport(withData);
    source.connect([
      buildAgent({ sessionId: 'idle', firstName: '', lastName: '', macAddress: 'AA:00:00:00:00:01' }),
      buildAgent({
        sessionId: 'busy',
        macAddress: 'AA:00:00:00:00:02',
        queuedWorkflows: [
          buildQueued({ id: 2, name: 'Second', position: 2 }),
          buildQueued({ id: 1, name: 'Payroll export', status: 'EXECUTING', position: 1, executionStart: 1 }),
        ],
      }),
      buildAgent({ sessionId: 'third', macAddress: 'AA:00:00:00:00:03' }),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Agent Report' })).toBeTruthy();
    await waitFor(() => expect(tile('tile-completed')).toBe('42'));
    expect([tile('tile-active-agents'), tile('tile-failed'), tile('tile-scheduled')]).toEqual(['3', '5', '7']);

    const month = currentMonth();
    const range = { from: String(month.from), to: String(month.to) };
    expect(queryOf(callsTo(calls, PATHS.metrics)[0]!)).toEqual(range);
    expect(queryOf(callsTo(calls, PATHS.useCounts)[0]!)).toEqual({ ...range, limit: '10' });
    expect(queryOf(callsTo(calls, PATHS.totalHours)[0]!)).toEqual({
      ...range,
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(queryOf(callsTo(calls, PATHS.exceptions)[0]!)).toEqual({ ...range, limit: '5' });
    expect(screen.getByTestId('report-month').textContent).toBe(dayjs(month.from).format('MMMM YYYY'));

    const mostUsed = await within(panel('most-used')).findByRole('table', { name: 'Most Used Workflows' });
    expect(
      within(mostUsed)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['Invoice intake30', 'Carrier booking12']);
    expect(within(panel('total-time')).getByTestId('total-time').textContent).toBe('1 h 43 min');
    expect(within(panel('total-time')).getByTestId('busiest-day').textContent).toBe(
      `${dayjs(month.from).format('YYYY/MM/DD')} (1 h 30 min)`,
    );
    const errors = await within(panel('errors')).findByRole('table', { name: 'Latest workflow errors' });
    expect(within(errors).getAllByRole('row')).toHaveLength(6);
    expect(within(errors).getByText('Broke 0')).toBeTruthy();

    // Up to 2 agents, the busiest first, each with the first workflow of its queue.
    const agents = within(panel('events')).getAllByTestId('report-agent');
    expect(agents.map((agent) => agent.getAttribute('data-mac'))).toEqual(['AA:00:00:00:00:02', 'AA:00:00:00:00:01']);
    expect(agents[0]!.textContent).toContain('Payroll export');
    expect(agents[0]!.textContent).toContain('Running');
    expect(agents[1]!.textContent).toContain('Agent User');
    expect(agents[1]!.textContent).toContain('No active events at the moment.');

    const link = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    expect(link('View All Most Used Workflows')).toBe('/dashboard/workflow/logs?range=thisMonth');
    expect(link('View All Total Executed Time')).toBe('/dashboard/workflow/logs?range=thisMonth');
    expect(link('View All Workflow Errors')).toBe('/dashboard/workflow/errors?range=thisMonth');
    expect(link('View All Events')).toBe('/dashboard/workflow/events');
  });

  it('opens the details of an error from its panel', async () => {
    const { user } = renderReport(withData);
    const errors = await within(panel('errors')).findByRole('table', { name: 'Latest workflow errors' });
    await user.click(within(errors).getByText('Failing 2'));
    const dialog = await screen.findByRole('dialog', { name: 'Failing 2 run' });
    expect(within(dialog).getByText('Broke 2')).toBeTruthy();
  });

  it('says what each empty panel will hold, and shows the chart empty', async () => {
    const { source } = renderReport(empty);
    source.connect([]);
    expect(
      await screen.findByText('No runs this month yet — agents report here as they finish workflows.'),
    ).toBeTruthy();
    expect(
      await screen.findByText('No executed time this month yet — it adds up as agents finish workflows.'),
    ).toBeTruthy();
    expect(await screen.findByText('No workflow errors this month — faulted runs show here.')).toBeTruthy();
    expect(within(panel('events')).getByText('There are no active agents at the moment.')).toBeTruthy();
    expect(
      screen.getByText('No executed time this month yet — the chart fills in as agents finish workflows.'),
    ).toBeTruthy();
    await waitFor(() => expect(tile('tile-completed')).toBe('0'));
    expect(tile('tile-active-agents')).toBe('0');
  });

  it('shows the executed minutes per day as a table too (ms / 60000, one decimal)', async () => {
    const { user } = renderReport(withData);
    await screen.findByTestId('executed-time');
    await user.click(screen.getByRole('radio', { name: 'Table' }));
    const month = currentMonth();
    const table = screen.getByRole('table', {
      name: `Executed minutes per day of ${dayjs(month.from).format('MMMM YYYY')}`,
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(dayjs(month.from).daysInMonth());
    expect(
      rows.slice(0, 3).map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      [dayjs(month.from).format('YYYY/MM/DD'), '90.0'],
      [dayjs(month.from).add(1, 'day').format('YYYY/MM/DD'), '12.5'],
      [dayjs(month.from).add(2, 'day').format('YYYY/MM/DD'), '0.0'],
    ]);
    await user.click(screen.getByRole('radio', { name: 'Chart' }));
    expect(screen.getByTestId('chart-area')).toBeTruthy();
  });

  it("without VIEW_WORKFLOW_EVENTS: '—' with a hint for the agents, no Events panel, and polling", async () => {
    const { calls } = renderReport(withData, ['ACCESS_AGENT_REPORT_TAB']);
    await waitFor(() => expect(tile('tile-completed')).toBe('42'));
    expect(tile('tile-active-agents')).toBe('—');
    expect(screen.getByText("Needs the 'View workflow events' permission")).toBeTruthy();
    expect(screen.queryByTestId('panel-events')).toBeNull();
    // The errors panel opens to the report tab; the View All links only where the viewer may go.
    expect(screen.getByTestId('panel-errors')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /View All/ })).toBeNull();
    expect(screen.getByTestId('report-refresh').textContent).toBe('Refreshes every 15 seconds');
    expect(callsTo(calls, PATHS.agents)).toHaveLength(0);
  });

  it('reads the agents over HTTP while the live channel is not up, and refreshes on a stored run', async () => {
    const { calls, source } = renderReport({
      ...withData,
      [`GET ${PATHS.agents}`]: () => ({ body: [buildAgent({ sessionId: 'http', macAddress: 'BB:00:00:00:00:01' })] }),
    });
    await waitFor(() => expect(tile('tile-active-agents')).toBe('1'));
    expect(within(panel('events')).getByTestId('report-agent').getAttribute('data-mac')).toBe('BB:00:00:00:00:01');

    source.connect([]);
    expect(tile('tile-active-agents')).toBe('0');
    expect(screen.getByTestId('report-refresh').textContent).toBe('Updates live');
    await waitFor(() => expect(tile('tile-completed')).toBe('42'));
    const before = callsTo(calls, PATHS.metrics).length;
    source.execution();
    await waitFor(() => expect(callsTo(calls, PATHS.metrics).length).toBe(before + 1));
    expect(callsTo(calls, PATHS.useCounts).length).toBeGreaterThan(1);
  });
});
