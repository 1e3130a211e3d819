import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { presetRange } from '../../components/search-bar/date-range';
import { LiveSourceContext } from '../../lib/live/live-source';
import { ProfileContext } from '../../lib/profile-context';
import { buildProfile, fakeApi, type RecordedCall } from '../../test/fake-api';
import { FakeLiveSource } from '../../test/fake-live-source';
import { renderWithProviders } from '../../test/render';
import { ExceptionsPage } from './exceptions-page';
import { LogsPage } from './logs-page';
import { reportWindow } from './report-range';
import { buildException, buildLog, pageOf } from './test-data';

const LOGS = '/api/report/agent/logs';
const EXCEPTIONS = '/api/report/agent/exceptions';
const READER = ['ACCESS_WORKFLOW_ERROR_LOGS_TAB', 'VIEW_ERROR_LOGS', 'VIEW_WORKFLOW_EVENTS'];

function LocationProbe() {
  const location = useLocation();
  return <output aria-label="query">{location.search}</output>;
}

type Handlers = Parameters<typeof fakeApi>[0];

function renderPage(
  Page: typeof LogsPage,
  { auths = READER, path = '/dashboard/workflow/logs', handlers = {} as Handlers, live = true } = {},
) {
  const api = fakeApi(handlers);
  const source = new FakeLiveSource();
  const page = (
    <ProfileContext.Provider value={buildProfile({ auths })}>
      <Page />
      <LocationProbe />
    </ProfileContext.Provider>
  );
  const view = renderWithProviders(
    live ? <LiveSourceContext.Provider value={source}>{page}</LiveSourceContext.Provider> : page,
    { path },
  );
  return { ...view, ...api, source, user: userEvent.setup() };
}

const queryOf = (call: RecordedCall) => Object.fromEntries(new URL(call.url, 'http://console.test').searchParams);
const callsTo = (calls: RecordedCall[], path: string) => calls.filter((call) => call.url.split('?')[0] === path);
const lastQuery = (calls: RecordedCall[], path: string) => queryOf(callsTo(calls, path).at(-1)!);
/** The table's rows of data (not the header, nor the one row saying it loads or is empty). */
const rowsOf = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryAllByRole('cell').length > 1);
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

const success = buildLog({ id: 'a' });
const faulted = buildLog({
  id: 'b',
  workflowName: 'Post invoices to SAP',
  statusType: 'faulted',
  executionStart: new Date(2026, 4, 6, 23, 59, 58).getTime(),
  executionEnd: new Date(2026, 4, 7, 0, 0, 7).getTime(),
  errorMessage: 'Timeout',
  errorActivity: 'SAP Logon',
});
const unknown = buildLog({ id: 'c', statusType: 'unknown', companyName: null, departmentName: null });

describe('execution logs page', () => {
  it("asks for today's first page newest first, and shows start, end, runtime, status, company and department", async () => {
    const { calls } = renderPage(LogsPage, {
      handlers: { [`GET ${LOGS}`]: () => ({ body: pageOf([success, faulted, unknown]) }) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Execution Logs' })).toBeTruthy();
    await waitFor(() => expect(rowsOf('Execution Logs')).toHaveLength(3));
    const today = presetRange('today');
    expect(lastQuery(calls, LOGS)).toEqual({
      from: String(today.from),
      to: String(today.to),
      page: '1',
      size: '10',
      sort: 'executionStart,desc',
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    const [first, second, third] = rowsOf('Execution Logs');
    expect(cells(first!)).toEqual([
      '2026/05/06 09:30:05',
      '2026/05/06 10:32:08',
      '1:02:03',
      'Invoice intake',
      'SUCCESS',
      '-',
      '-',
      'Grace Hopper',
      'grace@acme.test',
      '00:1A:2B:3C:4D:5E',
      'Acme Robotics',
      'Operations',
    ]);
    expect(cells(second!).slice(0, 6)).toEqual([
      '2026/05/06 23:59:58',
      '2026/05/07 00:00:07',
      '0:00:09',
      'Post invoices to SAP',
      'FAULTED',
      'Timeout',
    ]);
    expect(cells(third!).slice(-2)).toEqual(['-', '-']);
    // Green for success, red for faulted, grey for unknown: each with white text at 4.5:1 or more.
    const badge = (row: HTMLElement) =>
      within(row)
        .getByText(/^(SUCCESS|FAULTED|UNKNOWN)$/)
        .closest('.mantine-Badge-root');
    expect(badge(first!)?.getAttribute('style')).toContain('#237a36');
    expect(badge(second!)?.getAttribute('style')).toContain('var(--mantine-color-red-9)');
    expect(badge(third!)?.getAttribute('style')).toContain('var(--mantine-color-gray-7)');
  });

  it('keeps search, range and page in the URL and sends them, a new search starting at page 1', async () => {
    const many = Array.from({ length: 10 }, (_, index) => buildLog({ id: `r${index}` }));
    const { calls, user } = renderPage(LogsPage, {
      handlers: { [`GET ${LOGS}`]: (call) => ({ body: pageOf(many, 35, Number(queryOf(call).page)) }) },
    });
    await waitFor(() => expect(rowsOf('Execution Logs')).toHaveLength(10));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?page=2'));
    await waitFor(() => expect(lastQuery(calls, LOGS).page).toBe('2'));

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'sap');
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?q=sap'));
    await waitFor(() => expect(lastQuery(calls, LOGS)).toMatchObject({ search: 'sap', page: '1' }));

    await user.click(screen.getByRole('combobox', { name: 'Date range' }));
    await user.click(await screen.findByRole('option', { name: 'This Week' }));
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?q=sap&range=thisWeek'));
    const week = presetRange('thisWeek');
    await waitFor(() =>
      expect(lastQuery(calls, LOGS)).toMatchObject({ from: String(week.from), to: String(week.to), search: 'sap' }),
    );

    await user.click(screen.getByRole('columnheader', { name: /Execution start/ }));
    await waitFor(() => expect(lastQuery(calls, LOGS).sort).toBe('executionStart,asc'));
    expect(screen.getByLabelText('query').textContent).toBe('?q=sap&range=thisWeek&sort=executionStart');
  });

  it("reads the range from the URL: 'All' sends 0 to the end of tomorrow, custom sends its ends", async () => {
    const { calls, unmount } = renderPage(LogsPage, {
      path: '/dashboard/workflow/logs?range=all',
      handlers: { [`GET ${LOGS}`]: () => ({ body: pageOf([]) }) },
    });
    expect(await screen.findByText('No runs in this range.')).toBeTruthy();
    const all = reportWindow({ from: null, to: null });
    expect(lastQuery(calls, LOGS)).toMatchObject({ from: '0', to: String(all.to) });
    unmount();

    const custom = renderPage(LogsPage, {
      path: '/dashboard/workflow/logs?range=custom&from=1000&to=2000',
      handlers: { [`GET ${LOGS}`]: () => ({ body: pageOf([]) }) },
    });
    await screen.findByText('No runs in this range.');
    expect(lastQuery(custom.calls, LOGS)).toMatchObject({ from: '1000', to: '2000' });
  });

  it('opens the details of a run on click and on Enter: the full message, machine, workflow version and times', async () => {
    const long = 'x'.repeat(80);
    const { user } = renderPage(LogsPage, {
      handlers: {
        [`GET ${LOGS}`]: () => ({
          body: pageOf([buildLog({ id: 'a', errorMessage: long, errorActivity: 'SAP Logon', statusType: 'faulted' })]),
        }),
      },
    });
    await waitFor(() => expect(rowsOf('Execution Logs')).toHaveLength(1));
    const [row] = rowsOf('Execution Logs');
    await user.click(within(row!).getByText('Invoice intake'));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice intake run' });
    const details = within(dialog).getByTestId('execution-details');
    expect(details.textContent).toContain(long);
    for (const text of [
      'SAP Logon',
      'Version 3',
      'MAC address: 00:1A:2B:3C:4D:5E',
      'Host name: build-01',
      'Execution start: 2026/05/06 09:30:05',
      'Execution end: 2026/05/06 10:32:08',
      'Runtime: 1:02:03',
      'Grace Hopper',
      'grace@acme.test',
      'Acme Robotics',
      'Operations',
      'FAULTED',
    ])
      expect(details.textContent).toContain(text);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    row!.focus();
    fireEvent.keyDown(row!, { key: 'Enter' });
    expect(await screen.findByRole('dialog', { name: 'Invoice intake run' })).toBeTruthy();
  });

  it('downloads the CSV of exactly the filter shown, through the API with the session headers', async () => {
    window.localStorage.setItem('opsdeck.authToken', 'tok-1');
    const { calls, user } = renderPage(LogsPage, {
      path: '/dashboard/workflow/logs?q=sap&range=yesterday&page=3',
      handlers: {
        [`GET ${LOGS}`]: (call) =>
          queryOf(call).format === 'csv'
            ? {
                text: 'id,executionStart\r\na,2026-05-06T07:30:05.000Z\r\n',
                headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="logs.csv"' },
              }
            : { body: pageOf([success], 21, 3) },
      },
    });
    const { reloadSessionFromStorage } = await import('../../lib/session');
    reloadSessionFromStorage();
    const saved: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:console/csv');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await waitFor(() => expect(rowsOf('Execution Logs')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['logs.csv']));
    const csv = callsTo(calls, LOGS).find((call) => queryOf(call).format === 'csv')!;
    const yesterday = presetRange('yesterday');
    expect(queryOf(csv)).toEqual({
      from: String(yesterday.from),
      to: String(yesterday.to),
      search: 'sap',
      sort: 'executionStart,desc',
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
      format: 'csv',
    });
    expect(csv.headers.get('X-Auth-Token')).toBe('tok-1');
  });

  it('says why the server refused the range', async () => {
    renderPage(LogsPage, {
      path: '/dashboard/workflow/logs?range=custom&from=2000&to=1000',
      handlers: {
        [`GET ${LOGS}`]: () => ({
          status: 400,
          body: { key: 'ERROR_REPORT_RANGE_INVALID', message: 'bad range' },
        }),
      },
    });
    expect(await screen.findByText(/The date range is not valid/)).toBeTruthy();
  });

  it('asks nothing of a viewer without VIEW_ERROR_LOGS', async () => {
    const { calls } = renderPage(LogsPage, { auths: ['ACCESS_WORKFLOW_ERROR_LOGS_TAB', 'ACCESS_AGENT_REPORT_TAB'] });
    expect(await screen.findByText("The execution logs need the 'View error logs' permission.")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});

describe('exceptions page', () => {
  it('shows start, workflow, message, activity, executor, e-mail and MAC address, for the agent report tab too', async () => {
    const { calls } = renderPage(ExceptionsPage, {
      auths: ['ACCESS_WORKFLOW_ERROR_LOGS_TAB', 'ACCESS_AGENT_REPORT_TAB'],
      path: '/dashboard/workflow/errors',
      handlers: { [`GET ${EXCEPTIONS}`]: () => ({ body: pageOf([buildException()]) }) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Error Logs' })).toBeTruthy();
    await waitFor(() => expect(rowsOf('Error Logs')).toHaveLength(1));
    const table = screen.getByRole('table', { name: 'Error Logs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Execution start', 'Workflow', 'Message', 'Activity', 'Executed by', 'E-mail', 'MAC address']);
    const shown = cells(rowsOf('Error Logs')[0]!);
    // The message is cut at 50 characters; screen readers read it whole.
    expect(shown[2]).toMatch(/^The SAP logon screen did not appear within 30 seco\.\.\.The SAP/);
    expect(shown.filter((_, index) => index !== 2)).toEqual([
      '2026/05/06 09:30:05',
      'Invoice intake',
      'SAP Logon',
      'Grace Hopper',
      'grace@acme.test',
      '00:1A:2B:3C:4D:5E',
    ]);
    expect(lastQuery(calls, EXCEPTIONS).page).toBe('1');
  });
});

describe('live refresh of the list pages', () => {
  it('refetches when a run starting in the range is stored, at most once per 1.5 s, and not for other ranges', async () => {
    const { calls, source } = renderPage(LogsPage, {
      handlers: { [`GET ${LOGS}`]: () => ({ body: pageOf([success]) }) },
    });
    await waitFor(() => expect(rowsOf('Execution Logs')).toHaveLength(1));
    source.status('connected');
    expect(screen.getByTestId('report-refresh').textContent).toBe('Updates live');
    const before = callsTo(calls, LOGS).length;
    source.execution({ executionStart: Date.now() - 86_400_000 * 3 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(callsTo(calls, LOGS)).toHaveLength(before);

    source.execution();
    await waitFor(() => expect(callsTo(calls, LOGS)).toHaveLength(before + 1));
    source.execution();
    source.execution();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(callsTo(calls, LOGS)).toHaveLength(before + 1);
    await waitFor(() => expect(callsTo(calls, LOGS)).toHaveLength(before + 2), { timeout: 3_000 });
  });

  it('polls every 15 s without the live channel', async () => {
    renderPage(LogsPage, {
      auths: ['ACCESS_WORKFLOW_ERROR_LOGS_TAB', 'VIEW_ERROR_LOGS'],
      live: false,
      handlers: { [`GET ${LOGS}`]: () => ({ body: pageOf([]) }) },
    });
    expect(await screen.findByTestId('report-refresh')).toBeTruthy();
    expect(screen.getByTestId('report-refresh').textContent).toBe('Refreshes every 15 seconds');
  });

  it('shows no refresh for a range in the past', async () => {
    renderPage(LogsPage, {
      path: '/dashboard/workflow/logs?range=yesterday',
      handlers: { [`GET ${LOGS}`]: () => ({ body: pageOf([]) }) },
    });
    await screen.findByText('No runs in this range.');
    expect(screen.queryByTestId('report-refresh')).toBeNull();
  });
});
