import { readFile } from 'node:fs/promises';
import { readRax } from '@opsdeck/rax/read';
import { writeRax } from '@opsdeck/rax/write';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

/**
 * The Workflows area as the browser drives it on the real stack: the demo trees, directories,
 * uploads (by the file field and by a drop), selection with ctrl- and shift-click, the context
 * menu, renames, zip downloads, deletes, the actions hidden at the top levels, and the column
 * visibility kept across a reload.
 */

const LIST = '/dashboard/workflow/list';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const table = (page: Page) => page.getByRole('table', { name: 'Workflows and directories' });
const row = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });
const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
const listAt = (page: Page, path: string) => page.goto(`${LIST}?path=${encodeURIComponent(path)}`);

async function raxFile(name: string, steps = ['open-browser', 'read-excel-range']) {
  const bytes = await writeRax({
    name,
    description: `${name}, made by the browser test`,
    steps: steps.map((activity) => ({ activity, name: activity, expectedSeconds: 10 })),
  });
  return { name: `${name}.rax`, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) };
}

async function contextMenu(page: Page, target: Locator) {
  await target.click({ button: 'right' });
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

/** Escape closes an open menu: waited for, so that a menu still closing is not taken for the next one. */
async function closeMenu(page: Page) {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
}

async function createDirectory(page: Page, name: string) {
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Create directory', exact: true }).click();
  const modal = dialog(page, 'Create directory');
  await modal.getByLabel('Name').fill(name);
  await modal.getByRole('button', { name: 'Create' }).click();
  await expect(modal).toBeHidden();
  await expect(row(page, name)).toBeVisible();
}

async function uploadWorkflow(page: Page, name: string) {
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Create workflow' }).click();
  const modal = dialog(page, 'Create workflow');
  // The file field is a button: the browser's file chooser answers its click.
  const chooser = page.waitForEvent('filechooser');
  await modal.getByLabel('Workflow file (.rax)').click();
  await (await chooser).setFiles(await raxFile(name));
  await expect(modal.getByLabel('Name')).toHaveValue(name);
  await modal.getByLabel('Description').fill(`${name} description`);
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal).toBeHidden();
  await expect(row(page, `${name}.rax`)).toBeVisible();
}

/** Drops a file on the table as a browser does: dragenter, dragover and drop carrying a File. */
async function dropFile(page: Page, target: Locator, file: { name: string; buffer: Buffer }) {
  const transfer = await page.evaluateHandle(
    ({ name, bytes }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/octet-stream' }));
      return data;
    },
    { name: file.name, bytes: [...file.buffer] },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer: transfer });
}

test.describe('workflows as a company head', () => {
  test('the demo tree opens folder by folder, with breadcrumbs that jump back', async ({ page }) => {
    await signInByToken(page, USERS.companyHead.email);
    await page.goto(LIST);
    await expect(row(page, 'Finance')).toBeVisible();
    await row(page, 'Finance').dblclick();
    await expect(page).toHaveURL(/path=Workflows%2FFinance/);
    await row(page, 'Invoices').dblclick();
    await expect(row(page, 'Invoice intake.rax')).toBeVisible();
    await expect(row(page, 'Post invoices to SAP.rax')).toContainText('Premium');
    const trail = page.getByRole('navigation', { name: 'Directory path' });
    await trail.getByRole('link', { name: 'Workflows', exact: true }).click();
    await expect(row(page, 'Operations')).toBeVisible();
  });

  test('creates a directory, uploads by the field and by a drop, renames two at once, downloads a zip, deletes', async ({
    page,
  }) => {
    test.slow();
    const folder = `E2E ${stamp()}`;
    await signInByToken(page, USERS.companyHead.email);
    await listAt(page, 'Workflows/Operations');
    await createDirectory(page, folder);
    await row(page, folder).dblclick();
    await expect(page.getByText('This directory is empty.')).toBeVisible();

    await uploadWorkflow(page, 'Alpha');
    await dropFile(page, table(page), await raxFile('Beta'));
    const dropped = dialog(page, 'Create workflow');
    await expect(dropped.getByLabel('Name')).toHaveValue('Beta');
    await dropped.getByRole('button', { name: 'Save' }).click();
    await expect(dropped).toBeHidden();
    await expect(row(page, 'Beta.rax')).toBeVisible();

    // Ctrl-click selects both; the context menu renames them after one name, numbered.
    await row(page, 'Alpha.rax').click();
    await row(page, 'Beta.rax').click({ modifiers: ['Control'] });
    await expect(table(page).locator('[aria-selected="true"]')).toHaveCount(2);
    const menu = await contextMenu(page, row(page, 'Beta.rax'));
    await menu.getByRole('menuitem', { name: 'Rename selected' }).click();
    const rename = dialog(page, 'Rename 2 items');
    await rename.getByLabel('New name').fill('Shipping run');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(toast(page, 'Successfully renamed 2 items')).toBeVisible();
    await expect(row(page, 'Shipping run.rax')).toBeVisible();
    await expect(row(page, 'Shipping run (2).rax')).toBeVisible();

    // The whole directory as one zip, from the level above.
    await page.getByRole('navigation', { name: 'Directory path' }).getByRole('link', { name: 'Operations' }).click();
    const folderMenu = await contextMenu(page, row(page, folder));
    await folderMenu.getByRole('menuitem', { name: 'Download as zip' }).click();
    const download = page.waitForEvent('download');
    await dialog(page, 'Download directory').getByRole('button', { name: 'Download' }).click();
    const zip = await download;
    expect(zip.suggestedFilename()).toBe(`${folder}.zip`);
    const bytes = await readFile((await zip.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');

    // Delete says how many workflows go.
    const deleteMenu = await contextMenu(page, row(page, folder));
    await deleteMenu.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = dialog(page, 'Delete directory');
    await expect(confirm).toContainText('archives the 2 workflows in it');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(row(page, folder)).toHaveCount(0);
  });

  test('opens a workflow with its versions and downloads one named after the workflow', async ({ page }) => {
    await signInByToken(page, USERS.companyHead.email);
    await listAt(page, 'Workflows/HR/Onboarding');
    await row(page, 'New hire accounts.rax').dblclick();
    const modal = dialog(page, /Update workflow New hire accounts/);
    const versions = modal.getByRole('table', { name: 'Versions' });
    await expect(versions.getByRole('row')).toHaveCount(4);
    await expect(modal.getByText('send-outlook-mail').or(modal.getByText('Send Outlook Mail')).first()).toBeVisible();
    await modal.getByRole('button', { name: 'Cancel' }).click();

    const menu = await contextMenu(page, row(page, 'New hire accounts.rax'));
    await menu.getByRole('menuitem', { name: 'Download' }).click();
    const ask = dialog(page, 'Download workflow');
    await ask.getByLabel('Name the file after the workflow').check();
    const download = page.waitForEvent('download');
    await ask.getByRole('button', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('New hire accounts.rax');
    const contents = await readRax(new Uint8Array(await readFile((await file.path())!)));
    expect(contents.manifest.steps).toHaveLength(5);
  });

  test('hides edit, delete and the search at the root, and shows them one level down', async ({ page }) => {
    await signInByToken(page, USERS.companyHead.email);
    await page.goto(LIST);
    await expect(row(page, 'Finance')).toBeVisible();
    await expect(page.getByRole('search')).toHaveCount(0);
    let menu = await contextMenu(page, row(page, 'Finance'));
    await expect(menu.getByRole('menuitem', { name: 'Rename' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeVisible();
    await closeMenu(page);

    await row(page, 'Finance').dblclick();
    await expect(page.getByRole('search')).toBeVisible();
    menu = await contextMenu(page, row(page, 'Invoices'));
    await expect(menu.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
  });

  test('searches below the current directory, each hit with its path', async ({ page }) => {
    await signInByToken(page, USERS.companyHead.email);
    await listAt(page, 'Workflows/Finance');
    await page.getByRole('search').getByLabel('Search').fill('invoice');
    await expect(row(page, 'Invoice intake.rax')).toContainText('Workflows/Finance/Invoices');
    await expect(row(page, 'Timesheet consolidation.rax')).toHaveCount(0);
  });

  test('keeps the hidden columns across a reload', async ({ page }) => {
    await signInByToken(page, USERS.companyHead.email);
    await listAt(page, 'Workflows/Finance/Invoices');
    const header = table(page).getByRole('columnheader', { name: /Description/ });
    await expect(header).toBeVisible();
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Description' }).click();
    await page.keyboard.press('Escape');
    await expect(header).toHaveCount(0);
    await page.reload();
    await expect(row(page, 'Invoice intake.rax')).toBeVisible();
    await expect(table(page).getByRole('columnheader', { name: /Description/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Description' }).click();
    await expect(table(page).getByRole('columnheader', { name: /Description/ })).toBeVisible();
  });
});

test.describe('workflows as the provider admin', () => {
  test('sees a folder per company, acts through it, and edits only from the third level', async ({ page }) => {
    test.slow();
    await signInByToken(page, USERS.admin.email);
    await page.goto(LIST);
    const company = row(page, USERS.companyHead.company);
    await expect(company).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create', exact: true })).toHaveCount(0);
    let menu = await contextMenu(page, company);
    await expect(menu.getByRole('menuitem', { name: 'Rename' })).toHaveCount(0);
    await closeMenu(page);

    await company.dblclick();
    await expect(row(page, 'Finance')).toBeVisible();
    await expect(page.getByRole('search')).toHaveCount(0);
    menu = await contextMenu(page, row(page, 'Finance'));
    await expect(menu.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
    await closeMenu(page);

    await row(page, 'Finance').dblclick();
    await expect(page.getByRole('search')).toBeVisible();
    const folder = `Admin ${stamp()}`;
    await createDirectory(page, folder);
    await row(page, folder).dblclick();
    await uploadWorkflow(page, 'From the provider');
    await expect(row(page, 'From the provider.rax')).toContainText(USERS.admin.name);
  });
});
