import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

const PAGE = '/dashboard/management/departments';
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const dialog = (page: Page) => page.getByRole('dialog');
const table = (page: Page) => page.getByRole('table', { name: 'Departments' });
// By the name cell: the Parent column repeats a parent's name in its children's rows.
const row = (page: Page, name: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.locator('td:first-child').getByText(name, { exact: true }) });
const tree = (page: Page) => page.getByRole('tree', { name: 'Department hierarchy' });

async function openDepartments(page: Page, email: string) {
  await signInByToken(page, email);
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Departments' })).toBeVisible();
}

async function search(page: Page, text: string) {
  await page.getByRole('search').getByLabel('Search').fill(text);
}

/** Types into the head typeahead and picks the entry naming `name`. */
async function pickHead(form: Locator, page: Page, typed: string, name: string) {
  const head = form.getByRole('textbox', { name: 'Head' });
  await head.fill(typed);
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await expect(head).toHaveValue(name);
}

async function pickOption(form: Locator, page: Page, label: string, option: string) {
  await form.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function createDepartment(page: Page, name: string, options: { company?: string; parent?: string } = {}) {
  await page.getByRole('button', { name: 'Create department' }).click();
  const form = dialog(page);
  await expect(form).toBeVisible();
  if (options.company) await pickOption(form, page, 'Company', options.company);
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await pickHead(form, page, 'James', 'James Whitaker');
  if (options.parent) await pickOption(form, page, 'Parent department', options.parent);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(`Successfully added ${name}`)).toBeVisible();
}

async function deleteDepartment(page: Page, name: string) {
  await search(page, name);
  await row(page, name)
    .first()
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  await dialog(page).getByRole('button', { name: 'Delete' }).click();
  await expect(dialog(page)).toBeHidden();
}

test.describe('departments as the provider admin', () => {
  test('creates in a picked company with a typeahead head, sets a parent, shows the tree, deletes', async ({
    page,
  }) => {
    const parent = unique('E2E Admin Parent');
    const child = unique('E2E Admin Child');
    await openDepartments(page, USERS.admin.email);
    // With no company picked, the admin sees every company's departments, with the company.
    await search(page, 'Operations');
    await expect(row(page, 'Operations').first()).toContainText('Northwind Logistics');
    await search(page, '');

    await createDepartment(page, parent, { company: 'Northwind Logistics' });
    await createDepartment(page, child, { company: 'Northwind Logistics' });

    // Edit: the child moves under the parent.
    await search(page, child);
    await expect(row(page, child)).toContainText('James Whitaker');
    await row(page, child)
      .getByRole('button', { name: `Edit ${child}` })
      .click();
    const form = dialog(page);
    await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue(child);
    await expect(form.getByRole('combobox', { name: 'Company' })).toBeDisabled();
    await pickOption(form, page, 'Parent department', parent);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(`Successfully updated ${child}`)).toBeVisible();

    // The tree nests the child under the parent; the child says it has no children.
    const parentNode = tree(page).getByRole('treeitem', { name: new RegExp(`^${parent}`) });
    const childNode = parentNode.getByRole('treeitem', { name: new RegExp(`^${child}`) });
    await expect(childNode).toBeVisible();
    await expect(childNode.getByText('No children')).toBeVisible();
    // The table names the parent; the tree follows the search (the child and its ancestors only).
    await expect(table(page).getByRole('columnheader', { name: 'Parent' })).toBeVisible();
    await expect(row(page, child)).toContainText(parent);
    await expect(tree(page).getByText('Operations', { exact: true })).toHaveCount(0);

    await deleteDepartment(page, child);
    await expect(page.getByText(`Successfully deleted ${child}`)).toBeVisible();
    await deleteDepartment(page, parent);
    await expect(page.getByText(`Successfully deleted ${parent}`)).toBeVisible();
    await search(page, parent);
    await expect(table(page)).toContainText('No matching records found.');
  });

  test('says the head is required, and must be picked from the list', async ({ page }) => {
    await openDepartments(page, USERS.admin.email);
    await page.getByRole('button', { name: 'Create department' }).click();
    const form = dialog(page);
    await pickOption(form, page, 'Company', 'Northwind Logistics');
    await form.getByRole('textbox', { name: 'Name' }).fill(unique('E2E Headless'));
    const head = form.getByRole('textbox', { name: 'Head' });
    await head.focus();
    await form.getByRole('textbox', { name: 'Name' }).focus();
    await expect(form.getByText('Department head is required.')).toBeVisible();
    await head.fill('Nobody Of That Name');
    await form.getByRole('textbox', { name: 'Name' }).focus();
    await expect(form.getByText('Select a department head from the list.')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    // Picking an entry clears the message.
    await pickHead(form, page, 'Priya', 'Priya Raman');
    await expect(form.getByText('Select a department head from the list.')).toBeHidden();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
  });
});

test.describe('departments as the company head', () => {
  test('creates and edits, and a delete of a department with children is refused with a toast', async ({ page }) => {
    const parent = unique('E2E Head Parent');
    const child = unique('E2E Head Child');
    const renamed = `${child} Renamed`;
    await openDepartments(page, USERS.companyHead.email);
    await expect(table(page).getByRole('columnheader', { name: 'Company' })).toHaveCount(0);

    await createDepartment(page, parent);
    await createDepartment(page, child, { parent });

    await search(page, child);
    await row(page, child)
      .getByRole('button', { name: `Edit ${child}` })
      .click();
    const form = dialog(page);
    await form.getByRole('textbox', { name: 'Name' }).fill(renamed);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(`Successfully updated ${renamed}`)).toBeVisible();

    await deleteDepartment(page, parent);
    await expect(page.getByText(`Department has child departments and cannot be deleted. (${parent})`)).toBeVisible();
    await expect(row(page, parent)).toBeVisible();

    await deleteDepartment(page, renamed);
    await expect(page.getByText(`Successfully deleted ${renamed}`)).toBeVisible();
    await deleteDepartment(page, parent);
    await expect(page.getByText(`Successfully deleted ${parent}`)).toBeVisible();
  });

  test('refuses a duplicate name on the name field', async ({ page }) => {
    await openDepartments(page, USERS.companyHead.email);
    await page.getByRole('button', { name: 'Create department' }).click();
    const form = dialog(page);
    await form.getByRole('textbox', { name: 'Name' }).fill('operations');
    await pickHead(form, page, 'James', 'James Whitaker');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('A department with this name already exists.')).toBeVisible();
    await form.getByRole('button', { name: 'Cancel' }).click();
  });
});
