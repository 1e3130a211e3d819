import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildUser, signedIn } from '../../test/builders';
import { errorBody } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const page = (items: ReturnType<typeof buildUser>[]) => ({ items, total: items.length, page: 1, size: 10 });

describe('users page delete', () => {
  it('offers delete only on users the caller may delete, and says why not on the others', async () => {
    signedIn(['ACCESS_USER_TAB', 'DELETE_USER'], {
      'GET /api/user/get-user-list': () => ({
        body: page([
          buildUser({ id: 1, completeName: 'Ada Byron' }),
          buildUser({ id: 2, completeName: 'Hedy Head', deletable: false }),
        ]),
      }),
    });
    const user = userEvent.setup();
    renderApp('/dashboard/management/users');
    const blocked = await screen.findByRole('button', { name: /^Delete Hedy Head: / }, { timeout: 15_000 });
    expect(blocked.getAttribute('aria-disabled')).toBe('true');
    expect(blocked.getAttribute('aria-label')).toContain('cannot be deleted');
    await user.click(blocked);
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete Ada Byron' }));
    expect(await screen.findByRole('dialog', { name: 'Delete user' })).toBeTruthy();
  });

  it("shows a refused archive's own message in a toast naming the user, and closes", async () => {
    const { calls } = signedIn(['ACCESS_USER_TAB', 'DELETE_USER'], {
      'GET /api/user/get-user-list': () => ({ body: page([buildUser({ id: 1, completeName: 'Ada Byron' })]) }),
      'DELETE /api/user/archive/1': () => ({ status: 409, body: errorBody('ERROR_GENERAL_PROTECTED') }),
    });
    const user = userEvent.setup();
    renderApp('/dashboard/management/users');
    await user.click(await screen.findByRole('button', { name: 'Delete Ada Byron' }, { timeout: 15_000 }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('The item is protected and cannot be deleted. (Ada Byron)')).toBeTruthy();
    // The list reloads after the refusal: what it shows may be stale.
    await waitFor(() => expect(calls.filter((call) => call.url.startsWith('/api/user/get-user-list'))).toHaveLength(2));
  });
});
