import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { reloadSessionFromStorage } from '../lib/session';
import { buildProfile, errorBody, fakeApi } from '../test/fake-api';
import { renderApp } from '../test/render';

function signedIn(auths: string[], overrides: Parameters<typeof buildProfile>[0] = {}) {
  window.localStorage.setItem('opsdeck.authToken', 'tok-1');
  window.localStorage.setItem('opsdeck.tenantId', 'tenant-other');
  reloadSessionFromStorage();
  return fakeApi({
    'GET /api/user/profile/current-user': () => ({ body: buildProfile({ auths, ...overrides }) }),
    'GET /api/logout': () => ({ body: { ok: true } }),
  });
}

describe('console routing and shell', () => {
  it('sends an anonymous visitor to the login page', async () => {
    fakeApi({});
    const { router } = renderApp('/dashboard/management/users');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it("opens a stored session on the user's default page, with the name in the top bar", async () => {
    signedIn(['ACCESS_AGENT_REPORT_TAB', 'ACCESS_USER_TAB'], { fullName: 'Grace Hopper' });
    const { router } = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Agent Report' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/report/agent');
    const banner = screen.getByRole('banner');
    expect(within(banner).getByText('Grace Hopper')).toBeTruthy();
    expect(within(banner).getByRole('button', { name: 'Toggle sidebar' })).toBeTruthy();
  });

  it('hides the sidebar from the top bar toggle and shows it again', async () => {
    signedIn(['ACCESS_USER_TAB']);
    const user = userEvent.setup();
    renderApp('/dashboard/management/users');
    const toggle = await screen.findByRole('button', { name: 'Toggle sidebar' });
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    await user.click(toggle);
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    await user.click(toggle);
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
  });

  it('sends a page without its tab authority to forbidden', async () => {
    signedIn(['ACCESS_USER_TAB']);
    const { router } = renderApp('/dashboard/management/roles');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/forbidden');
  });

  it('shows the placeholder screens as such', async () => {
    signedIn(['ACCESS_TASK_TARGET_TAB']);
    renderApp('/dashboard/management/targets');
    expect(await screen.findByRole('heading', { name: 'Task Targets' })).toBeTruthy();
    expect(screen.getByText(/This screen is a placeholder/)).toBeTruthy();
  });

  it('renders the shell but no content for a user without authorities', async () => {
    signedIn([]);
    const { router } = renderApp('/dashboard/management/users');
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/management/users');
    expect(screen.queryByRole('heading', { name: 'Users' })).toBeNull();
  });

  it('ends the session when a call answers 401', async () => {
    window.localStorage.setItem('opsdeck.authToken', 'expired');
    reloadSessionFromStorage();
    fakeApi({
      'GET /api/user/profile/current-user': () => ({ status: 401, body: errorBody('ERROR_UNAUTHORIZED') }),
    });
    const { router } = renderApp('/dashboard/management/users');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('opsdeck.authToken')).toBeNull();
  });

  it('logs out: tells the server, forgets token and tenant, returns to login', async () => {
    const { calls } = signedIn(['ACCESS_USER_TAB']);
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/management/users');
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    const logout = calls.find((call) => call.url === '/api/logout');
    expect(logout?.headers.get('x-auth-token')).toBe('tok-1');
    expect(window.localStorage.getItem('opsdeck.authToken')).toBeNull();
    expect(window.localStorage.getItem('opsdeck.tenantId')).toBeNull();
  });

  it('keeps a breadcrumb trail of visited pages that jumps back', async () => {
    signedIn(['ACCESS_USER_TAB', 'ACCESS_ROLE_TAB', 'ACCESS_TASK_TAB']);
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/management/users');
    await screen.findByRole('heading', { name: 'Users' });
    await user.click(screen.getByRole('link', { name: 'Roles' }));
    await screen.findByRole('heading', { name: 'Roles' });
    await user.click(screen.getByRole('link', { name: 'Tasks' }));
    await screen.findByRole('heading', { name: 'Tasks' });
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(trail.textContent).toContain('Users');
    expect(within(trail).getByText('Tasks').getAttribute('aria-current')).toBe('page');
    await user.click(within(trail).getByRole('link', { name: 'Users' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/management/users'));
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).queryByText('Roles')).toBeNull();
  });

  it('shows the unauthorized page with 401', async () => {
    fakeApi({});
    renderApp('/unauthorized');
    expect(await screen.findByRole('heading', { name: 'Unauthorized Access' })).toBeTruthy();
    expect(screen.getByText('401')).toBeTruthy();
  });
});
