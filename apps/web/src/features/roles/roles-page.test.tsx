import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildRole, signedIn } from '../../test/builders';
import { renderApp } from '../../test/render';

describe('roles page', () => {
  it('offers no edit and a disabled delete, with the reason, on a built-in role', async () => {
    signedIn(['ACCESS_ROLE_TAB', 'EDIT_ROLE', 'DELETE_ROLE'], {
      'GET /api/usergroup/findAllActive': () => ({
        body: [
          buildRole({ id: 1, name: 'Auditors' }),
          buildRole({ id: 2, name: 'Company Head', isProtected: true, editable: false, deletable: false }),
        ],
      }),
    });
    renderApp('/dashboard/management/roles');
    expect(await screen.findByRole('button', { name: 'Delete role Auditors' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit role Auditors' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit role Company Head' })).toBeNull();
    const blocked = screen.getByRole('button', { name: /^Delete role Company Head: / });
    expect(blocked.getAttribute('aria-disabled')).toBe('true');
  });
});
