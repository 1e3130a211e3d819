import { Menu } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProfileContext } from '../lib/profile-context';
import { buildRole, buildUser, signedIn } from '../test/builders';
import { buildProfile } from '../test/fake-api';
import { renderApp, renderWithProviders } from '../test/render';
import { HistoryMenuItem, historyPath } from './history-link';

const usersPage = (items: ReturnType<typeof buildUser>[]) => ({ items, total: items.length, page: 1, size: 10 });
const USERS = {
  'GET /api/user/get-user-list': () => ({ body: usersPage([buildUser({ id: 12, completeName: 'Ada Byron' })]) }),
};

describe('History', () => {
  it('leads to the audit page filtered to the entity', () => {
    expect(historyPath('user', 12)).toBe('/dashboard/management/audit?entityType=user&entityId=12');
    expect(historyPath('account', 'a b')).toBe('/dashboard/management/audit?entityType=account&entityId=a+b');
  });

  it("is in a user's row actions for a holder of VIEW_AUDIT_LOG, even without edit or delete", async () => {
    signedIn(['ACCESS_USER_TAB', 'VIEW_AUDIT_LOG'], USERS);
    renderApp('/dashboard/management/users');
    const link = await screen.findByRole('link', { name: 'History of Ada Byron' }, { timeout: 15_000 });
    expect(link.getAttribute('href')).toBe('/dashboard/management/audit?entityType=user&entityId=12');
  });

  it('is not offered without VIEW_AUDIT_LOG', async () => {
    signedIn(['ACCESS_USER_TAB', 'EDIT_USER'], USERS);
    renderApp('/dashboard/management/users');
    expect(await screen.findByRole('button', { name: 'Edit Ada Byron' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /^History of/ })).toBeNull();
  });

  it("is beside a role's edit and delete", async () => {
    signedIn(['ACCESS_ROLE_TAB', 'EDIT_ROLE', 'VIEW_AUDIT_LOG'], {
      'GET /api/usergroup/findAllActive': () => ({ body: [buildRole({ id: 3, name: 'Auditors' })] }),
    });
    renderApp('/dashboard/management/roles');
    const link = await screen.findByRole('link', { name: 'History of Auditors' }, { timeout: 15_000 });
    expect(link.getAttribute('href')).toBe('/dashboard/management/audit?entityType=role&entityId=3');
  });

  it("is a menu entry for menus (the workflows'), shown by the same rule", async () => {
    const menu = (auths: string[]) => (
      <ProfileContext.Provider value={buildProfile({ auths })}>
        <Menu>
          <Menu.Target>
            <button type="button">Actions</button>
          </Menu.Target>
          <Menu.Dropdown>
            <HistoryMenuItem entityType="workflow" entityId={8} />
            <Menu.Item>Open</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </ProfileContext.Provider>
    );
    const user = userEvent.setup();
    const view = renderWithProviders(menu(['VIEW_AUDIT_LOG']));
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    const item = await screen.findByRole('menuitem', { name: 'History' });
    expect(item.getAttribute('href')).toBe('/dashboard/management/audit?entityType=workflow&entityId=8');
    view.unmount();

    renderWithProviders(menu(['ACCESS_WORKFLOW_TAB']));
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Open' })).toBeTruthy());
    expect(screen.queryByRole('menuitem', { name: 'History' })).toBeNull();
  });
});
