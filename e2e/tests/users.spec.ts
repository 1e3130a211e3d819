import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

const PAGE = '/dashboard/management/users';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const dialog = (page: Page) => page.getByRole('dialog');
const table = (page: Page) => page.getByRole('table', { name: 'Users' });
const row = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });
const combo = (form: Locator, label: string) => form.getByRole('combobox', { name: label, exact: true });

async function openUsers(page: Page, email: string) {
  await signInByToken(page, email);
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
}

async function search(page: Page, text: string) {
  await page.getByRole('search').getByLabel('Search').fill(text);
}

async function pick(form: Locator, page: Page, label: string, option: string) {
  await combo(form, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(combo(form, label)).toHaveValue(option);
}

async function fillNew(form: Locator, first: string, last: string, email: string, password = 'e2e password 1') {
  await form.getByRole('textbox', { name: 'First name' }).fill(first);
  await form.getByRole('textbox', { name: 'Last name' }).fill(last);
  await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await form.getByLabel(/^Password/).fill(password);
  await form.getByLabel(/^Confirm password/).fill(password);
}

async function editFirstName(page: Page, fullName: string, newFirst: string, lastName: string) {
  await row(page, fullName)
    .getByRole('button', { name: `Edit ${fullName}` })
    .click();
  const form = dialog(page);
  await expect(form.getByRole('textbox', { name: 'First name' })).toHaveValue(fullName.split(' ')[0]!);
  // E-mail (and the company) are read-only on update (spec section 5).
  await expect(form.getByRole('textbox', { name: 'E-mail' })).toBeDisabled();
  await expect(form.getByLabel(/^Password/)).toHaveCount(0);
  await form.getByRole('textbox', { name: 'First name' }).fill(newFirst);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(`Successfully updated ${newFirst} ${lastName}`)).toBeVisible();
}

async function archive(page: Page, fullName: string) {
  await row(page, fullName)
    .getByRole('button', { name: `Delete ${fullName}` })
    .click();
  await dialog(page).getByRole('button', { name: 'Delete' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByText(`Successfully deleted ${fullName}`)).toBeVisible();
  await expect(table(page).getByText('No matching records found.')).toBeVisible();
}

test.describe('users as the provider admin', () => {
  test('validates, creates in a chosen company (a company change resets department and role), edits, archives', async ({
    page,
  }) => {
    const tag = stamp();
    const last = `Admin${tag}`;
    const email = `e2e.admin.${tag}@example.test`;
    await openUsers(page, USERS.admin.email);
    await expect(table(page).getByRole('columnheader', { name: 'Company' })).toBeVisible();

    await page.getByRole('button', { name: 'Create user' }).click();
    const form = dialog(page);
    await form.getByRole('button', { name: 'Save' }).click();
    for (const message of [
      'Company is required.',
      'First name is required.',
      'Last name is required.',
      'E-mail is required.',
      'Password is required.',
      'Password confirmation is required.',
      'Role is required.',
    ]) {
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    }
    await form.getByRole('textbox', { name: 'E-mail' }).fill('two@@example.test');
    await form.getByRole('textbox', { name: 'E-mail' }).blur();
    await expect(form.getByText('E-mail is not valid.')).toBeVisible();
    await form.getByRole('textbox', { name: 'E-mail' }).fill(USERS.employee.email);
    await expect(form.getByText('This e-mail address is already used.')).toBeVisible();

    // Another company's departments and roles; changing the company clears both.
    await pick(form, page, 'Company', 'Harbor Mutual Insurance');
    await pick(form, page, 'Department', 'Claims');
    await pick(form, page, 'Role', 'Employee');
    await pick(form, page, 'Company', 'Northwind Logistics');
    await expect(combo(form, 'Department')).toHaveValue('');
    await expect(combo(form, 'Role')).toHaveValue('');
    await combo(form, 'Department').click();
    await expect(page.getByRole('option', { name: 'Dispatch', exact: true })).toBeVisible();
    await expect(page.getByRole('option', { name: 'Claims', exact: true })).toHaveCount(0);
    await page.getByRole('option', { name: 'Dispatch', exact: true }).click();
    await pick(form, page, 'Role', 'Employee');

    await fillNew(form, 'Ada', last, email, 'first password');
    await form.getByLabel(/^Confirm password/).fill('another password');
    await form.getByLabel(/^Confirm password/).blur();
    await expect(form.getByText('Password does not match.')).toBeVisible();
    await form.getByLabel(/^Confirm password/).fill('first password');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(`Successfully added Ada ${last}`)).toBeVisible();

    await search(page, email.toUpperCase());
    await expect(row(page, email)).toContainText('Northwind Logistics');
    await expect(row(page, email)).toContainText('Dispatch');
    await expect(row(page, email)).toContainText('Employee');

    await editFirstName(page, `Ada ${last}`, 'Grace', last);
    await expect(row(page, email)).toContainText(`Grace ${last}`);
    await archive(page, `Grace ${last}`);
  });

  test('pages and sorts on the server', async ({ page }) => {
    await openUsers(page, USERS.admin.email);
    await expect(page.getByText(/Showing 1–10 of \d+/)).toBeVisible();
    await table(page).getByRole('button', { name: 'E-mail' }).click();
    await expect(page).toHaveURL(/[?&]sort=email(&|$)/);
    await table(page).getByRole('button', { name: 'E-mail' }).click();
    await expect(page).toHaveURL(/[?&]sort=-email(&|$)/);
    await expect(table(page).getByRole('columnheader', { name: /E-mail/ })).toHaveAttribute('aria-sort', 'descending');
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(page.getByText(/Showing 11–20 of \d+/)).toBeVisible();
  });

  test('keeps the page links clear of the floating create button on a desktop screen', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openUsers(page, USERS.admin.email);
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    // A click that the create button intercepted would open the create dialog instead.
    await pagination.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText(/Showing 11–20 of \d+/)).toBeVisible();
    await pagination.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText(/Showing 21–30 of \d+/)).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test.describe('users as the company head', () => {
  test('no company column; creates, searches, edits and archives in the own company', async ({ page }) => {
    const tag = stamp();
    const last = `Head${tag}`;
    const email = `e2e.head.${tag}@example.test`;
    await openUsers(page, USERS.companyHead.email);
    await expect(table(page).getByRole('columnheader', { name: 'Company' })).toHaveCount(0);

    await search(page, 'fatima');
    await expect(row(page, USERS.employee.name)).toBeVisible();

    await page.getByRole('button', { name: 'Create user' }).click();
    const form = dialog(page);
    await expect(combo(form, 'Company')).toHaveCount(0);
    await fillNew(form, 'Lin', last, email);
    // An Employee holds DEPARTMENT_ACCESS_LEVEL: the department is required.
    await pick(form, page, 'Role', 'Employee');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Department is required.')).toBeVisible();
    await pick(form, page, 'Department', 'Billing');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(`Successfully added Lin ${last}`)).toBeVisible();

    await search(page, last.toLowerCase());
    await expect(row(page, email)).toContainText('Billing');
    await search(page, 'billing');
    await expect(row(page, email)).toBeVisible();
    await search(page, last);
    await editFirstName(page, `Lin ${last}`, 'Mei', last);
    await archive(page, `Mei ${last}`);
  });

  test('a department head is not offered for deletion: the delete is disabled with the reason', async ({ page }) => {
    await openUsers(page, USERS.companyHead.email);
    await search(page, USERS.departmentHead.email);
    const blocked = row(page, USERS.departmentHead.name).getByRole('button', {
      name: `Delete ${USERS.departmentHead.name}: Your own account and the head of a department or of the company cannot be deleted.`,
    });
    await expect(blocked).toHaveAttribute('aria-disabled', 'true');
    await blocked.hover();
    await expect(page.getByRole('tooltip')).toContainText('cannot be deleted');
    await expect(blocked).toBeDisabled();
    // A click anyway (forced: Playwright will not click what is disabled) opens nothing.
    await blocked.click({ force: true });
    await expect(dialog(page)).toHaveCount(0);
    await expect(row(page, USERS.departmentHead.name)).toBeVisible();
  });
});
