import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { pngFile } from './png-fixtures';
import { DEMO_PASSWORD, signIn, USERS } from './support';

const PAGE = '/dashboard/management/tasks';
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const dialog = (page: Page) => page.getByRole('dialog');
const row = (page: Page, table: string, name: string) =>
  page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: name });
const search = (page: Page, text: string) => page.getByRole('search').getByLabel('Search').fill(text);

async function openTasks(page: Page, email: string) {
  await signIn(page, email);
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
}

async function pickOption(form: Locator, page: Page, label: string, option: string) {
  await form.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Signs Maria in over the API: for rows a test needs before it drives the screens. */
async function asCompanyHead(request: APIRequestContext) {
  const headers = { 'X-App-Key': 'opsdeck-console' };
  const login = await request.post('/api/login', {
    headers,
    data: { username: USERS.companyHead.email, password: DEMO_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const auth = { ...headers, 'X-Auth-Token': token };
  const departments = (await (await request.get('/api/department', { headers: auth })).json()) as {
    id: number;
    name: string;
  }[];
  const departmentId = (name: string) => departments.find((department) => department.name === name)?.id;
  return {
    async status(name: string, department: string) {
      const response = await request.post('/api/status', {
        headers: auth,
        data: {
          name,
          departmentId: departmentId(department),
          threshold: 0,
          color: '#0c8599',
          icon: `data:image/png;base64,${pngFile('s.png', 24).buffer.toString('base64')}`,
          trackIdle: false,
          fileName: 's.png',
        },
      });
      expect(response.status()).toBe(201);
      return (await response.json()) as { id: number };
    },
    async task(name: string, statusId: number, department: string) {
      const response = await request.post('/api/task', {
        headers: auth,
        data: { name, statusId, departmentId: departmentId(department) },
      });
      expect(response.status()).toBe(201);
    },
  };
}

/** Create, search, edit, delete a task through the screens. */
async function taskRound(page: Page, name: string, options: { company?: string; status: string; department: string }) {
  await page.getByRole('button', { name: 'Create task' }).click();
  const form = dialog(page);
  await expect(form).toBeVisible();
  if (options.company) await pickOption(form, page, 'Company', options.company);
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await pickOption(form, page, 'Status', options.status);
  await pickOption(form, page, 'Department', options.department);
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
  await pickOption(form, page, 'Status', 'In Meeting');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(`Successfully updated ${renamed}`)).toBeVisible();
  await search(page, renamed);
  await expect(row(page, 'Tasks', renamed)).toContainText('In Meeting');

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
    });
  });

  test('the company head creates, edits and deletes a task; the search filters the table', async ({ page }) => {
    await openTasks(page, USERS.companyHead.email);
    await search(page, 'Team stand-up');
    await expect(row(page, 'Tasks', 'Team stand-up').first()).toContainText('In Meeting');
    await search(page, 'no task is called this');
    await expect(page.getByText('No matching records found.')).toBeVisible();
    await search(page, '');
    await taskRound(page, unique('E2E Head Task'), { status: 'Available', department: 'Finance' });
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

    await signIn(page, USERS.companyHead.email);
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

  test('a department head editing a task outside his departments is refused with a toast', async ({
    page,
    request,
  }) => {
    const api = await asCompanyHead(request);
    const status = await api.status(unique('E2E Billing Status'), 'Billing');
    const name = unique('E2E Billing Task');
    await api.task(name, status.id, 'Billing');

    await openTasks(page, USERS.departmentHead.email);
    await search(page, name);
    await row(page, 'Tasks', name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    const form = dialog(page);
    await form.getByRole('textbox', { name: 'Name' }).fill(`${name} by James`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(`You can only change tasks of departments you head. (${name})`)).toBeVisible();
    await expect(row(page, 'Tasks', name)).toHaveCount(1);
    await expect(row(page, 'Tasks', `${name} by James`)).toHaveCount(0);
  });
});
