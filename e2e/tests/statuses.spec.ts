import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { pngFile } from './png-fixtures';
import { asCompanyHead, signInByToken, USERS } from './support';

const PAGE = '/dashboard/management/statuses';
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const dialog = (page: Page) => page.getByRole('dialog');
const table = (page: Page) => page.getByRole('table', { name: 'Statuses' });
const row = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });

async function openStatuses(page: Page, email: string) {
  await signInByToken(page, email);
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Statuses' })).toBeVisible();
}

const search = (page: Page, text: string) => page.getByRole('search').getByLabel('Search').fill(text);

async function pickOption(form: Locator, page: Page, label: string, option: string) {
  await form.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const iconInput = (form: Locator) => form.locator('input[type="file"]');

async function createStatus(page: Page, name: string, options: { company?: string; department: string }) {
  await page.getByRole('button', { name: 'Create status' }).click();
  const form = dialog(page);
  await expect(form).toBeVisible();
  if (options.company) await pickOption(form, page, 'Company', options.company);
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await pickOption(form, page, 'Department', options.department);
  await form.getByRole('textbox', { name: 'Threshold' }).fill('10');
  await form.getByRole('textbox', { name: 'Color' }).fill('#1971c2');
  // Closes the colour picker's dropdown.
  await form.getByRole('textbox', { name: 'Name' }).click();
  await iconInput(form).setInputFiles(pngFile('e2e-icon.png', 48));
  await expect(form.getByRole('img', { name: 'Icon preview' })).toBeVisible();
  await form.getByRole('checkbox', { name: 'Track idle' }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(`Successfully added ${name}`)).toBeVisible();
}

/** Create, check the row, edit keeping the icon, refuse a wrong icon, delete: the whole round. */
async function statusRound(page: Page, name: string, options: { company?: string; department: string }) {
  await createStatus(page, name, options);
  await search(page, name);
  const created = row(page, name);
  await expect(created).toContainText(options.department);
  await expect(created).toContainText('10');
  await expect(created.getByRole('img', { name: 'Tracks idle time' })).toBeVisible();
  await expect(created.getByLabel('Color #1971c2')).toBeVisible();
  const icon = created.getByRole('img', { name: `Icon of ${name}` });
  await expect(icon).toHaveAttribute('src', /^data:image\/png;base64,/);
  const iconSrc = await icon.getAttribute('src');

  // A wrong-size icon and a file that is no png are refused in the dialog with their messages.
  await created.getByRole('button', { name: `Edit ${name}` }).click();
  const form = dialog(page);
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
  await iconInput(form).setInputFiles(pngFile('too-small.png', 32));
  await expect(form.getByText('Icon must be a square of 24, 48 or 128 pixels.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
  await iconInput(form).setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not a png at all, just text'),
  });
  await expect(form.getByText('Icon must be a .png file.')).toBeVisible();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();

  // Edit keeping the icon: a new name and no threshold ('-').
  const renamed = `${name} edited`;
  await created.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(form.getByText('Current icon: e2e-icon.png')).toBeVisible();
  await form.getByRole('textbox', { name: 'Name' }).fill(renamed);
  await form.getByRole('textbox', { name: 'Threshold' }).fill('0');
  await form.getByRole('checkbox', { name: 'Track idle' }).uncheck();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(`Successfully updated ${renamed}`)).toBeVisible();
  await search(page, renamed);
  const edited = row(page, renamed);
  await expect(edited.getByRole('cell').nth(options.company ? 5 : 4)).toHaveText('-');
  await expect(edited.getByRole('img', { name: 'Does not track idle time' })).toBeVisible();
  await expect(edited.getByRole('img', { name: `Icon of ${renamed}` })).toHaveAttribute('src', iconSrc ?? '');

  await edited.getByRole('button', { name: `Delete ${renamed}` }).click();
  await dialog(page).getByRole('button', { name: 'Delete' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByText(`Successfully deleted ${renamed}`)).toBeVisible();
  await expect(row(page, renamed)).toHaveCount(0);
}

test.describe('statuses', () => {
  test('the admin creates a status with an icon in a picked company, edits it keeping the icon, deletes it', async ({
    page,
  }) => {
    await openStatuses(page, USERS.admin.email);
    await statusRound(page, unique('E2E Admin Status'), { company: 'Northwind Logistics', department: 'Dispatch' });
  });

  test('the company head does the same in her company; built-in statuses offer no edit or delete', async ({ page }) => {
    await openStatuses(page, USERS.companyHead.email);
    await search(page, 'Available');
    const builtIn = row(page, 'Available').first();
    await expect(builtIn).toContainText('Built-in');
    await expect(builtIn.getByRole('button', { name: /^(Edit|Delete) / })).toHaveCount(0);
    await expect(builtIn.getByRole('cell').nth(4)).toHaveText('-');
    await search(page, '');
    await statusRound(page, unique('E2E Head Status'), { department: 'Finance' });
  });

  test('a create without an icon or name is refused with the field messages', async ({ page }) => {
    await openStatuses(page, USERS.companyHead.email);
    await page.getByRole('button', { name: 'Create status' }).click();
    const form = dialog(page);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Name is required.')).toBeVisible();
    await expect(form.getByText('Department is required.')).toBeVisible();
    await expect(form.getByText('Icon is required.')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    await form.getByRole('textbox', { name: 'Threshold' }).fill('75');
    await form.getByRole('textbox', { name: 'Name' }).click();
    await expect(form.getByText('Threshold must be a whole number from 0 to 60.')).toBeVisible();
  });

  test('a department head may change only the statuses of the departments he heads and below', async ({
    page,
    request,
  }) => {
    // Maria (company head) puts a status in Finance and one in Dispatch; James heads Operations,
    // whose child Dispatch is, and not Finance.
    const api = await asCompanyHead(request);
    const stamp = unique('E2E Head');
    const finance = `${stamp} Finance`;
    const dispatch = `${stamp} Dispatch`;
    await api.status(finance, 'Finance');
    await api.status(dispatch, 'Dispatch');

    await openStatuses(page, USERS.departmentHead.email);
    await search(page, stamp);
    await expect(row(page, dispatch).getByRole('button', { name: `Edit ${dispatch}` })).toBeVisible();
    await expect(row(page, dispatch).getByRole('button', { name: `Delete ${dispatch}` })).toBeVisible();
    await expect(row(page, finance)).toHaveCount(1);
    await expect(row(page, finance).getByRole('button')).toHaveCount(0);

    await row(page, dispatch)
      .getByRole('button', { name: `Edit ${dispatch}` })
      .click();
    const form = dialog(page);
    await form.getByRole('textbox', { name: 'Name' }).fill(`${dispatch} by James`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(row(page, `${dispatch} by James`)).toHaveCount(1);
  });
});
