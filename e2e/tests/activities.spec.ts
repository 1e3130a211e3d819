import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

const table = (page: Page) => page.getByRole('table', { name: 'Activities' });
const row = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });

test.describe('activities', () => {
  test('the provider admin creates, finds, edits and archives an activity of the catalogue', async ({ page }) => {
    const suffix = Date.now().toString(36);
    const name = `E2E Read Excel ${suffix}`;
    const key = `e2e-read-excel-${suffix}`;
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/license/activities');
    await expect(page.getByRole('heading', { level: 1, name: 'Activities' })).toBeVisible();
    await expectAccessible(page, 'Activities');

    // Create: the form's own checks first, then a key that is taken.
    await page.getByRole('button', { name: 'Create activity' }).click();
    const create = page.getByRole('dialog', { name: 'Create activity' });
    await expectAccessible(page, 'Activities: create', '.mantine-Modal-content');
    await create.getByRole('button', { name: 'Save' }).click();
    await expect(create.getByText('Activity name is required.')).toBeVisible();
    await expect(create.getByText('Activity key is required.')).toBeVisible();
    await create.getByLabel('Name').fill(name);
    await create.getByLabel('Key').fill(key);
    await create.getByLabel('Category').fill('Excel');
    await create.getByRole('checkbox', { name: /Partial/ }).check();
    await create.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Successfully added ${name}`)).toBeVisible();
    await expect(create).toBeHidden();

    // Found by the search, newest first, with today's date.
    await page.getByRole('search').getByLabel('Search').fill(suffix);
    await expect(table(page).locator('tbody tr')).toHaveCount(1);
    const today = new Date().toLocaleString('en-US', { month: 'short', day: '2-digit' }).replace(',', '');
    await expect(row(page, name)).toContainText(today);
    await expect(row(page, name)).toContainText(key);

    // A second activity may not take the same key, in any case.
    await page.getByRole('button', { name: 'Create activity' }).click();
    const again = page.getByRole('dialog', { name: 'Create activity' });
    await again.getByLabel('Name').fill(`${name} copy`);
    await again.getByLabel('Key').fill(key.toUpperCase());
    await again.getByRole('button', { name: 'Save' }).click();
    await expect(again.getByText('Another activity already has this key.')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(again).toBeHidden();

    // Edit.
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await expect(edit.getByLabel('Category')).toHaveValue('Excel');
    await expect(edit.getByRole('checkbox', { name: /Partial/ })).toBeChecked();
    await edit.getByLabel('Category').fill('Office');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Successfully updated ${name}`)).toBeVisible();
    await expect(row(page, name)).toContainText('Office');

    // Archive: it leaves the catalogue.
    await page.getByRole('button', { name: `Archive ${name}` }).click();
    const archive = page.getByRole('dialog', { name: 'Archive activity' });
    await expect(archive).toContainText(name);
    await archive.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`Successfully deleted ${name}`)).toBeVisible();
    await expect(table(page).locator('tbody tr')).toHaveCount(1);
    await expect(table(page)).toContainText('No matching records found.');
  });
});

test.describe('premium activities', () => {
  test('the provider admin drags an activity into the premium list and moves it back by keyboard', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/license/premium-activities');
    await expect(page.getByRole('heading', { level: 1, name: 'Premium Activities' })).toBeVisible();
    const regular = page.getByRole('region', { name: /^Regular activities/ });
    const premium = page.getByRole('region', { name: /^Premium activities/ });
    // The demo's partial activity shows its marker wherever it is.
    await expect(page.getByTestId('activity-item').filter({ hasText: 'OCR Document' })).toContainText('Limited');
    await expectAccessible(page, 'Premium Activities');

    await page.getByRole('textbox', { name: 'Search' }).fill('Delay');
    const delay = regular.getByTestId('activity-item').filter({ hasText: 'Delay' });
    await expect(delay).toHaveCount(1);
    // A drag as a hand makes it: press, move in steps (dnd-kit starts after 5 px), release.
    const from = (await delay.boundingBox())!;
    const to = (await premium.boundingBox())!;
    await page.mouse.move(from.x + 20, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await page.mouse.up();
    const moved = premium.getByTestId('activity-item').filter({ hasText: 'Delay' });
    await expect(moved).toHaveCount(1);
    await expect(moved.getByRole('img', { name: 'Premium' })).toBeVisible();
    await expect(regular.getByTestId('activity-item')).toHaveCount(0);

    // The keyboard's way: the item's arrow button.
    await moved.getByRole('button', { name: 'Make Delay regular' }).focus();
    await page.keyboard.press('Enter');
    await expect(regular.getByTestId('activity-item').filter({ hasText: 'Delay' })).toHaveCount(1);
    await expect(premium.getByTestId('activity-item')).toHaveCount(0);
  });
});
