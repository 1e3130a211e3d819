import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn, signInByToken, USERS } from './support';

// The machine is shared: a reload that loads the console again may take a while.
test.describe.configure({ timeout: 90_000 });
test.use({ viewport: { width: 1440, height: 900 } });

const firstCells = (page: Page, table: string) =>
  page.getByRole('table', { name: table }).getByRole('row').locator('td:first-child').allTextContents();

test.describe('list state in the URL', () => {
  test('users (paged by the server): search, sort and page survive a reload and the back button', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/users');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await page.getByRole('search').getByLabel('Search').fill('a');
    await expect(page).toHaveURL(/[?&]q=a(&|$)/);
    await table.getByRole('columnheader', { name: 'E-mail' }).click();
    await expect(page).toHaveURL(/[?&]sort=email(&|$)/);
    await table.getByRole('columnheader', { name: 'E-mail' }).click();
    await expect(page).toHaveURL(/[?&]sort=-email(&|$)/);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    // The URL changes before the page renders (a transition), and the table is busy while the
    // previous page's rows are still shown (placeholder data): page 2 said, then not busy, and
    // the rows read next are page 2's.
    await expect(page.getByText(/Showing 11–20 of \d+/)).toBeVisible();
    await expect(table).toHaveAttribute('aria-busy', 'false');
    const before = await firstCells(page, 'Users');
    const url = page.url();

    await page.reload();
    await expect(page.getByRole('search').getByLabel('Search')).toHaveValue('a');
    await expect(table.getByRole('columnheader', { name: 'E-mail' })).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect.poll(() => firstCells(page, 'Users')).toEqual(before);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Roles' }).click();
    await expect(page).toHaveURL(/\/roles$/);
    await page.goBack();
    expect(page.url()).toBe(url);
    await expect.poll(() => firstCells(page, 'Users')).toEqual(before);
  });

  test('departments (filtered in the browser): a shared link shows the same rows', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/departments?q=oper&sort=-name');
    await expect(page.getByRole('search').getByLabel('Search')).toHaveValue('oper');
    const table = page.getByRole('table', { name: 'Departments' });
    await expect(table.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
    // The search also matches heads and parents: the rows are fewer than the whole list.
    await expect(page.getByText(/^Showing 1–\d+ of \d+$/)).toBeVisible();
    const names = await firstCells(page, 'Departments');
    expect(names).toContain('Operations');
    expect([...names].sort((a, b) => b.localeCompare(a))).toEqual(names);
  });

  test('schedules: the date range is kept, and the To calendar starts at From', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    // From 15 January 2026, local time.
    const from = await page.evaluate(() => new Date(2026, 0, 15, 9, 0).getTime());
    await page.goto(`/dashboard/management/schedules?range=custom&from=${from}`);
    await expect(page.getByRole('combobox', { name: 'Date range' })).toHaveValue('Custom');
    await page.getByRole('button', { name: 'To', exact: true }).click();
    const calendar = page.getByRole('dialog');
    await expect(calendar.getByRole('button', { name: 'January 2026', exact: true })).toBeVisible();
    await expect(calendar.getByRole('button', { name: '14 January 2026' })).toBeDisabled();
    await expect(calendar.getByRole('button', { name: '16 January 2026' })).toBeEnabled();
    // Weeks start on Monday.
    await expect(calendar.locator('thead th').first()).toHaveText(/^Mo/);
  });
});
