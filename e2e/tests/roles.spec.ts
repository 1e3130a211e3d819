import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

const ROLES_PATH = '/dashboard/management/roles';
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function openRoles(page: Page, email: string) {
  await signInByToken(page, email);
  await page.goto(ROLES_PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Roles' })).toBeVisible();
}

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
const roleItem = (page: Page, name: string) =>
  page.getByTestId('role-item').filter({ has: page.getByRole('button', { name, exact: true }) });
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();

/** Expands a role in the accordion and returns the list of its authorities. */
async function authoritiesOf(page: Page, name: string) {
  const item = roleItem(page, name);
  const control = item.getByRole('button', { name, exact: true });
  if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
  return item.getByRole('list', { name: 'Authorities' });
}

async function apiToken(page: Page) {
  return page.evaluate(() => window.localStorage.getItem('opsdeck.authToken') ?? '');
}

test.describe('roles as the provider admin', () => {
  test('creates a role in a chosen company with Select All, Unselect All and a few checks, edits and deletes it', async ({
    page,
  }) => {
    await openRoles(page, USERS.admin.email);
    const name = unique('E2E Auditors');
    await page.getByRole('button', { name: 'Create role' }).click();
    const create = dialog(page, 'Create role');
    await create.getByLabel('Name').fill(name);
    await create.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option', { name: USERS.companyHead.company }).click();
    await expect(create.getByText('Authorize role with the following')).toBeVisible();

    // Every authority the admin may grant, read from the checklist's count (its areas have checkboxes too).
    const count = create.getByText(/^\d+ of \d+ selected$/);
    const total = Number((await count.textContent())?.match(/of (\d+)/)?.[1]);
    expect(total).toBeGreaterThan(50);
    // The checklist groups by area; an area's checkbox checks all of it, and the filter narrows the list.
    await create.getByRole('checkbox', { name: 'Schedules', exact: true }).check();
    await expect(create.getByText(`5 of ${total} selected`)).toBeVisible();
    await create.getByRole('textbox', { name: 'Filter authorities' }).fill('license key');
    await expect(create.getByRole('checkbox', { name: 'View user', exact: true })).toHaveCount(0);
    await expect(create.getByRole('checkbox', { name: 'Generate license key', exact: true })).toBeVisible();
    await create.getByRole('textbox', { name: 'Filter authorities' }).fill('');
    await create.getByRole('button', { name: 'Select All', exact: true }).click();
    await expect(create.getByText(`${total} of ${total} selected`)).toBeVisible();
    await expect(create.getByRole('checkbox', { name: 'Admin access level' })).toBeChecked();
    await create.getByRole('button', { name: 'Unselect All', exact: true }).click();
    await expect(create.getByText(`0 of ${total} selected`)).toBeVisible();
    await create.getByRole('checkbox', { name: 'View user', exact: true }).check();
    await create.getByRole('checkbox', { name: 'Access user tab', exact: true }).check();
    await create.getByRole('checkbox', { name: 'View role', exact: true }).check();
    await create.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, `Successfully added ${name}`)).toBeVisible();
    await expect(create).toBeHidden();

    await expect(roleItem(page, name)).toContainText(USERS.companyHead.company);
    const held = await authoritiesOf(page, name);
    await expect(held.getByRole('listitem')).toHaveText(['Access user tab', 'View role', 'View user']);

    // Edit: the company cannot change; rename and swap an authority.
    await page.getByRole('button', { name: `Edit role ${name}` }).click();
    const edit = dialog(page, 'Edit role');
    await expect(edit.getByRole('combobox', { name: 'Company' })).toBeDisabled();
    await expect(edit.getByRole('combobox', { name: 'Company' })).toHaveValue(USERS.companyHead.company);
    await expect(edit.getByRole('checkbox', { name: 'View user', exact: true })).toBeChecked();
    const renamed = `${name} 2`;
    await edit.getByLabel('Name').fill(renamed);
    await edit.getByRole('checkbox', { name: 'View role', exact: true }).uncheck();
    await edit.getByRole('checkbox', { name: 'Edit user', exact: true }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, `Successfully updated ${renamed}`)).toBeVisible();
    const after = await authoritiesOf(page, renamed);
    await expect(after.getByRole('listitem')).toHaveText(['Access user tab', 'View user', 'Edit user']);

    // Delete.
    await page.getByRole('button', { name: `Delete role ${renamed}` }).click();
    await dialog(page, 'Delete role').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, `Successfully deleted ${renamed}`)).toBeVisible();
    await expect(roleItem(page, renamed)).toHaveCount(0);
  });

  test('needs a company, and a protected role cannot be deleted or edited', async ({ page }) => {
    await openRoles(page, USERS.admin.email);
    await page.getByRole('button', { name: 'Create role' }).click();
    const create = dialog(page, 'Create role');
    await create.getByLabel('Name').fill(unique('No company'));
    await create.getByRole('button', { name: 'Save' }).click();
    await expect(create.getByText('Company is required.')).toBeVisible();
    await create.getByRole('button', { name: 'Cancel' }).click();

    // Built in: no edit, and a delete that is disabled with the reason instead of refused after a click.
    await expect(page.getByRole('button', { name: 'Edit role Provider Administrator' })).toHaveCount(0);
    const blocked = page.getByRole('button', { name: 'Delete role Provider Administrator: ' });
    await expect(blocked).toHaveAttribute('aria-disabled', 'true');
    await expect(blocked).toBeDisabled();
    // A click anyway (forced: Playwright will not click what is disabled) opens nothing.
    await blocked.click({ force: true });
    await expect(dialog(page, 'Delete role')).toHaveCount(0);
    await expect(roleItem(page, 'Provider Administrator')).toHaveCount(1);
  });
});

test.describe('roles as the company head', () => {
  test('creates, edits and deletes a role of the own company, granting only held authorities', async ({ page }) => {
    await openRoles(page, USERS.companyHead.email);
    // Only Northwind's roles, and no company column or selector.
    await expect(roleItem(page, 'Company Administrator')).toHaveCount(1);
    await expect(page.getByText('Provider Administrator')).toHaveCount(0);

    const name = unique('E2E Dispatch');
    await page.getByRole('button', { name: 'Create role' }).click();
    const create = dialog(page, 'Create role');
    await expect(create.getByRole('combobox', { name: 'Company' })).toHaveCount(0);
    await expect(create.getByRole('checkbox', { name: 'Admin access level' })).toHaveCount(0);
    await expect(create.getByRole('checkbox', { name: 'Create company' })).toHaveCount(0);
    await create.getByLabel('Name').fill(name);
    await create.getByRole('checkbox', { name: 'View task', exact: true }).check();
    await create.getByRole('checkbox', { name: 'Access task tab', exact: true }).check();
    await create.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, `Successfully added ${name}`)).toBeVisible();
    await expect((await authoritiesOf(page, name)).getByRole('listitem')).toHaveText(['Access task tab', 'View task']);

    // An update error (a name the company already uses) shows the server's key.
    await page.getByRole('button', { name: `Edit role ${name}` }).click();
    const edit = dialog(page, 'Edit role');
    await edit.getByLabel('Name').fill('employee');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText('A role with this name already exists.')).toBeVisible();
    await edit.getByLabel('Name').fill(name);
    await edit.getByRole('checkbox', { name: 'Edit task', exact: true }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, `Successfully updated ${name}`)).toBeVisible();
    await expect((await authoritiesOf(page, name)).getByRole('listitem')).toHaveText([
      'Access task tab',
      'View task',
      'Edit task',
    ]);

    await page.getByRole('button', { name: `Delete role ${name}` }).click();
    await dialog(page, 'Delete role').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, `Successfully deleted ${name}`)).toBeVisible();
    await expect(roleItem(page, name)).toHaveCount(0);
  });

  test('cannot delete a role a user holds, nor a built-in one', async ({ page }) => {
    await openRoles(page, USERS.companyHead.email);
    const name = unique('E2E In use');
    await page.getByRole('button', { name: 'Create role' }).click();
    const create = dialog(page, 'Create role');
    await create.getByLabel('Name').fill(name);
    await create.getByRole('checkbox', { name: 'Access data entry tab', exact: true }).check();
    await create.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, `Successfully added ${name}`)).toBeVisible();

    // Give the role to a new user (through the users API: this test is about roles).
    const token = await apiToken(page);
    const headers = { 'X-App-Key': 'opsdeck-console', 'X-Auth-Token': token };
    const roles = (await (await page.request.get('/api/usergroup/findAllActive', { headers })).json()) as {
      id: number;
      name: string;
    }[];
    const roleId = roles.find((role) => role.name === name)!.id;
    const email = `${name.replaceAll(' ', '.').toLowerCase()}@northwind.test`;
    const registered = await page.request.post('/api/user/register', {
      headers,
      data: {
        firstName: 'Role',
        lastName: 'Holder',
        emailAddress: email,
        credential: { username: email, newPassword: 'holder-password-1', confirmPassword: 'holder-password-1' },
        groups: [roleId],
      },
    });
    expect(registered.status(), await registered.text()).toBe(200);

    await page.getByRole('button', { name: `Delete role ${name}` }).click();
    await dialog(page, 'Delete role').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, `Role is assigned to users and cannot be deleted. (${name})`)).toBeVisible();
    await expect(dialog(page, 'Delete role')).toBeHidden();
    await expect(roleItem(page, name)).toHaveCount(1);

    await expect(page.getByRole('button', { name: 'Delete role Employee: ' })).toHaveAttribute('aria-disabled', 'true');
  });
});
