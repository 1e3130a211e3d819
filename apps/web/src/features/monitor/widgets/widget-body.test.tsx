import { WIDGET_KEYS, type WidgetAnswer, type WidgetKey } from '@opsdeck/contract/monitor';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { errorBody, fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import type { MonitorFilters } from '../monitor-filters';
import { WidgetBody } from '../widget-body';
import { WidgetParamsProvider } from './widget-query';

const FILTERS: MonitorFilters = {
  user: null,
  department: null,
  role: null,
  dateFrom: '2026-11-02',
  dateTo: '2026-11-03',
};
const at = (time: string) => dayjs(`2026-11-02T${time}`).valueOf();
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** One widget's body for the page's filters, its call answered by `answer` (or by the handler). */
function renderWidget<K extends WidgetKey>(
  widgetKey: K,
  answer: WidgetAnswer<K> | Parameters<typeof fakeApi>[0][string],
  filters: MonitorFilters = FILTERS,
) {
  const api = fakeApi({
    [`GET /api/report/monitor/${widgetKey}`]: typeof answer === 'function' ? answer : () => ({ body: answer }),
  });
  const view = renderWithProviders(
    <WidgetParamsProvider filters={filters}>
      <WidgetBody widgetKey={widgetKey} />
    </WidgetParamsProvider>,
  );
  return { ...view, ...api, user: userEvent.setup() };
}

/** The body's state once its call has answered. */
async function settledState(container: HTMLElement) {
  const body = container.querySelector('[data-widget-body]') as HTMLElement;
  await waitFor(() => expect(body.dataset.widgetState).not.toBe('loading'));
  return body.dataset.widgetState;
}

/** The rows of the table named `name`, each as its cells' texts. */
function tableRows(name: string) {
  const table = screen.getByRole('table', { name });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}

/** An empty answer of every widget (active users: people, none of them active). */
const EMPTY: { [K in WidgetKey]: WidgetAnswer<K> } = {
  active_users: { online: 0, active: 0, total: 4 },
  hourly_activity: Array.from({ length: 24 }, (_, hour) => ({ hour, activeMs: 0, idleMs: 0 })),
  application_duration: [{ date: '2026-11-02', application: 'Excel', durationMs: 0 }],
  action_timeline: [],
  application_frequency: [],
  employee_login_hours: [],
  top_applications: [],
  application_timeline: [],
  employee_utilization: [],
  top_statuses: [],
  alerts: [],
  attendance_and_tardiness: [],
  top_tasks: [],
  break_adherence: [],
  task_productivity: [],
  status_summary: [],
};

describe('widget bodies', () => {
  it('asks for the filter days as epoch milliseconds, the browser zone and the chosen filters', async () => {
    const { calls, container } = renderWidget('top_tasks', [], { ...FILTERS, user: 12, department: 3 });
    await settledState(container);
    const url = new URL(calls[0]?.url ?? '', 'http://console.test');
    expect(url.pathname).toBe('/api/report/monitor/top_tasks');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      from: String(dayjs('2026-11-02').startOf('day').valueOf()),
      to: String(dayjs('2026-11-03').endOf('day').valueOf()),
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
      user: '12',
      department: '3',
    });
  });

  it('draws a top list as bars, with its figures as a table behind a switch', async () => {
    const { user } = renderWidget('top_applications', [
      { application: 'Excel', durationMs: 2 * HOUR + 5 * MINUTE },
      { application: 'Outlook', durationMs: 45 * MINUTE },
    ]);
    expect(await screen.findByRole('img', { name: /^Top Applications chart/ })).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Table' }));
    expect(tableRows('Top Applications table')).toEqual([
      ['Excel', '2:05'],
      ['Outlook', '0:45'],
    ]);
  });

  it('counts application openings and shows each status by its colour and name', async () => {
    const first = renderWidget('application_frequency', [{ application: 'Excel', count: 1204 }]);
    await first.findByRole('img', { name: /^Application Frequency chart/ });
    await first.user.click(screen.getByRole('radio', { name: 'Table' }));
    expect(tableRows('Application Frequency table')).toEqual([['Excel', (1204).toLocaleString()]]);
    first.unmount();

    const second = renderWidget('top_statuses', [{ statusId: 3, name: 'Lunch', color: '#ff8800', durationMs: HOUR }]);
    await second.findByRole('img', { name: /^Top Statuses chart/ });
    await second.user.click(screen.getByRole('radio', { name: 'Table' }));
    expect(tableRows('Top Statuses table')).toEqual([['Lunch', '1:00']]);
  });

  it('gives hourly activity its 24 hours as a table', async () => {
    const hours = EMPTY.hourly_activity.map((hour) =>
      hour.hour === 9 ? { hour: 9, activeMs: 90 * MINUTE, idleMs: 10 * MINUTE } : hour,
    );
    const { user } = renderWidget('hourly_activity', hours);
    await screen.findByRole('img', { name: /^Hourly Activity chart/ });
    await user.click(screen.getByRole('radio', { name: 'Table' }));
    const rows = tableRows('Hourly Activity table');
    expect(rows).toHaveLength(10); // the first page of 24
    expect(rows[9]).toEqual(['09:00', '1:30', '0:10']);
  });

  it("lists each day's application time, the rest apart from an application named Other, and leaves out the days without", async () => {
    const { user } = renderWidget('application_duration', [
      { date: '2026-11-02', application: 'Excel', durationMs: HOUR },
      { date: '2026-11-02', application: 'Other', durationMs: 10 * MINUTE },
      { date: '2026-11-02', application: 'Other', durationMs: 20 * MINUTE, other: true },
      { date: '2026-11-03', application: 'Excel', durationMs: 0 },
      { date: '2026-11-03', application: 'Other', durationMs: 0 },
      { date: '2026-11-03', application: 'Other', durationMs: 5 * MINUTE, other: true },
    ]);
    await screen.findByRole('img', { name: /^Application Duration chart/ });
    await user.click(screen.getByRole('radio', { name: 'Table' }));
    expect(tableRows('Application Duration table')).toEqual([
      ['11/02/2026', 'Excel', '1:00'],
      ['11/02/2026', 'Other', '0:10'],
      ['11/02/2026', 'Other applications', '0:20'],
      ['11/03/2026', 'Other applications', '0:05'],
    ]);
  });

  it('draws the application timeline as a strip per person with a legend, and its spans as a table', async () => {
    const { user } = renderWidget('application_timeline', [
      {
        userId: 1,
        name: 'Ada Lovelace',
        spans: [
          { application: 'Excel', start: at('09:00'), end: at('10:30') },
          { application: 'Outlook', start: at('10:30'), end: at('10:45') },
        ],
      },
    ]);
    const chart = await screen.findByRole('img', { name: /^Application Timeline chart/ });
    expect(within(chart).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(chart).getByText('Outlook')).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Table' }));
    expect(tableRows('Application Timeline table')).toEqual([
      ['Ada Lovelace', 'Excel', '11/02/26 09:00 AM', '11/02/26 10:30 AM', '1:30'],
      ['Ada Lovelace', 'Outlook', '11/02/26 10:30 AM', '11/02/26 10:45 AM', '0:15'],
    ]);
  });

  it('shows login hours as a table, a day still going on as still signed in', async () => {
    renderWidget('employee_login_hours', [
      {
        userId: 1,
        name: 'Ada Lovelace',
        date: '2026-11-02',
        firstLogin: at('08:55'),
        lastLogout: at('17:10'),
        loggedMs: 8 * HOUR + 15 * MINUTE,
      },
      {
        userId: 1,
        name: 'Ada Lovelace',
        date: '2026-11-03',
        firstLogin: at('09:00') + 86_400_000,
        lastLogout: null,
        loggedMs: HOUR,
      },
    ]);
    await screen.findByRole('table', { name: 'Employee Login Hours table' });
    expect(tableRows('Employee Login Hours table')).toEqual([
      ['Ada Lovelace', '11/02/2026', '8:55 am', '5:10 pm', '8:15'],
      ['Ada Lovelace', '11/03/2026', '9:00 am', 'Still signed in', '1:00'],
    ]);
  });

  it('writes utilization and productivity as percentages, and a dash without a schedule', async () => {
    const first = renderWidget('employee_utilization', [
      { userId: 1, name: 'Ada Lovelace', activeMs: 6 * HOUR, idleMs: HOUR, scheduledMs: 8 * HOUR, utilization: 0.75 },
      { userId: 2, name: 'Alan Turing', activeMs: HOUR, idleMs: 0, scheduledMs: 0, utilization: null },
    ]);
    await screen.findByRole('table', { name: 'Employee Utilization table' });
    expect(tableRows('Employee Utilization table')).toEqual([
      ['Ada Lovelace', '6:00', '1:00', '8:00', '75%'],
      ['Alan Turing', '1:00', '0:00', '0:00', '-'],
    ]);
    first.unmount();

    renderWidget('task_productivity', [
      { taskId: 4, name: 'Invoices', activeMs: 3 * HOUR, idleMs: HOUR, productivity: 0.75 },
    ]);
    await screen.findByRole('table', { name: 'Task Productivity table' });
    expect(tableRows('Task Productivity table')).toEqual([['Invoices', '3:00', '1:00', '75%']]);
  });

  it('shows attendance, breaks and the status summary as tables', async () => {
    const attendance = renderWidget('attendance_and_tardiness', [
      {
        userId: 1,
        name: 'Ada Lovelace',
        scheduledDays: 5,
        presentDays: 4,
        lateDays: 2,
        absentDays: 1,
        lateMs: 25 * MINUTE,
      },
    ]);
    await screen.findByRole('table', { name: 'Attendance and Tardiness table' });
    expect(tableRows('Attendance and Tardiness table')).toEqual([['Ada Lovelace', '5', '4', '2', '1', '0:25']]);
    attendance.unmount();

    const breaks = renderWidget('break_adherence', [
      { userId: 1, name: 'Ada Lovelace', breaks: 3, overThreshold: 1, overMs: 7 * MINUTE },
    ]);
    await screen.findByRole('table', { name: 'Break Adherence table' });
    expect(tableRows('Break Adherence table')).toEqual([['Ada Lovelace', '3', '1', '0:07']]);
    breaks.unmount();

    renderWidget('status_summary', [
      {
        statusId: 3,
        name: 'Lunch',
        color: '#ff8800',
        people: 2,
        count: 4,
        durationMs: 2 * HOUR,
        averageMs: 30 * MINUTE,
      },
    ]);
    await screen.findByRole('table', { name: 'Status Summary table' });
    expect(tableRows('Status Summary table')).toEqual([['Lunch', '2', '4', '2:00', '0:30']]);
  });

  it('lists alerts and actions newest first: kind, person, text and time', async () => {
    const alerts = renderWidget('alerts', [
      { at: at('09:20'), userId: 1, name: 'Ada Lovelace', kind: 'late', message: 'Late by 20 min' },
      {
        at: at('09:00'),
        userId: 2,
        name: 'Alan Turing',
        kind: 'absent',
        message: 'Absent: no sign-in for the schedule',
      },
    ]);
    const list = await screen.findByRole('list', { name: 'Alerts, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Ada LovelaceLateLate by 20 min11/02/26 09:20 AM',
      'Alan TuringAbsentAbsent: no sign-in for the schedule11/02/26 09:00 AM',
    ]);
    alerts.unmount();

    renderWidget('action_timeline', [
      { at: at('08:55'), userId: 1, name: 'Ada Lovelace', kind: 'sign_in', label: 'Signed in' },
    ]);
    const actions = await screen.findByRole('list', { name: 'Action Timeline, newest first' });
    expect(within(actions).getByRole('listitem').textContent).toBe('Ada LovelaceSessionSigned in11/02/26 08:55 AM');
  });

  it('shows the active users as three figures, and says so when nobody was active', async () => {
    const first = renderWidget('active_users', { online: 3, active: 5, total: 1204 });
    await screen.findByText('Online now');
    const figure = (name: string) => screen.getByText(name).nextElementSibling?.textContent;
    expect([figure('Online now'), figure('Active in the range'), figure('People')]).toEqual([
      '3',
      '5',
      (1204).toLocaleString(),
    ]);
    expect(screen.queryByText(/^Nobody was active/)).toBeNull();
    first.unmount();

    renderWidget('active_users', EMPTY.active_users);
    expect(await screen.findByText(/^Nobody was active in this range/)).toBeTruthy();
    expect(screen.getByText('People').nextElementSibling?.textContent).toBe('4');
  });

  it.each(WIDGET_KEYS)('says what would fill %s when its answer is empty', async (widgetKey) => {
    const { container } = renderWidget(widgetKey, EMPTY[widgetKey]);
    const state = await settledState(container);
    expect(state).toBe(widgetKey === 'active_users' ? 'data' : 'empty');
    expect(container.querySelector('[data-widget-empty]')?.textContent).toMatch(/ in this range/);
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('says when the call failed, and tries again on request', async () => {
    let failing = true;
    const { user } = renderWidget('top_tasks', () =>
      failing
        ? { status: 403, body: errorBody('ERROR_GENERAL_FORBIDDEN') }
        : { body: [{ taskId: 1, name: 'Invoices', durationMs: HOUR }] },
    );
    expect(await screen.findByText('Top Tasks could not be loaded.')).toBeTruthy();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: /^Top Tasks chart/ })).toBeTruthy();
  });

  it('keeps the height of the view while it loads', async () => {
    renderWidget('hourly_activity', () => new Promise(() => {}));
    expect(screen.getByText('Loading Hourly Activity…')).toBeTruthy();
  });
});
