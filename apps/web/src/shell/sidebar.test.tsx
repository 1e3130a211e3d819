import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { viewerOf } from '../lib/authorities';
import { renderWithProviders } from '../test/render';
import { Sidebar } from './sidebar';
import { DEFAULT_SIDEBAR, parseSidebarMemory } from './sidebar-memory';

function renderSidebar(authorities: string[], path = '/dashboard', companyId: number | null = 5) {
  const onLogout = vi.fn();
  renderWithProviders(
    <nav aria-label="Main navigation">
      <Sidebar viewer={viewerOf(authorities, companyId)} onLogout={onLogout} />
    </nav>,
    { path },
  );
  return { nav: screen.getByRole('navigation', { name: 'Main navigation' }), onLogout };
}

describe('sidebar', () => {
  it('shows each link only to holders of its authority, and always Dashboard and Logout', () => {
    const { nav } = renderSidebar(['ACCESS_WORKFLOW_TAB', 'ACCESS_ROLE_TAB', 'ACCESS_MONITOR_REPORT_TAB']);
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual(['Dashboard', 'Workflows', 'Roles', 'Monitor']);
    expect(within(nav).getByRole('button', { name: 'Workflow Management' })).toBeTruthy();
    expect(within(nav).queryByRole('button', { name: 'License Management' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('shows every link of the spec to a provider administrator', () => {
    const { nav } = renderSidebar(
      [
        'ACCESS_AGENT_REPORT_TAB',
        'ACCESS_MONITOR_REPORT_TAB',
        'ACCESS_WORKFLOW_TAB',
        'ACCESS_WORKFLOW_EVENTS_TAB',
        'ACCESS_WORKFLOW_ERROR_LOGS_TAB',
        'ACCESS_COMPANY_TAB',
        'ACCESS_ACCOUNT_TAB',
        'ACCESS_ACTIVITY_TAB',
        'MANAGE_LICENSING',
        'ACCESS_USER_TAB',
        'ACCESS_DEPARTMENT_TAB',
        'ACCESS_ROLE_TAB',
        'ACCESS_STATUS_TAB',
        'ACCESS_TASK_TAB',
        'ACCESS_SCHEDULE_TAB',
        'ACCESS_TASK_TARGET_TAB',
        'ACCESS_TRANSFER_TAB',
        'ACCESS_DATA_ENTRY_TAB',
      ],
      '/dashboard',
      null,
    );
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Dashboard',
      'Workflows',
      'Events',
      'Error Logs',
      'Execution Logs',
      'Companies',
      'Accounts',
      'Activities',
      'Premium Activities',
      'Users',
      'Departments',
      'Roles',
      'Statuses',
      'Tasks',
      'Schedules',
      'Task Targets',
      'Transfers',
      'Data Entry',
      'Agent',
      'Monitor',
    ]);
  });

  it("links 'Licenses' to the user's company page", () => {
    renderSidebar(['MANAGE_LICENSING'], '/dashboard', 42);
    expect(screen.getByRole('link', { name: 'Licenses' }).getAttribute('href')).toBe('/dashboard/license/companies/42');
  });

  it('highlights the link whose path the current path contains', () => {
    renderSidebar(['ACCESS_COMPANY_TAB', 'ACCESS_ACCOUNT_TAB'], '/dashboard/license/companies/3/license/1');
    expect(screen.getByRole('link', { name: 'Companies' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Companies' }).hasAttribute('data-active')).toBe(true);
    expect(screen.getByRole('link', { name: 'Accounts' }).hasAttribute('aria-current')).toBe(false);
    expect(screen.getByRole('link', { name: 'Dashboard' }).hasAttribute('data-active')).toBe(false);
  });

  it('collapses and expands a group', async () => {
    const user = userEvent.setup();
    renderSidebar(['ACCESS_USER_TAB']);
    const group = screen.getByRole('button', { name: 'User Management' });
    expect(group.getAttribute('aria-expanded')).toBe('true');
    await user.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('false');
    await user.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('true');
  });

  it('logs out from the Logout control', async () => {
    const user = userEvent.setup();
    const { onLogout } = renderSidebar(['ACCESS_USER_TAB']);
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('remembers the closed groups across a reload', async () => {
    const user = userEvent.setup();
    const first = renderSidebar(['ACCESS_WORKFLOW_TAB', 'ACCESS_ROLE_TAB']);
    const group = within(first.nav).getByRole('button', { name: 'Workflow Management' });
    await user.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('false');
    cleanup();
    const again = renderSidebar(['ACCESS_WORKFLOW_TAB', 'ACCESS_ROLE_TAB']);
    expect(within(again.nav).getByRole('button', { name: 'Workflow Management' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    expect(within(again.nav).getByRole('button', { name: 'User Management' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
  });
});

describe('sidebar memory', () => {
  it('reads what it stored, and the default from anything else', () => {
    expect(parseSidebarMemory(JSON.stringify({ pinned: false, closedGroups: ['nav.reports', 7] }))).toEqual({
      pinned: false,
      closedGroups: ['nav.reports'],
    });
    for (const raw of [null, '', 'not json', '[]', '42', JSON.stringify({ pinned: 'no' })]) {
      expect(parseSidebarMemory(raw)).toEqual(DEFAULT_SIDEBAR);
    }
  });
});
