import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { asCompanyHead, signInByToken, USERS } from './support';

const PAGE = '/dashboard/management/tasks';
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const dialog = (page: Page) => page.getByRole('dialog');
const row = (page: Page, table: string, name: string) =>
  page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: name });
const search = (page: Page, text: string) => page.getByRole('search').getByLabel('Search').fill(text);

async function openTasks(page: Page, email: string) {
  await signInByToken(page, email);
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
}

async function pickOption(form: Locator, page: Page, label: string, option: string) {
  await form.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Signs Maria in over the API: for rows a test needs before it drives the screens. */

/** Create, search, edit, delete a task through the screens. */
async function taskRound(
  page: Page,
  name: string,
  options: { company?: string; status: string; department: string; otherStatus: string },
) {
  await page.getByRole('button', { name: 'Create task' }).click();
  const form = dialog(page);
  await expect(form).toBeVisible();
  if (options.company) await pickOption(form, page, 'Company', options.company);
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  // The department first: the status list offers only what applies in it.
  await pickOption(form, page, 'Department', options.department);
  await pickOption(form, page, 'Status', options.status);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(`Successfully added ${name}`)).toBeVisible();

  await search(page, name);
  const created = row(page, 'Tasks', name);
  await expect(created).toContainText(options.status);
  await expect(created).toContainText(options.department);

  const renamed = `${name} edited`;
  await created.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
  await expect(form.getByRole('combobox', { name: 'Status' })).toHaveValue(options.status);
  await form.getByRole('textbox', { name: 'Name' }).fill(renamed);
  await pickOption(form, page, 'Status', options.otherStatus);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(`Successfully updated ${renamed}`)).toBeVisible();
  await search(page, renamed);
  await expect(row(page, 'Tasks', renamed)).toContainText(options.otherStatus);

  await row(page, 'Tasks', renamed)
    .getByRole('button', { name: `Delete ${renamed}` })
    .click();
  await dialog(page).getByRole('button', { name: 'Delete' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByText(`Successfully deleted ${renamed}`)).toBeVisible();
  await expect(row(page, 'Tasks', renamed)).toHaveCount(0);
}

test.describe('tasks', () => {
  test('the admin creates, edits and deletes a task in a picked company', async ({ page }) => {
    await openTasks(page, USERS.admin.email);
    await taskRound(page, unique('E2E Admin Task'), {
      company: 'Northwind Logistics',
      status: 'Available',
      department: 'Dispatch',
      // Operations' own status applies in Dispatch, which is part of Operations.
      otherStatus: 'In Meeting',
    });
  });

  test('the company head creates, edits and deletes a task; the search filters the table', async ({ page }) => {
    await openTasks(page, USERS.companyHead.email);
    await search(page, 'Team stand-up');
    await expect(row(page, 'Tasks', 'Team stand-up').first()).toContainText('In Meeting');
    await search(page, 'no task is called this');
    await expect(page.getByText('No matching records found.')).toBeVisible();
    await search(page, '');
    await taskRound(page, unique('E2E Head Task'), {
      status: 'Available',
      department: 'Finance',
      otherStatus: 'In Meeting (Finance)',
    });
  });

  test('the status list offers only what applies in the chosen department, and forgets the status when it changes', async ({
    page,
  }) => {
    await openTasks(page, USERS.companyHead.email);
    await page.getByRole('button', { name: 'Create task' }).click();
    const form = dialog(page);
    await expect(form.getByRole('combobox', { name: 'Status' })).toBeDisabled();
    await pickOption(form, page, 'Department', 'Finance');
    await form.getByRole('combobox', { name: 'Status' }).click();
    await expect(page.getByRole('option', { name: 'In Meeting (Finance)', exact: true })).toBeVisible();
    await expect(page.getByRole('option', { name: 'In Meeting', exact: true })).toHaveCount(0);
    await page.getByRole('option', { name: 'In Meeting (Finance)', exact: true }).click();
    await pickOption(form, page, 'Department', 'Dispatch');
    await expect(form.getByRole('combobox', { name: 'Status' })).toHaveValue('');
  });

  test('a create with nothing filled shows the field messages', async ({ page }) => {
    await openTasks(page, USERS.companyHead.email);
    await page.getByRole('button', { name: 'Create task' }).click();
    const form = dialog(page);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Task name is required.')).toBeVisible();
    await expect(form.getByText('Status is required.')).toBeVisible();
    await expect(form.getByText('Department is required.')).toBeVisible();
  });

  test('a status that a task uses cannot be deleted: the toast names it', async ({ page, request }) => {
    const api = await asCompanyHead(request);
    const statusName = unique('E2E Used Status');
    const status = await api.status(statusName, 'Customer Care');
    await api.task(unique('E2E Uses Status'), status.id, 'Customer Care');

    await signInByToken(page, USERS.companyHead.email);
    await page.goto('/dashboard/management/statuses');
    await search(page, statusName);
    await row(page, 'Statuses', statusName)
      .getByRole('button', { name: `Delete ${statusName}` })
      .click();
    await dialog(page).getByRole('button', { name: 'Delete' }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(page.getByText(`Status has tasks and cannot be deleted. (${statusName})`)).toBeVisible();
    await expect(row(page, 'Statuses', statusName)).toHaveCount(1);
  });

  test('a department head may change only the tasks of the departments he heads and below', async ({
    page,
    request,
  }) => {
    // James heads Operations (Dispatch is below it), not Billing.
    const api = await asCompanyHead(request);
    const stamp = unique('E2E Head');
    const billing = `${stamp} Billing`;
    const dispatch = `${stamp} Dispatch`;
    await api.task(billing, (await api.status(`${stamp} Billing Status`, 'Billing')).id, 'Billing');
    await api.task(dispatch, (await api.status(`${stamp} Dispatch Status`, 'Dispatch')).id, 'Dispatch');

    await openTasks(page, USERS.departmentHead.email);
    await search(page, stamp);
    await expect(row(page, 'Tasks', billing)).toHaveCount(1);
    await expect(row(page, 'Tasks', billing).getByRole('button')).toHaveCount(0);
    await row(page, 'Tasks', dispatch)
      .getByRole('button', { name: `Edit ${dispatch}` })
      .click();
    const form = dialog(page);
    await form.getByRole('textbox', { name: 'Name' }).fill(`${dispatch} by James`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(row(page, 'Tasks', `${dispatch} by James`)).toHaveCount(1);
  });
});
