import type { Activity } from '@opsdeck/contract/activities';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../../test/builders';
import { errorBody } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const activity = (overrides: Partial<Activity>): Activity => ({
  id: 1,
  name: 'Open Browser',
  key: 'open-browser',
  category: 'Web',
  partial: 0,
  isPartial: false,
  createDate: Date.UTC(2026, 0, 5, 12),
  ...overrides,
});

function api(handlers = {}) {
  return signedIn(['ACCESS_ACTIVITY_TAB', 'CREATE_ACTIVITY', 'EDIT_ACTIVITY', 'DELETE_ACTIVITY'], {
    'GET /api/activity': () => ({
      body: [
        activity({}),
        activity({ id: 2, name: 'SAP Logon', key: 'sap-logon', category: '', createDate: Date.UTC(2026, 1, 9, 12) }),
      ],
    }),
    ...handlers,
  });
}

describe('activities page', { timeout: 40_000 }, () => {
  it('lists create date (MMM DD), name, key and category, newest first', async () => {
    api();
    renderApp('/dashboard/license/activities');
    const table = await screen.findByRole('table', { name: 'Activities' }, { timeout: 15_000 });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 4)
          .map((cell) => cell.textContent),
      );
    expect(cells).toEqual([
      ['Feb 09', 'SAP Logon', 'sap-logon', '-'],
      ['Jan 05', 'Open Browser', 'open-browser', 'Web'],
    ]);
  });

  it('creates one with its key and partial flag, and puts a duplicate key on the key field', async () => {
    let duplicate = true;
    const { calls } = api({
      'POST /api/activity': () =>
        duplicate
          ? {
              status: 409,
              body: errorBody('ERROR_ACTIVITY_KEY_DUPLICATE', undefined, { key: 'ERROR_ACTIVITY_KEY_DUPLICATE' }),
            }
          : { status: 201, body: activity({ id: 3, name: 'Read Excel Range', key: 'read-excel' }) },
    });
    const user = userEvent.setup();
    renderApp('/dashboard/license/activities');
    await user.click(await screen.findByRole('button', { name: 'Create activity' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Create activity' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Activity name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Activity key is required.')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Read Excel Range');
    await user.type(within(dialog).getByRole('textbox', { name: /^Key/ }), 'open-browser');
    await user.click(within(dialog).getByRole('checkbox', { name: /^Partial/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Another activity already has this key.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Read Excel Range',
      key: 'open-browser',
      category: '',
      partial: true,
    });

    duplicate = false;
    const key = within(dialog).getByRole('textbox', { name: /^Key/ });
    await user.clear(key);
    await user.type(key, 'read-excel');
    await waitFor(() =>
      expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create activity' })).toBeNull());
    expect(await screen.findByText('Successfully added Read Excel Range')).toBeTruthy();
  });

  it('archives with the spec key of its area when the server fails otherwise', async () => {
    api({ 'DELETE /api/activity/1': () => ({ status: 500, body: errorBody('ERROR_GENERAL_INTERNAL') }) });
    const user = userEvent.setup();
    renderApp('/dashboard/license/activities');
    await user.click(await screen.findByRole('button', { name: 'Archive Open Browser' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive activity' });
    await user.click(within(dialog).getByRole('button', { name: /Archive|Delete|Confirm/ }));
    expect(await screen.findByText(/Something went wrong while archiving the activity/)).toBeTruthy();
  });
});
