import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildProfile, errorBody, fakeApi } from '../../test/fake-api';
import { pressAndRelease } from '../../test/press';
import { renderApp } from '../../test/render';

const waitForEnabled = (button: HTMLElement) =>
  waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));

async function openLogin(path = '/login') {
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Opsdeck' });
  return app;
}

describe('login panel', () => {
  it('shows the login form with the strapline, links and labelled fields', async () => {
    fakeApi({});
    await openLogin();
    expect(screen.getByText('Evolve your business. Empower your people.')).toBeTruthy();
    expect(screen.getByLabelText(/^Email/)).toBeTruthy();
    expect(screen.getByLabelText(/^Password/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot Password' }).getAttribute('href')).toBe('/login?view=forgot');
    expect(screen.getByRole('link', { name: 'Contact Customer Support' }).getAttribute('href')).toBe(
      'mailto:support@opsdeck.test',
    );
    expect(screen.queryByRole('link', { name: 'Back to Login' })).toBeNull();
  });

  it('validates with the contract schema and disables Login while a field has an error', async () => {
    const { calls } = fakeApi({});
    const user = userEvent.setup();
    await openLogin();
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required.')).toBeTruthy();
    expect(screen.getByText('Password is required.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Login' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText(/^Email/), 'ada@acme.test');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Login' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(calls).toHaveLength(0);
  });

  it('flags both empty fields when Login is pressed from the e-mail field', async () => {
    fakeApi({});
    const user = userEvent.setup();
    await openLogin();
    // The browser walk: the cursor is in the e-mail field, and Login is clicked with nothing typed.
    await user.click(screen.getByLabelText(/^Email/));
    await pressAndRelease(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required.')).toBeTruthy();
    expect(await screen.findByText('Password is required.')).toBeTruthy();
  });

  it('shows the incorrect-credentials message and keeps no token after a failed login', async () => {
    const { calls } = fakeApi({
      'POST /api/login': () => ({ status: 401, body: errorBody('ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS') }),
    });
    const user = userEvent.setup();
    await openLogin();
    await user.type(screen.getByLabelText(/^Email/), 'ada@acme.test');
    await user.type(screen.getByLabelText(/^Password/), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid username/password.');
    expect(window.localStorage.getItem('opsdeck.authToken')).toBeNull();
    const [login] = calls;
    expect(login?.url).toBe('/api/login');
    expect(login?.body).toEqual({ username: 'ada@acme.test', password: 'wrong password' });
    expect(login?.headers.get('x-app-key')).toBe('opsdeck-console');
  });

  it("sends the e-mail trimmed, and shows the server's field errors under their fields", async () => {
    const { calls } = fakeApi({
      'POST /api/login': () => ({
        status: 400,
        body: errorBody('ERROR_LOGIN_FORM_EMAIL_REQUIRED', 'bad', { username: 'ERROR_LOGIN_FORM_EMAIL_REQUIRED' }),
      }),
    });
    const user = userEvent.setup();
    await openLogin();
    await user.type(screen.getByLabelText(/^Email/), '  ada@acme.test ');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls[0]?.body).toEqual({ username: 'ada@acme.test', password: 'secret' });
  });

  it('sends one request however often Login is pressed while it is in flight', async () => {
    let release: () => void = () => {};
    const { calls } = fakeApi({
      'POST /api/login': () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 401, body: errorBody('ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS') });
        }),
    });
    const user = userEvent.setup();
    await openLogin();
    await user.type(screen.getByLabelText(/^Email/), 'ada@acme.test');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    // Two submits in the same frame, before React has re-rendered the button as disabled.
    const form = screen.getByRole('form', { name: 'Sign in to your console' });
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => expect(calls.some((call) => call.url === '/api/login')).toBe(true));
    await user.type(screen.getByLabelText(/^Password/), '{Enter}');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(calls.filter((call) => call.url === '/api/login')).toHaveLength(1);
    release();
    await screen.findByRole('alert');
  });

  it('stores the token, loads the profile and opens the dashboard', async () => {
    const { calls } = fakeApi({
      'POST /api/login': () => ({ body: { token: 'tok-123' } }),
      'GET /api/user/profile/current-user': () => ({
        body: buildProfile({ fullName: 'Ada Lovelace', auths: ['ACCESS_USER_TAB'] }),
      }),
    });
    const user = userEvent.setup();
    const { router } = await openLogin();
    await user.type(screen.getByLabelText(/^Email/), 'ada@acme.test');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Ada Lovelace')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/management/users');
    expect(window.localStorage.getItem('opsdeck.authToken')).toBe('tok-123');
    const profileCall = calls.find((call) => call.url === '/api/user/profile/current-user');
    expect(profileCall?.headers.get('x-auth-token')).toBe('tok-123');
  });

  it('walks the forgot-password states and back to login', async () => {
    const { calls } = fakeApi({ 'GET /api/user/reset-password': () => ({ body: { ok: true } }) });
    const user = userEvent.setup();
    await openLogin();
    await user.click(screen.getByRole('link', { name: 'Forgot Password' }));
    expect(await screen.findByRole('heading', { name: 'Forgot Password' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Email is required.')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    expect(await screen.findByText('Invalid username.')).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Email/));
    await user.type(screen.getByLabelText(/^Email/), 'ada@acme.test');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('heading', { name: 'Email Sent!' })).toBeTruthy();
    expect(calls.map((call) => call.url)).toEqual(['/api/user/reset-password?u=ada%40acme.test']);
    await user.click(screen.getByRole('link', { name: 'Back to Login' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
  });

  it('takes the reset key out of the address bar and sends it only in the body', async () => {
    const { calls } = fakeApi({
      'POST /api/reset-password/check': () => ({ body: { valid: true } }),
      'POST /api/user/reset-password': () => ({ body: { ok: true } }),
    });
    const user = userEvent.setup();
    const { router } = await openLogin('/login?resetPasswordKey=secret-key-1');
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?view=reset'));

    await user.type(screen.getByLabelText(/^New Password/), 'cobalt fern 97');
    await user.type(screen.getByLabelText(/^Confirm Password/), 'different');
    await user.tab();
    expect(await screen.findByText('Password does not match.')).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Confirm Password/));
    await user.type(screen.getByLabelText(/^Confirm Password/), 'cobalt fern 97');
    // The mismatch clears on the next validation, which is asynchronous; a person clicks once it has.
    await waitForEnabled(screen.getByRole('button', { name: 'Reset Password' }));
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('heading', { name: 'Password Changed' })).toBeTruthy();
    // The key was checked when the panel opened, then used; both times in the body only.
    expect(calls.map((call) => call.url)).toEqual(['/api/reset-password/check', '/api/user/reset-password']);
    expect(calls[0]?.body).toEqual({ resetPasswordKey: 'secret-key-1' });
    expect(calls[1]?.body).toEqual({ newPassword: 'cobalt fern 97', resetPasswordKey: 'secret-key-1' });
    expect(screen.getByRole('link', { name: 'Back to Login' })).toBeTruthy();
  });

  it("shows 'Invalid reset password.' and no form when the link's key was used or has expired", async () => {
    const { calls } = fakeApi({ 'POST /api/reset-password/check': () => ({ body: { valid: false } }) });
    await openLogin('/login?resetPasswordKey=used');
    expect(await screen.findByText('Invalid reset password.')).toBeTruthy();
    expect(screen.queryByLabelText(/^New Password/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Forgot Password' })).toBeTruthy();
    expect(calls.map((call) => call.url)).toEqual(['/api/reset-password/check']);
  });

  it("shows 'Invalid reset password.' when the key is refused on submit", async () => {
    fakeApi({
      'POST /api/reset-password/check': () => ({ body: { valid: true } }),
      'POST /api/user/reset-password': () => ({ status: 400, body: errorBody('ERROR_RESET_PASSWORD_FORM_INVALID') }),
    });
    const user = userEvent.setup();
    await openLogin('/login?resetPasswordKey=used');
    await user.type(await screen.findByLabelText(/^New Password/), 'orbit-velvet-42');
    await user.type(screen.getByLabelText(/^Confirm Password/), 'orbit-velvet-42');
    await waitForEnabled(screen.getByRole('button', { name: 'Reset Password' }));
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Invalid reset password.')).toBeTruthy();
  });

  it('hints at the strength while the new password is typed, and refuses a weak one under the field', async () => {
    const { calls } = fakeApi({
      'POST /api/reset-password/check': () => ({ body: { valid: true } }),
      'POST /api/user/reset-password': () => ({
        status: 400,
        body: errorBody('ERROR_PASSWORD_ADMIN_TOO_SHORT', 'too short', {
          newPassword: 'ERROR_PASSWORD_ADMIN_TOO_SHORT',
        }),
      }),
    });
    const user = userEvent.setup();
    await openLogin('/login?resetPasswordKey=secret-key-1');
    const field = await screen.findByLabelText(/^New Password/);
    expect(screen.queryByRole('progressbar', { name: 'Strength of the password' })).toBeNull();

    await user.type(field, 'password1234');
    // The hint follows the typing (debounced): wait for the whole password's judgement.
    expect(await screen.findByText(/similar to a commonly used password/, {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText(/Strength: Weak/)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Strength of the password' }).getAttribute('aria-valuenow')).toBe(
      '25',
    );
    await user.type(screen.getByLabelText(/^Confirm Password/), 'password1234');
    expect(await screen.findByText('This password is too common or easy to guess.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Reset Password' }) as HTMLButtonElement).disabled).toBe(true);

    await user.clear(field);
    await user.type(field, 'Qz9!kLm');
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeTruthy();

    await user.clear(field);
    await user.type(field, 'violet harbour lantern');
    expect(await screen.findByText(/Strength: Strong/, {}, { timeout: 5_000 })).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Confirm Password/));
    await user.type(screen.getByLabelText(/^Confirm Password/), 'violet harbour lantern');
    await waitForEnabled(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.queryByText('This password is too common or easy to guess.')).toBeNull();

    // What only the server knows (the key's user is an administrator) shows under the field too.
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText("An administrator's password must be at least 12 characters.")).toBeTruthy();
    expect(calls.at(-1)?.body).toEqual({ newPassword: 'violet harbour lantern', resetPasswordKey: 'secret-key-1' });
  });
});
