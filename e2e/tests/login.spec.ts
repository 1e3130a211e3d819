import { expect, test } from './fixtures';
import { DEMO_PASSWORD, resetLinkOf, signIn, USERS, waitForMail } from './support';

test.describe('login panel', () => {
  test('shows the strapline and checks the form before calling the server', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByText('Evolve your business. Empower your people.')).toBeVisible();
    await page.getByLabel('Email').focus();
    await page.getByLabel('Password', { exact: true }).focus();
    await page.getByLabel('Email').focus();
    await expect(page.getByText('Email is required.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();
  });

  test('refuses a wrong password with the incorrect-credentials message', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(USERS.employee.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid username/password.');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('opsdeck.authToken'))).toBeNull();
  });

  test('locks an account after repeated wrong guesses and says so', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(USERS.throttled.email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong guess ${attempt}`);
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page.getByRole('alert')).toContainText('Invalid username/password.');
      // The submit button re-enables after a failure; wait for it before the next guess.
      await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
    }
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toContainText('Too many attempts');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signs in, keeps the session across a reload, and signs out', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    await expect(page.getByText(USERS.admin.name)).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard\//);
    await expect(page.getByText(USERS.admin.name)).toBeVisible();

    await page
      .getByRole('link', { name: 'Logout' })
      .or(page.getByRole('button', { name: 'Logout' }))
      .first()
      .click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('opsdeck.authToken'))).toBeNull();
    await page.goto('/dashboard/management/users');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('resets a forgotten password from the mailed link, once', async ({ page, server }) => {
    const requested = Date.now();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password' }).click();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Invalid username.')).toBeVisible();
    await page.getByLabel('Email').fill(USERS.resetter.email);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Email Sent!')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Login' })).toBeVisible();

    const link = resetLinkOf(await waitForMail(server.dataDir, USERS.resetter.email, requested));
    const key = new URL(link).searchParams.get('resetPasswordKey') ?? '';
    expect(key.length).toBeGreaterThan(20);
    await page.goto(link);
    await expect(page.getByLabel('New Password')).toBeVisible();
    // The key leaves the address bar as soon as the console has read it.
    await expect(page).not.toHaveURL(/resetPasswordKey/);

    await page.getByLabel('New Password').fill('a new password 1');
    await page.getByLabel('Confirm Password').fill('something else');
    await page.getByLabel('New Password').focus();
    await expect(page.getByText('Password does not match.')).toBeVisible();
    await page.getByLabel('Confirm Password').fill('a new password 1');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Password Changed')).toBeVisible();

    // The old password no longer works, the new one does.
    await page.goto('/login');
    await page.getByLabel('Email').fill(USERS.resetter.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid username/password.');
    await signIn(page, USERS.resetter.email, 'a new password 1');
    await page.evaluate(() => localStorage.clear());

    // The same link a second time says so at once, with no form to fill in.
    await page.goto(link);
    await expect(page.getByText('Invalid reset password.')).toBeVisible();
    await expect(page.getByLabel('New Password')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to Login' })).toBeVisible();
  });

  test('flags both fields when Login is clicked with nothing typed', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').click();
    // A person's click: the button is down a moment before it comes up.
    await page.getByRole('button', { name: 'Login' }).click({ delay: 150 });
    await expect(page.getByText('Email is required.')).toBeVisible();
    await expect(page.getByText('Password is required.')).toBeVisible();
  });
});
