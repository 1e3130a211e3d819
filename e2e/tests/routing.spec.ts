import { expect, test } from './fixtures';
import { signIn, USERS } from './support';

test.describe('routing rules', () => {
  test('sends anonymous users to login from any path', async ({ page }) => {
    for (const path of ['/dashboard', '/dashboard/management/users', '/dashboard/license/companies/1', '/somewhere']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });

  test('sends a signed-in user away from login, to the dashboard', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard\//);
  });

  test('opens reports first for a user with a report tab', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard\/report\/agent$/);
  });

  test('opens workflows first for an employee, and forbids what their role lacks', async ({ page }) => {
    await signIn(page, USERS.employee.email);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard\/workflow\/list$/);
    await page.goto('/dashboard/management/users');
    await expect(page).toHaveURL(/\/dashboard\/forbidden$/);
    await page.goto('/dashboard/license/companies');
    await expect(page).toHaveURL(/\/dashboard\/forbidden$/);
    await page.goto('/dashboard/report/agent');
    await expect(page).toHaveURL(/\/dashboard\/forbidden$/);
  });

  test('sends unknown report paths to the agent report', async ({ page }) => {
    await signIn(page, USERS.departmentHead.email);
    await page.goto('/dashboard/report/no-such-report');
    await expect(page).toHaveURL(/\/dashboard\/report\/agent$/);
  });

  test('sends section roots to their first allowed screen', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    await page.goto('/dashboard/management');
    await expect(page).toHaveURL(/\/dashboard\/management\/users$/);
    await page.goto('/dashboard/license');
    await expect(page).toHaveURL(/\/dashboard\/license\/companies$/);
  });

  test('shows the three placeholder screens', async ({ page }) => {
    await signIn(page, USERS.departmentHead.email);
    for (const [path, title] of [
      ['/dashboard/management/targets', 'Task Targets'],
      ['/dashboard/management/transfers', 'Transfers'],
      ['/dashboard/management/dataentry', 'Data Entry'],
    ] as const) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
  });

  test('serves deep links as the console, with a strict content security policy', async ({ page }) => {
    const response = await page.goto('/dashboard/license/companies/1/license/2');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('shows the unauthorized page', async ({ page }) => {
    await page.goto('/unauthorized');
    await expect(page.getByText('401')).toBeVisible();
    await expect(page.getByText('Unauthorized Access')).toBeVisible();
  });

  test('drops a session the server no longer knows and returns to login', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    await page.evaluate(() => localStorage.setItem('opsdeck.authToken', 'revoked-or-made-up'));
    await page.goto('/dashboard/report/agent');
    await expect(page).toHaveURL(/\/login$/);
  });
});
