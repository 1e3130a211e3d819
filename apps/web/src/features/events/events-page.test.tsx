import { ERROR_MESSAGES } from '@opsdeck/contract/errors';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { LiveSourceContext } from '../../lib/live/live-source';
import { ProfileContext } from '../../lib/profile-context';
import { buildProfile } from '../../test/fake-api';
import { FakeLiveSource } from '../../test/fake-live-source';
import { buildAgent, buildQueued, buildWorkflow } from '../../test/live-builders';
import { renderWithProviders } from '../../test/render';
import { EventsPage } from './events-page';

const WATCH_AND_COMMAND = ['ACCESS_WORKFLOW_EVENTS_TAB', 'VIEW_WORKFLOW_EVENTS', 'VIEW_WORKFLOW'];
const STARTED = Date.UTC(2024, 4, 6, 9, 30);

function renderPage(auths: string[] = WATCH_AND_COMMAND) {
  const source = new FakeLiveSource();
  const view = renderWithProviders(
    <ProfileContext.Provider value={buildProfile({ auths })}>
      <LiveSourceContext.Provider value={source}>
        <EventsPage />
      </LiveSourceContext.Provider>
    </ProfileContext.Provider>,
    { path: '/dashboard/workflow/events' },
  );
  return { ...view, source, user: userEvent.setup() };
}

const cards = () => screen.queryAllByTestId('agent-card');
const cardOf = (mac: string) => {
  const card = cards().find((element) => element.getAttribute('data-mac') === mac);
  if (!card) throw new Error(`no card for ${mac}`);
  return card;
};
const badge = () => screen.getByRole('status');

const busyAgent = buildAgent({
  sessionId: 'busy',
  macAddress: 'AA:AA:AA:AA:AA:01',
  workflows: [
    buildWorkflow({ id: 1, name: 'Payroll export', lastExecution: STARTED }),
    buildWorkflow({ id: 2, name: 'Backup' }),
    buildWorkflow({ id: 3, name: 'Invoice run' }),
  ],
  queuedWorkflows: [
    buildQueued({ id: 13, name: 'Third', position: 3 }),
    buildQueued({
      id: 11,
      name: 'Running one',
      workflowId: 1,
      status: 'EXECUTING',
      position: 1,
      executionStart: STARTED,
    }),
    buildQueued({ id: 12, name: 'Second', workflowId: 2, position: 2 }),
    buildQueued({ id: 14, name: 'Fourth', position: 4 }),
  ],
});

async function openModal(user: ReturnType<typeof userEvent.setup>, mac: string) {
  await user.click(within(cardOf(mac)).getByRole('button', { name: 'View all' }));
  return screen.findByRole('dialog');
}

describe('events page', () => {
  it('shows the connection state in a status badge: connecting, live, reconnecting, disconnected with the error', async () => {
    const { source, user } = renderPage();
    expect(badge().textContent).toBe('Connecting…');
    source.connect([]);
    expect(badge().textContent).toBe('Live');
    expect(screen.getByText('There are no active agents at the moment.')).toBeTruthy();
    source.status('reconnecting');
    expect(badge().textContent).toBe('Reconnecting…');
    expect(screen.queryByText('There are no active agents at the moment.')).toBeNull();
    source.status('refused', 'ERROR_FORBIDDEN');
    expect(badge().textContent).toBe('Disconnected');
    const alert = screen.getByTestId('live-error');
    expect(alert.textContent).toContain(ERROR_MESSAGES.ERROR_FORBIDDEN);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(source.retry).toHaveBeenCalledOnce();
  });

  it('shows a card per agent: name, MAC, hostname, the first 2 queued by position, and +N more', () => {
    const { source } = renderPage();
    source.connect([
      busyAgent,
      buildAgent({ sessionId: 'idle', firstName: '', lastName: '', macAddress: 'BB:BB:BB:BB:BB:02' }),
    ]);
    expect(cards()).toHaveLength(2);

    const busy = cardOf('AA:AA:AA:AA:AA:01');
    expect(within(busy).getByRole('heading', { name: 'Grace Hopper' })).toBeTruthy();
    expect(within(busy).getByText('build-01')).toBeTruthy();
    expect(within(busy).queryByText('Acme Robotics')).toBeNull();
    const items = within(busy).getAllByTestId('queue-item');
    expect(items.map((item) => [item.getAttribute('data-status'), item.textContent])).toEqual([
      ['running', `Running oneRunningStarted ${formatEpoch(STARTED, DATE_FORMATS.dateTime)}`],
      ['queued', 'Second2nd in queue'],
    ]);
    expect(within(busy).getByText('+2 more')).toBeTruthy();

    const idle = cardOf('BB:BB:BB:BB:BB:02');
    expect(within(idle).getByRole('heading', { name: 'Agent User' })).toBeTruthy();
    expect(within(idle).getByText('No active events at the moment.')).toBeTruthy();
    expect(within(idle).queryByText(/more/)).toBeNull();
  });

  it('names each agent company for an admin watching every company', () => {
    const { source } = renderPage();
    source.connect([busyAgent], null);
    expect(within(cardOf(busyAgent.macAddress)).getByText('Acme Robotics')).toBeTruthy();
  });

  it('follows the live messages without a reload', () => {
    const { source } = renderPage();
    source.connect([busyAgent]);
    source.send({
      type: 'queue',
      changes: { sessionId: 'busy', added: [], updated: [], removed: [11, 12, 13] },
    });
    expect(within(cardOf(busyAgent.macAddress)).getAllByTestId('queue-item')).toHaveLength(1);
    expect(within(cardOf(busyAgent.macAddress)).queryByText(/more/)).toBeNull();
    source.send({ type: 'connect', agent: buildAgent({ sessionId: 'new', macAddress: 'CC:CC:CC:CC:CC:03' }) });
    expect(cards()).toHaveLength(2);
    source.send({ type: 'disconnect', sessionId: 'busy' });
    expect(cards().map((card) => card.getAttribute('data-mac'))).toEqual(['CC:CC:CC:CC:CC:03']);
    source.send({ type: 'connectionLost' });
    source.status('reconnecting');
    expect(cards()).toHaveLength(0);
  });

  it('lists the workflows by name with their last execution, and the active items with a count badge', async () => {
    const { source, user } = renderPage();
    source.connect([busyAgent]);
    const dialog = await openModal(user, busyAgent.macAddress);
    expect(within(dialog).getByText('Grace Hopper')).toBeTruthy();

    const workflowsTab = within(dialog).getByRole('tab', { name: 'Workflow List' });
    expect(workflowsTab.getAttribute('aria-selected')).toBe('true');
    const list = within(dialog).getByRole('table', { name: 'Workflow List' });
    const rows = within(list).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Backup',
      'Invoice run',
      'Payroll export',
    ]);
    expect(within(rows[2]!).getByText(formatEpoch(STARTED, DATE_FORMATS.dateTime))).toBeTruthy();
    expect(within(rows[0]!).getByText('-')).toBeTruthy();
    expect(within(list).getAllByRole('button', { name: 'Execute' })).toHaveLength(3);

    const activeTab = within(dialog).getByRole('tab', { name: /Active/ });
    expect(within(activeTab).getByTestId('active-count').textContent).toBe('4');
    await user.click(activeTab);
    const active = within(dialog).getByRole('table', { name: 'Active' });
    const activeRows = within(active).getAllByRole('row').slice(1);
    expect(
      activeRows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Running one', 'Running', formatEpoch(STARTED, DATE_FORMATS.dateTime), '1st', 'Terminate'],
      ['Second', 'Queued', '-', '2nd', 'Unqueue'],
      ['Third', 'Queued', '-', '3rd', 'Unqueue'],
      ['Fourth', 'Queued', '-', '4th', 'Unqueue'],
    ]);

    // A change arrives while the modal is open.
    source.send({ type: 'queue', changes: { sessionId: 'busy', added: [], updated: [], removed: [14] } });
    expect(within(activeTab).getByTestId('active-count').textContent).toBe('3');
  });

  it('shows the empty texts of the modal lists', async () => {
    const { source, user } = renderPage();
    source.connect([buildAgent()]);
    const dialog = await openModal(user, buildAgent().macAddress);
    expect(within(dialog).getByText('No workflows at the moment.')).toBeTruthy();
    await user.click(within(dialog).getByRole('tab', { name: /Active/ }));
    expect(within(dialog).getByText('No active events at the moment.')).toBeTruthy();
  });

  it('executes a workflow after confirmation and says so', async () => {
    const { source, user } = renderPage();
    source.connect([busyAgent]);
    const dialog = await openModal(user, busyAgent.macAddress);
    const list = within(dialog).getByRole('table', { name: 'Workflow List' });
    const row = within(list).getByRole('row', { name: /Invoice run/ });
    await user.click(within(row).getByRole('button', { name: 'Execute' }));
    const confirm = await screen.findByRole('dialog', { name: 'Execute workflow' });
    expect(confirm.textContent).toContain('Queue Invoice run on Grace Hopper?');
    expect(source.execute).not.toHaveBeenCalled();
    await user.click(within(confirm).getByRole('button', { name: 'Execute' }));
    await waitFor(() => expect(source.execute).toHaveBeenCalledWith('busy', 3));
    expect(await screen.findByText('Successfully queued Invoice run')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Execute workflow' })).toBeNull());
  });

  it('terminates a running item and unqueues a queued one with their ids', async () => {
    const { source, user } = renderPage();
    source.connect([busyAgent]);
    const dialog = await openModal(user, busyAgent.macAddress);
    await user.click(within(dialog).getByRole('tab', { name: /Active/ }));
    const active = within(dialog).getByRole('table', { name: 'Active' });

    await user.click(within(active).getByRole('button', { name: 'Terminate' }));
    const terminate = await screen.findByRole('dialog', { name: 'Terminate workflow' });
    await user.click(within(terminate).getByRole('button', { name: 'Terminate' }));
    await waitFor(() => expect(source.terminate).toHaveBeenCalledWith('busy', 1, 11));
    expect(await screen.findByText('Successfully terminated Running one')).toBeTruthy();

    const second = within(active).getByRole('row', { name: /Second/ });
    await user.click(within(second).getByRole('button', { name: 'Unqueue' }));
    const unqueue = await screen.findByRole('dialog', { name: 'Unqueue workflow' });
    await user.click(within(unqueue).getByRole('button', { name: 'Unqueue' }));
    await waitFor(() => expect(source.terminate).toHaveBeenLastCalledWith('busy', 2, 12));
    expect(await screen.findByText('Successfully unqueued Second')).toBeTruthy();
  });

  it('shows ERROR_WEBSOCKET_CONNECTION_FAILURE for an unqueue while disconnected, and a refusal text', async () => {
    const { source, user } = renderPage();
    source.connect([busyAgent]);
    const dialog = await openModal(user, busyAgent.macAddress);
    await user.click(within(dialog).getByRole('tab', { name: /Active/ }));
    const active = within(dialog).getByRole('table', { name: 'Active' });
    await user.click(
      within(within(active).getByRole('row', { name: /Third/ })).getByRole('button', { name: 'Unqueue' }),
    );
    const unqueue = await screen.findByRole('dialog', { name: 'Unqueue workflow' });
    // The connection drops while the question is open: the agents are cleared, the question stays.
    source.send({ type: 'connectionLost' });
    source.status('reconnecting');
    expect(within(dialog).getByText('This agent has disconnected.')).toBeTruthy();
    await user.click(within(unqueue).getByRole('button', { name: 'Unqueue' }));
    await waitFor(() => expect(source.terminate).toHaveBeenCalledWith('busy', 113, 13));
    expect(await screen.findByText('Could not connect to the Server. Please try again later.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unqueue workflow' })).toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    source.connect([busyAgent]);
    await openModal(user, busyAgent.macAddress);
    const refreshed = screen.getByRole('dialog');

    source.execute.mockRejectedValueOnce(new ApiError(0, 'ERROR_AGENT_NOT_CONNECTED', ''));
    const list = within(refreshed).getByRole('table', { name: 'Workflow List' });
    await user.click(
      within(within(list).getByRole('row', { name: /Backup/ })).getByRole('button', { name: 'Execute' }),
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Execute workflow' })).getByRole('button', { name: 'Execute' }),
    );
    expect(await screen.findByText('The agent is no longer connected.')).toBeTruthy();
  });

  it('hides the commands from a viewer without VIEW_WORKFLOW', async () => {
    const { source, user } = renderPage(['ACCESS_WORKFLOW_EVENTS_TAB', 'VIEW_WORKFLOW_EVENTS']);
    source.connect([busyAgent]);
    const dialog = await openModal(user, busyAgent.macAddress);
    expect(within(dialog).queryByRole('button', { name: 'Execute' })).toBeNull();
    await user.click(within(dialog).getByRole('tab', { name: /Active/ }));
    expect(within(dialog).queryByRole('button', { name: 'Terminate' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Unqueue' })).toBeNull();
  });

  it('does not watch without VIEW_WORKFLOW_EVENTS', () => {
    renderPage(['ACCESS_WORKFLOW_EVENTS_TAB']);
    expect(screen.getByText(/needs the 'View workflow events' permission/)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
