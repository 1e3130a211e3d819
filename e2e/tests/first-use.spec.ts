import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { signIn, signInByToken, USERS } from './support';

/**
 * What a new user met by trying the console (issue 18, "Rough edges"), each kept from coming back:
 * a page reached by its URL looks as it does when reached by a click, badges are whole, every
 * account row can be told apart, the provider's company folders have real dates, the file field
 * opens its picker from the keyboard, and Back steps through a table's pages.
 */

/** Whether any badge's text is cut (an ellipsis instead of the whole word). */
const cutBadges = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.mantine-Badge-label')]
      .filter((label) => label.scrollWidth > label.clientWidth + 1)
      .map((label) => label.textContent),
  );

const cellOf = async (table: Locator, row: Locator, column: string) => {
  const headers = await table.locator('thead th').allInnerTexts();
  const index = headers.findIndex((header) => header.trim() === column);
  expect(index, `${column} among ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return row.locator('td').nth(index);
};

test.describe('a new user', () => {
  test('opens a company page by its URL: renew shows a styled date picker, and no badge is cut', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, USERS.admin.email);
    // Straight to the page, as a reload or a shared link does: no list page loaded before it.
    await page.goto('/dashboard/license/companies/1');
    const renew = page.getByRole('button', { name: 'Renew Dispatch robots' });
    await expect(renew).toBeVisible();
    expect(await cutBadges(page)).toEqual([]);
    await renew.click();
    const dialog = page.getByRole('dialog', { name: 'Renew License Confirmation' });
    await dialog.getByRole('textbox', { name: /^Expiration date/ }).click();
    // Unstyled, the calendar was 740 px wide with giant chevrons, spilling out of the dialog.
    const calendar = page.locator('.mantine-DateInput-month');
    await expect(calendar).toBeVisible();
    const month = await calendar.boundingBox();
    const box = await dialog.boundingBox();
    expect(month!.width).toBeLessThan(400);
    expect(month!.width).toBeLessThanOrEqual(box!.width);
    const chevron = await page.locator('.mantine-DateInput-calendarHeaderControl').first().boundingBox();
    expect(chevron!.height).toBeLessThan(50);
  });

  test('tells every account apart before deleting one: its key, company, licence and department', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/license/accounts');
    const table = page.getByRole('table', { name: 'Accounts' });
    await expect(table.locator('tbody tr')).toHaveCount(10);
    // Keys with no person yet show '-' for a name: each row still names its key and whose it is.
    let keysWithoutPerson = 0;
    for (const row of await table.locator('tbody tr').all()) {
      if ((await (await cellOf(table, row, 'Full name')).textContent())?.trim() === '-') keysWithoutPerson += 1;
      await expect(await cellOf(table, row, 'Key')).toHaveText(/^ODK-[0-9A-Z]{4}-…-[0-9A-Z]{4}$/);
      await expect(await cellOf(table, row, 'Company, license and department')).toHaveText(/\S/);
    }
    expect(keysWithoutPerson).toBeGreaterThan(0);
  });

  test("shows the provider's company folders with the dates their trees were made, not 1970", async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/workflow/list');
    const table = page.getByRole('table', { name: 'Workflows and directories' });
    await expect(table.getByRole('row', { name: /Northwind Logistics/ })).toBeVisible();
    await expect(table).not.toContainText('1970');
  });

  test('opens the file picker with Enter on the workflow file field, and does not send the form', async ({ page }) => {
    await signInByToken(page, USERS.companyHead.email);
    await page.goto('/dashboard/workflow/list');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Create workflow' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create workflow' });
    await dialog.getByLabel('Name').fill('Picked by keyboard');
    const chooser = page.waitForEvent('filechooser');
    // The keyboard's way there: Tab from the last field before it.
    await dialog.getByRole('textbox', { name: 'Directory' }).focus();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: /^Workflow file/ })).toBeFocused();
    await page.keyboard.press('Enter');
    await chooser;
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Workflow file is required.')).toHaveCount(0);
  });

  test("steps back through a table's pages with the browser's Back", async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/users');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    await page.getByRole('button', { name: 'Page 3' }).click();
    await expect(page).toHaveURL(/[?&]page=3(&|$)/);
    await page.goBack();
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await page.goBack();
    await expect(page).not.toHaveURL(/[?&]page=/);
  });

  test('reads the selected sidebar entry at 4.5:1 or more, under the pointer too', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/users');
    const selected = page.getByRole('navigation', { name: 'Main navigation' }).locator('[aria-current="page"]');
    await expect(selected).toBeVisible();
    await expectAccessible(page, 'sidebar', '.opsdeck-sidebar');
    await selected.hover();
    await expectAccessible(page, 'sidebar, the selected entry under the pointer', '.opsdeck-sidebar');
  });
});
