import { DEFAULT_LAYOUT, type VisibleWidget, WIDGET_CATALOGUE, type WidgetKey } from '@opsdeck/contract/monitor';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ProfileContext } from '../../lib/profile-context';
import { buildProfile, errorBody, fakeApi, type RecordedCall } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render';

const ME = 7;
const LAYOUT_PATH = `/api/user/getVisibleWidgets/${ME}`;
const SAVE_PATH = `/api/user/updateVisibleWidgets/${ME}`;
/** Today as the URL holds it: its first and last millisecond. */
const TODAY = `dateFrom=${dayjs().startOf('day').valueOf()}&dateTo=${dayjs().endOf('day').valueOf()}`;
const MONITOR = `/dashboard/report/monitor?${TODAY}`;

/** The server's sixteen for a layout given as `key@column` in order. */
function sixteen(visible: readonly string[]): VisibleWidget[] {
  const placed = visible.map((entry, index) => {
    const [widgetKey, column] = entry.split('@') as [WidgetKey, string];
    return { widgetKey, widgetOrder: index + 1, widgetColumnNumber: Number(column) };
  });
  return WIDGET_CATALOGUE.map(({ widgetKey, widgetTitle }) => {
    const found = placed.find((widget) => widget.widgetKey === widgetKey);
    return {
      widgetKey,
      widgetTitle,
      widgetOrder: found?.widgetOrder ?? 0,
      widgetColumnNumber: found?.widgetColumnNumber ?? 1,
    };
  });
}
const DEFAULT_SIX = DEFAULT_LAYOUT.map((widget) => `${widget.widgetKey}@${widget.widgetColumnNumber}`);

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

async function renderMonitor(
  handlers: Parameters<typeof fakeApi>[0] = {},
  { path = MONITOR, auths = ['ACCESS_MONITOR_REPORT_TAB'] }: { path?: string; auths?: string[] } = {},
) {
  const api = fakeApi({
    [`GET ${LAYOUT_PATH}`]: () => ({ body: sixteen(DEFAULT_SIX) }),
    'GET /api/widget': () => ({ body: WIDGET_CATALOGUE }),
    'GET /api/user/getActiveUsers/false': () => ({ body: [] }),
    'GET /api/report/monitor/alerts': () => ({ body: [] }),
    ...handlers,
  });
  const { MonitorPage } = await import('./monitor-page');
  const view = renderWithProviders(
    <ProfileContext.Provider value={buildProfile({ id: ME, auths })}>
      <MonitorPage />
      <Location />
    </ProfileContext.Provider>,
    { path },
  );
  return { ...view, ...api, user: userEvent.setup() };
}

const cardTitles = (column: 1 | 2) =>
  within(screen.getByRole('list', { name: `Column ${column}` }))
    .queryAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent);
const saves = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'POST' && call.url === SAVE_PATH);

describe('monitor page', () => {
  it("goes to today's range when the dates are missing, keeping the other filters", async () => {
    await renderMonitor({}, { path: '/dashboard/report/monitor?user=12' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`?user=12&${TODAY}`));
    const active = screen.getByRole('list', { name: 'Active filters' });
    expect(within(active).getByText(`Dates: ${dayjs().format('MM/DD/YYYY')}`)).toBeTruthy();
    expect(within(active).getByText('Department: All departments')).toBeTruthy();
  });

  it('loads the layout after 200 ms and shows the default six in their columns, each with its data', async () => {
    const started = Date.now();
    const { calls } = await renderMonitor();
    expect(screen.getByLabelText('Loading the dashboard…')).toBeTruthy();
    await screen.findByRole('heading', { name: 'Active Users' });
    const layoutCall = calls.findIndex((call) => call.url === LAYOUT_PATH);
    expect(layoutCall).toBeGreaterThanOrEqual(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(cardTitles(1)).toEqual(['Active Users', 'Hourly Activity', 'Top Statuses']);
    expect(cardTitles(2)).toEqual(['Top Applications', 'Employee Login Hours', 'Alerts']);
    const card = screen.getByRole('region', { name: 'Alerts' });
    expect(await within(card).findByText(/^No alerts in this range/)).toBeTruthy();
  });

  // The debounce itself (one save 500 ms after the last change) is timed in layout-saver.test.ts.
  it('hides widgets with their close buttons and saves the layout', async () => {
    const { calls, user } = await renderMonitor({
      [`POST ${SAVE_PATH}`]: () => ({ body: sixteen(['active_users@1']) }),
    });
    await screen.findByRole('heading', { name: 'Alerts' });
    await user.click(screen.getByRole('button', { name: 'Hide Alerts' }));
    await user.click(screen.getByRole('button', { name: 'Hide Top Statuses' }));
    expect(screen.queryByRole('heading', { name: 'Alerts' })).toBeNull();
    await waitFor(() =>
      expect(saves(calls).at(-1)?.body).toEqual({
        toAdd: [],
        currentVisibleWidgets: [
          { widgetKey: 'active_users', widgetOrder: 1, widgetColumnNumber: 1 },
          { widgetKey: 'top_applications', widgetOrder: 2, widgetColumnNumber: 2 },
          { widgetKey: 'hourly_activity', widgetOrder: 3, widgetColumnNumber: 1 },
          { widgetKey: 'employee_login_hours', widgetOrder: 4, widgetColumnNumber: 2 },
        ],
      }),
    );
  });

  it('says so when the save fails and puts the layout back as it was', async () => {
    const { user } = await renderMonitor({
      [`POST ${SAVE_PATH}`]: () => ({ status: 500, body: errorBody('ERROR_GENERAL_INTERNAL') }),
    });
    await screen.findByRole('heading', { name: 'Alerts' });
    await user.click(screen.getByRole('button', { name: 'Hide Alerts' }));
    expect(screen.queryByRole('heading', { name: 'Alerts' })).toBeNull();
    expect(await screen.findByText(/The dashboard layout could not be saved/, {}, { timeout: 3000 })).toBeTruthy();
    expect(cardTitles(2)).toEqual(['Top Applications', 'Employee Login Hours', 'Alerts']);
  });

  it('toggles widgets in Dashboard Settings: on goes to the end of column 1, off hides', async () => {
    const { calls, user } = await renderMonitor({
      [`POST ${SAVE_PATH}`]: () => ({ body: sixteen(DEFAULT_SIX) }),
    });
    await screen.findByRole('heading', { name: 'Alerts' });
    await user.click(screen.getByRole('button', { name: 'Dashboard Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dashboard Settings' });
    expect(within(dialog).getAllByRole('switch')).toHaveLength(16);
    await user.click(within(dialog).getByRole('switch', { name: 'Top Tasks' }));
    await user.click(within(dialog).getByRole('switch', { name: 'Active Users' }));
    expect(within(dialog).getByRole('switch', { name: 'Top Tasks' })).toHaveProperty('checked', true);
    expect(cardTitles(1)).toEqual(['Hourly Activity', 'Top Statuses', 'Top Tasks']);
    const lastSaved = () =>
      (
        saves(calls).at(-1)?.body as { currentVisibleWidgets: { widgetKey: string }[] } | undefined
      )?.currentVisibleWidgets.map((widget) => widget.widgetKey);
    await waitFor(() =>
      expect(lastSaved()).toEqual([
        'hourly_activity',
        'top_applications',
        'top_statuses',
        'employee_login_hours',
        'top_tasks',
        'alerts',
      ]),
    );
  });

  it('keeps an empty dashboard empty and offers the settings', async () => {
    await renderMonitor({ [`GET ${LAYOUT_PATH}`]: () => ({ body: sixteen([]) }) });
    expect(await screen.findByText('No widgets are shown. Open Dashboard Settings to choose some.')).toBeTruthy();
  });

  it('applies the filter modal to the URL and names the choices in the header', async () => {
    const { user } = await renderMonitor(
      {
        'GET /api/user/getActiveUsers/false': () => ({
          body: [{ id: 12, completeName: 'Grace Hopper' }],
        }),
      },
      { path: `/dashboard/report/monitor?role=4&${TODAY}` },
    );
    await user.click(await screen.findByRole('button', { name: 'Filters' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filter the dashboard' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Person' }));
    await user.click(await screen.findByRole('option', { name: 'Grace Hopper' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`?user=12&role=4&${TODAY}`));
    expect(await screen.findByText('Person: Grace Hopper')).toBeTruthy();
    // Without the permission to list roles, the role select is off, and the header names the id.
    expect(screen.getByText('Role: #4')).toBeTruthy();
  });
});
