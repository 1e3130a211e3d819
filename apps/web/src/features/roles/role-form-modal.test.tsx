import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../../test/builders';
import { pressAndRelease } from '../../test/press';
import { renderApp } from '../../test/render';

describe('role form', () => {
  it('flags the empty Company field of an admin along with the name', async () => {
    const { calls } = signedIn(
      ['ACCESS_ROLE_TAB', 'CREATE_ROLE', 'ADMIN_ACCESS_LEVEL'],
      {
        'GET /api/usergroup/findAllActive': () => ({ body: [] }),
        'GET /api/authority/findAll': () => ({ body: [] }),
        'GET /api/company': () => ({ body: [] }),
      },
      { company: null, tenantId: null },
    );
    const user = userEvent.setup();
    renderApp('/dashboard/management/roles');
    await user.click(await screen.findByRole('button', { name: 'Create role' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Create role' });
    // The name field has the focus when the dialog opens; Save is pressed straight away.
    await user.click(within(dialog).getByRole('textbox', { name: /^Name/ }));
    await pressAndRelease(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Role name is required.')).toBeTruthy();
    expect(await within(dialog).findByText('Company is required.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
