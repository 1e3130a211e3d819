import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_PASSWORD, signIn, USERS } from './support';

const AUDIT = '/dashboard/management/audit';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const auditTable = (page: Page) => page.getByRole('table', { name: 'Audit log' });
const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });

/** A user of Northwind made through the API as its head, so the test changes no demo user. */
async function createUser(request: APIRequestContext, first: string, last: string) {
  const headers = { 'X-App-Key': 'opsdeck-console' };
  const login = await request.post('/api/login', {
    headers,
    data: { username: USERS.companyHead.email, password: DEMO_PASSWORD },
  });
  const auth = { ...headers, 'X-Auth-Token': ((await login.json()) as { token: string }).token };
  const roles = (await (await request.get('/api/usergroup/findAllActive', { headers: auth })).json()) as {
    id: number;
    name: string;
  }[];
  const departments = (await (await request.get('/api/department', { headers: auth })).json()) as {
    id: number;
    name: string;
  }[];
  const password = 'e2e audit password 1';
  const created = await request.post('/api/user/register', {
    headers: auth,
    data: {
      firstName: first,
      lastName: last,
      emailAddress: `e2e.audit.${last.toLowerCase()}@example.test`,
      credential: { newPassword: password, confirmPassword: password },
      departmentId: departments.find((department) => department.name === 'Billing')?.id,
      groups: [roles.find((role) => role.name === 'Employee')?.id],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
}

test.describe('audit log as the company head', () => {
  test("a renamed user's History shows the change before and after; the page filters by action", async ({
    page,
    request,
  }) => {
    const last = `Audit${stamp()}`;
    await createUser(request, 'Lin', last);
    await signIn(page, USERS.companyHead.email);

    // Rename the user on the users page.
    await page.goto('/dashboard/management/users');
    await page.getByRole('search').getByLabel('Search').fill(last);
    const userRow = usersTable(page).getByRole('row').filter({ hasText: last });
    await userRow.getByRole('button', { name: `Edit Lin ${last}` }).click();
    const form = page.getByRole('dialog');
    await expect(form.getByRole('textbox', { name: 'First name' })).toHaveValue('Lin');
    await form.getByRole('textbox', { name: 'First name' }).fill('Mei');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(`Successfully updated Mei ${last}`)).toBeVisible();

    // History from the user's row: the audit page on that user alone.
    await usersTable(page)
      .getByRole('row')
      .filter({ hasText: `Mei ${last}` })
      .getByRole('link', { name: `History of Mei ${last}` })
      .click();
    await expect(page).toHaveURL(/\/dashboard\/management\/audit\?entityType=user&entityId=\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    await expect(page.getByText(`History of User Mei ${last}`)).toBeVisible();
    const changed = auditTable(page).getByRole('row').filter({ hasText: 'User changed' });
    await expect(changed).toHaveCount(1);
    await expect(changed).toContainText(USERS.companyHead.name);
    await expect(auditTable(page).getByRole('row').filter({ hasText: 'User created' })).toHaveCount(1);

    // The record's before/after view, opened from the keyboard.
    await changed.focus();
    await page.keyboard.press('Enter');
    const view = page.getByRole('dialog', { name: `User changed: User Mei ${last}` });
    await expect(view).toBeVisible();
    await expect(page).toHaveURL(/[?&]record=\d+/);
    const changes = view.getByRole('table', { name: 'Changes' });
    await expect(changes.getByRole('row').filter({ hasText: 'First name' }).getByRole('cell')).toHaveText([
      'Lin',
      'Mei',
    ]);
    await expect(changes.getByRole('row').filter({ hasText: 'Complete name' }).getByRole('cell')).toHaveText([
      `Lin ${last}`,
      `Mei ${last}`,
    ]);
    await page.keyboard.press('Escape');
    await expect(view).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]record=/);

    // Every record again, then by action: only creations of users.
    await page.getByRole('button', { name: 'Show every record' }).click();
    await expect(page).toHaveURL(new RegExp(`${AUDIT}$`));
    await page.getByRole('combobox', { name: 'Action', exact: true }).click();
    await page.getByRole('option', { name: 'User created', exact: true }).click();
    await expect(page).toHaveURL(/[?&]action=user\.create(&|$)/);
    await expect(
      auditTable(page)
        .getByRole('row')
        .filter({ hasText: `Lin ${last}` }),
    ).toBeVisible();
    // The rows of the filter, once they have replaced the unfiltered page's (which held the user too).
    const actions = async () => [
      ...new Set(await auditTable(page).locator('tbody tr td:nth-child(3)').allTextContents()),
    ];
    await expect.poll(actions).toEqual(['User created']);
  });
});
