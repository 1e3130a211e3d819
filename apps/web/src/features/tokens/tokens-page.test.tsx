import type { ApiToken, CreatedApiToken } from '@opsdeck/contract/tokens';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../../test/builders';
import { errorBody } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const PAGE = '/dashboard/profile/tokens';
const DAY = 86_400_000;

const token = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: 1,
  name: 'Nightly export',
  scopes: ['VIEW_TASK', 'VIEW_STATUS'],
  createdAt: Date.now() - 10 * DAY,
  expiresAt: Date.now() + 20 * DAY,
  lastUsedAt: Date.now() - 60_000,
  lastUsedAddress: '203.0.113.7',
  ...overrides,
});

async function openPage() {
  const user = userEvent.setup();
  renderApp(PAGE);
  const table = await screen.findByRole('table', { name: 'API tokens' }, { timeout: 15_000 });
  return { user, table };
}

describe('API tokens page', { timeout: 40_000 }, () => {
  it('lists the tokens with their scopes, dates and last use, an expired one marked', async () => {
    signedIn(['ACCESS_TASK_TAB'], {
      'GET /api/token': () => ({
        body: [
          token(),
          token({
            id: 2,
            name: 'Old one',
            scopes: ['VIEW_TASK'],
            expiresAt: Date.now() - DAY,
            lastUsedAt: null,
            lastUsedAddress: null,
          }),
        ],
      }),
    });
    const { table } = await openPage();
    const first = (await within(table).findByText('Nightly export')).closest('tr') as HTMLElement;
    expect(within(first).getByText('2 scopes')).toBeTruthy();
    expect(within(first).getByText('from 203.0.113.7')).toBeTruthy();
    const second = within(table).getByText('Old one').closest('tr') as HTMLElement;
    expect(within(second).getByText('Expired')).toBeTruthy();
    expect(within(second).getByText('Never')).toBeTruthy();
    expect(within(second).getByText('View task')).toBeTruthy();
  });

  it('creates a token with scopes among the user’s own authorities and shows it once', async () => {
    const created: CreatedApiToken = {
      ...token({ id: 3, name: 'CI', scopes: ['VIEW_TASK'], lastUsedAt: null, lastUsedAddress: null }),
      token: 'odt_secret-value',
    };
    let list: ApiToken[] = [];
    const { calls } = signedIn(['ACCESS_TASK_TAB', 'VIEW_TASK'], {
      'GET /api/token': () => ({ body: list }),
      'POST /api/token': () => {
        list = [created];
        return { status: 201, body: created };
      },
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    // Only what the user holds is offered.
    expect(
      within(dialog)
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('value')),
    ).toEqual(['ACCESS_TASK_TAB', 'VIEW_TASK']);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Token name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Choose at least one scope.')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'CI');
    await user.click(within(dialog).getByRole('checkbox', { name: 'View task' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const shown = await screen.findByRole('dialog', { name: 'Your new API token' });
    expect((within(shown).getByRole('textbox', { name: 'Token CI' }) as HTMLInputElement).value).toBe(
      'odt_secret-value',
    );
    const post = calls.find((call) => call.method === 'POST' && call.url === '/api/token');
    const body = post?.body as { name: string; expiresAt: number; scopes: string[] };
    expect(body.name).toBe('CI');
    expect(body.scopes).toEqual(['VIEW_TASK']);
    // The default: the end of the day 30 days ahead.
    expect(body.expiresAt).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(body.expiresAt).toBeLessThan(Date.now() + 31 * DAY);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue('odt_secret-value')).toBeNull();
    expect(await screen.findByText('CI')).toBeTruthy();
  });

  it('shows the server’s scope refusal on the scopes', async () => {
    signedIn(['VIEW_TASK'], {
      'GET /api/token': () => ({ body: [] }),
      'POST /api/token': () => ({
        status: 400,
        body: errorBody('ERROR_API_TOKEN_SCOPE_NOT_HELD', 'no', { scopes: 'ERROR_API_TOKEN_SCOPE_NOT_HELD' }),
      }),
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'CI');
    await user.click(within(dialog).getByRole('checkbox', { name: 'View task' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('A token can only carry authorities you hold.')).toBeTruthy();
  });

  it('revokes a token through the confirm dialog', async () => {
    let list = [token()];
    const { calls } = signedIn(['VIEW_TASK'], {
      'GET /api/token': () => ({ body: list }),
      'DELETE /api/token/1': () => {
        list = [];
        return { body: { ok: true } };
      },
    });
    const { user, table } = await openPage();
    await within(table).findByText('Nightly export');
    await user.click(within(table).getByRole('button', { name: 'Revoke Nightly export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.url === '/api/token/1')).toBe(true),
    );
    await waitFor(() => expect(within(table).queryByText('Nightly export')).toBeNull());
  });

  it('is reached from the user menu', async () => {
    signedIn(['ACCESS_TASK_TAB'], { 'GET /api/token': () => ({ body: [] }), 'GET /api/task': () => ({ body: [] }) });
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/management/tasks');
    await user.click(await screen.findByRole('button', { name: /Ada Lovelace/ }, { timeout: 15_000 }));
    await user.click(await screen.findByRole('menuitem', { name: 'API Tokens' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(PAGE));
    expect(await screen.findByRole('heading', { level: 1, name: 'API Tokens' })).toBeTruthy();
  });
});
