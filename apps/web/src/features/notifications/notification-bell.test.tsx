import type { Alert, Notification, NotificationPage } from '@opsdeck/contract/alerts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LiveSourceContext } from '../../lib/live/live-source';
import { ProfileContext } from '../../lib/profile-context';
import { signedIn } from '../../test/builders';
import { buildProfile, fakeApi } from '../../test/fake-api';
import { FakeLiveSource } from '../../test/fake-live-source';
import { renderApp, renderWithProviders } from '../../test/render';
import { NotificationBell } from './notification-bell';

const MINUTE = 60_000;

const notification = (overrides: Partial<Notification> = {}): Notification => ({
  id: 1,
  kind: 'agent_offline',
  title: 'Agent offline',
  body: 'RPA-0020 (ODK-B6C9-…) offline for 25 min',
  link: '/dashboard/workflow/events',
  alertId: 11,
  open: true,
  createdAt: Date.now() - 5 * MINUTE,
  readAt: null,
  ...overrides,
});

const page = (
  items: Notification[],
  unread = items.filter((item) => item.readAt === null).length,
): NotificationPage => ({
  items,
  total: items.length,
  page: 1,
  size: 20,
  unread,
});

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** The bell alone, for a person holding `auths`, with a live source the test drives. */
function renderBell(auths: string[], handlers: Parameters<typeof fakeApi>[0]) {
  const api = fakeApi(handlers);
  const source = new FakeLiveSource();
  const view = renderWithProviders(
    <ProfileContext.Provider value={buildProfile({ auths })}>
      <LiveSourceContext.Provider value={source}>
        <NotificationBell />
        <Where />
      </LiveSourceContext.Provider>
    </ProfileContext.Provider>,
    { path: '/dashboard/report/agent' },
  );
  return { ...view, ...api, source, user: userEvent.setup() };
}

const bellButton = (count: number) =>
  screen.findByRole('button', { name: count === 0 ? 'Notifications' : `Notifications, ${count} unread` });

describe('notification bell', () => {
  it('shows the unread count, and the newest notifications read and unread, open alerts marked', async () => {
    const { user, calls, source } = renderBell(['ACCESS_USER_TAB'], {
      'GET /api/notification': () => ({
        body: page(
          [
            notification(),
            notification({
              id: 2,
              kind: 'seats_nearly_full',
              title: 'Seats nearly full',
              body: 'Standard 2025: 9 of 10 seats used',
              link: null,
              open: false,
              createdAt: Date.now() - 3 * 3_600_000,
              readAt: Date.now() - 3_600_000,
            }),
          ],
          3,
        ),
      }),
    });
    const bell = await bellButton(3);
    expect(bell.textContent).toContain('3');
    expect(calls.find((call) => call.url.startsWith('/api/notification'))?.url).toBe(
      '/api/notification?page=1&size=20',
    );

    await user.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    const entries = within(await within(panel).findByRole('list', { name: 'Newest notifications' })).getAllByRole(
      'listitem',
    );
    expect(entries).toHaveLength(2);
    const [first, second] = entries as [HTMLElement, HTMLElement];
    expect(first.getAttribute('data-unread')).toBe('true');
    expect(within(first).getByText('Agent offline')).toBeTruthy();
    expect(within(first).getByText('Unread:', { exact: false })).toBeTruthy();
    expect(within(first).getByText('RPA-0020 (ODK-B6C9-…) offline for 25 min')).toBeTruthy();
    expect(within(first).getByText('5 minutes ago')).toBeTruthy();
    expect(within(first).getByText('Open')).toBeTruthy();
    expect(within(first).getByRole('link').getAttribute('href')).toBe('/dashboard/workflow/events');
    expect(second.getAttribute('data-unread')).toBeNull();
    expect(within(second).getByText('3 hours ago')).toBeTruthy();
    expect(within(second).getByText('Cleared')).toBeTruthy();
    expect(within(second).queryByRole('link')).toBeNull();
    // No open-alerts tab without MANAGE_ALERTS.
    expect(within(panel).queryByRole('tab')).toBeNull();
    // Whatever the person's authorities, the bell follows their notifications live.
    await waitFor(() => expect(source.notificationListeners.size).toBe(1));
  });

  it('counts a notification arriving on the live channel and lists it, without a reload', async () => {
    const items = [notification({ readAt: Date.now() })];
    const { user, source, calls } = renderBell(['VIEW_WORKFLOW_EVENTS'], {
      'GET /api/notification': () => ({ body: page(items) }),
    });
    await bellButton(0);
    // The live connection is the shell's, loaded beside it.
    await waitFor(() => expect(source.notificationListeners.size).toBe(1));
    const reads = () => calls.filter((call) => call.url.startsWith('/api/notification')).length;
    const before = reads();
    const arrived = notification({
      id: 7,
      kind: 'workflow_faulted',
      title: 'Workflow faulted',
      body: 'Payroll faulted 3 times',
    });
    // Stored by the server, then told on the live channel.
    items.unshift(arrived);
    source.notification(arrived);
    const bell = await bellButton(1);
    expect(reads()).toBe(before);
    await user.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(panel).findByRole('list', { name: 'Newest notifications' });
    const entries = within(panel).getAllByRole('listitem');
    expect(entries).toHaveLength(2);
    expect(within(entries[0] as HTMLElement).getByText('Payroll faulted 3 times')).toBeTruthy();
    // The same notification told twice counts once.
    source.notification(notification({ id: 7, title: 'Workflow faulted', body: 'Payroll faulted 3 times' }));
    expect(await bellButton(1)).toBeTruthy();
  });

  it('marks an entry read when followed, and goes to its link', async () => {
    let items = [notification(), notification({ id: 2, link: null, title: 'Late arrival', kind: 'late_arrival' })];
    const { user, calls } = renderBell(['ACCESS_USER_TAB'], {
      'GET /api/notification': () => ({ body: page(items) }),
      'POST /api/notification/read': (call) => {
        const { ids } = call.body as { ids: number[] };
        items = items.map((item) => (ids.includes(item.id) ? { ...item, readAt: Date.now() } : item));
        return { body: { ok: true } };
      },
    });
    await user.click(await bellButton(2));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    await user.click(await within(panel).findByRole('link', { name: /Agent offline/ }));
    expect(await bellButton(1)).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ ids: [1] });
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/workflow/events');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull());
  });

  it('marks all as read', async () => {
    let items = [notification(), notification({ id: 2 }), notification({ id: 3, readAt: Date.now() })];
    const { user, calls } = renderBell(['ACCESS_USER_TAB'], {
      'GET /api/notification': () => ({ body: page(items) }),
      'POST /api/notification/read': () => {
        items = items.map((item) => ({ ...item, readAt: item.readAt ?? Date.now() }));
        return { body: { ok: true } };
      },
    });
    await user.click(await bellButton(2));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    await user.click(within(panel).getByRole('button', { name: 'Mark all as read' }));
    expect(await bellButton(0)).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.url === '/api/notification/read')?.body).toEqual({
      all: true,
    });
    await waitFor(() =>
      expect(
        within(panel)
          .getAllByRole('listitem')
          .some((entry) => entry.hasAttribute('data-unread')),
      ).toBe(false),
    );
    expect((within(panel).getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists the open alerts for a holder of MANAGE_ALERTS', async () => {
    const alert: Alert = {
      id: 11,
      ruleId: 3,
      tenantId: 'tenant-acme',
      kind: 'seats_nearly_full',
      subject: 'Standard 2025: 9 of 10 seats used',
      link: '/dashboard/license/companies/5',
      raisedAt: Date.now() - 2 * MINUTE,
      clearedAt: null,
    };
    const { user } = renderBell(['MANAGE_ALERTS'], {
      'GET /api/notification': () => ({ body: page([]) }),
      'GET /api/alert': () => ({ body: [alert] }),
    });
    await user.click(await bellButton(0));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(panel).findByText('No notifications yet.')).toBeTruthy();
    await user.click(within(panel).getByRole('tab', { name: 'Open alerts' }));
    const alerts = await within(panel).findByRole('list', { name: 'Open alerts' });
    expect(within(alerts).getByText('Seats nearly full')).toBeTruthy();
    expect(within(alerts).getByText('Raised 2 minutes ago')).toBeTruthy();
    expect(
      within(alerts)
        .getByRole('link', { name: /9 of 10 seats used/ })
        .getAttribute('href'),
    ).toBe('/dashboard/license/companies/5');
  });

  it('saves the e-mail preferences, a switch per kind', async () => {
    const { user, calls } = renderBell(['ACCESS_USER_TAB'], {
      'GET /api/notification': () => ({ body: page([]) }),
      'GET /api/notification/preferences': () => ({ body: { email: { late_arrival: false } } }),
      'PUT /api/notification/preferences': (call) => ({ body: call.body }),
    });
    await user.click(await bellButton(0));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    await user.click(await within(panel).findByRole('button', { name: 'E-mail preferences' }));
    const dialog = await screen.findByRole('dialog', { name: 'E-mail preferences' });
    const late = within(dialog).getByRole('switch', { name: 'Late arrival' }) as HTMLInputElement;
    expect(late.checked).toBe(false);
    const offline = within(dialog).getByRole('switch', { name: 'Agent offline' }) as HTMLInputElement;
    expect(offline.checked).toBe(true);
    await user.click(offline);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'E-mail preferences' })).toBeNull());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      email: {
        agent_offline: false,
        workflow_faulted: true,
        license_expiring: true,
        seats_nearly_full: true,
        late_arrival: false,
        break_over: true,
      },
    });
    expect(await screen.findByText('E-mail preferences saved')).toBeTruthy();
  });
});

describe('the bell in the top bar', { timeout: 40_000 }, () => {
  it('is in every signed-in page’s top bar', async () => {
    signedIn(['ACCESS_USER_TAB'], {
      'GET /api/user': () => ({ body: { items: [], total: 0, page: 1, size: 10 } }),
      'GET /api/notification': () => ({ body: page([notification()]) }),
    });
    renderApp('/dashboard/management/users');
    const banner = await screen.findByRole('banner', {}, { timeout: 15_000 });
    expect(await within(banner).findByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy();
  });
});
