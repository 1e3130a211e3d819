import { writeRax } from '@opsdeck/rax/write';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

/**
 * The Workflows page by keyboard and on a phone (issue 18): the focus comes back to the table
 * after a folder opens and after every dialog closes, Enter on the file field opens the file
 * chooser, and at 390 px by touch each row's actions button reaches open, rename, edit, download
 * and delete.
 */

const LIST = '/dashboard/workflow/list';
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const table = (page: Page) => page.getByRole('table', { name: 'Workflows and directories' });
const row = (page: Page, name: string) => table(page).getByRole('row').filter({ hasText: name });
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });
const listAt = (page: Page, path: string) => page.goto(`${LIST}?path=${encodeURIComponent(path)}`);

/** What holds the focus: 'row <its key>', 'table', or the element's tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    const key = active?.getAttribute('data-row-key');
    if (key) return `row ${key}`;
    if (active?.matches('table[aria-label="Workflows and directories"]')) return 'table';
    return active?.tagName.toLowerCase() ?? 'none';
  });

async function raxFile(name: string) {
  const bytes = await writeRax({
    name,
    description: `${name}, made by the browser test`,
    steps: [{ activity: 'open-browser', name: 'open-browser', expectedSeconds: 10 }],
  });
  return { name: `${name}.rax`, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) };
}

async function openCreate(page: Page, what: 'Create directory' | 'Create workflow') {
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByRole('menuitem', { name: what }).click();
  return dialog(page, what);
}

test.describe('the Workflows page by keyboard', () => {
  test('gives the focus back to the table after a folder opens and after each dialog closes', async ({ page }) => {
    test.slow();
    const folder = `Keys ${stamp()}`;
    await signInByToken(page, USERS.companyHead.email);
    await listAt(page, 'Workflows/Operations');
    await expect(table(page).getByRole('row').nth(1)).toBeVisible();

    const made = await openCreate(page, 'Create directory');
    await made.getByLabel('Name').fill(folder);
    await made.getByRole('button', { name: 'Create' }).click();
    await expect(made).toBeHidden();
    await expect(row(page, folder)).toBeVisible();
    await expect.poll(() => focused(page)).toMatch(/^row /);

    // Open the new folder by Enter: it is empty, so the table itself holds the focus.
    await row(page, folder).click();
    await page.keyboard.press('Enter');
    await expect(page.getByText('This directory is empty.')).toBeVisible();
    await expect.poll(() => focused(page)).toBe('table');

    // Enter on the file field opens the chooser; it does not submit the form.
    const create = await openCreate(page, 'Create workflow');
    // Listened for well before the Enter: Playwright turns its interception of choosers on with a
    // message of its own, which an Enter sent right behind it can overtake (no chooser event then).
    const chooser = page.waitForEvent('filechooser');
    // The dialog opens on its first field; the keyboard's way to the file field is Tab from the
    // field before it.
    await expect(create.getByLabel('Name')).toBeFocused();
    await create.getByRole('textbox', { name: 'Directory' }).focus();
    await page.keyboard.press('Tab');
    await expect(create.getByRole('button', { name: /^Workflow file/ })).toBeFocused();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(await raxFile('Keyed'));
    await expect(create.getByLabel('Name')).toHaveValue('Keyed');
    await expect(create).toBeVisible();
    await create.getByRole('button', { name: 'Save' }).click();
    await expect(create).toBeHidden();
    await expect(row(page, 'Keyed.rax')).toBeVisible();
    await expect.poll(() => focused(page)).toBe(`row workflow:Workflows/Operations/${folder}/Keyed.rax`);

    // Rename, then a delete cancelled, from the keyboard's menu (Shift+F10): back on the row each time.
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = dialog(page, /Update workflow Keyed/);
    await edit.getByLabel('Name').fill('Keyed again');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(row(page, 'Keyed again')).toBeVisible();
    await expect.poll(() => focused(page)).toMatch(/^row workflow:/);

    await page.keyboard.press('Shift+F10');
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const remove = dialog(page, 'Delete workflow');
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await expect(remove).toBeHidden();
    await expect.poll(() => focused(page)).toMatch(/^row workflow:/);
  });
});

test.describe('the Workflows page on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("reaches rename, edit, download and delete by touch through a row's actions button", async ({ page }) => {
    test.slow();
    const folder = `Touch ${stamp()}`;
    await signInByToken(page, USERS.companyHead.email);
    await listAt(page, 'Workflows/Operations');
    const made = await openCreate(page, 'Create directory');
    await made.getByLabel('Name').fill(folder);
    await made.getByRole('button', { name: 'Create' }).click();
    await expect(made).toBeHidden();
    await row(page, folder).dblclick();
    await expect(page.getByText('This directory is empty.')).toBeVisible();
    const create = await openCreate(page, 'Create workflow');
    const chooser = page.waitForEvent('filechooser');
    await create.getByLabel('Workflow file (.rax)').tap();
    await (await chooser).setFiles(await raxFile('Tapped'));
    await create.getByRole('button', { name: 'Save' }).click();
    await expect(create).toBeHidden();

    const actions = (name: string) => page.getByRole('button', { name: `Actions for ${name}` });
    const menu = (name: string) => page.getByRole('menu', { name: `Actions for ${name}` });
    await actions('Tapped').tap();
    // History: the company head holds VIEW_AUDIT_LOG.
    await expect(menu('Tapped').getByRole('menuitem')).toHaveText(['Open', 'Edit', 'Download', 'Delete', 'History']);

    // Download: the file, as the download dialog names it.
    await menu('Tapped').getByRole('menuitem', { name: 'Download' }).tap();
    const download = page.waitForEvent('download');
    await dialog(page, 'Download workflow').getByRole('button', { name: 'Download' }).tap();
    expect((await download).suggestedFilename()).toMatch(/Tapped.*\.rax$/);
    await expect(dialog(page, 'Download workflow')).toBeHidden();

    // Edit: the workflow's form.
    await actions('Tapped').tap();
    await menu('Tapped').getByRole('menuitem', { name: 'Edit' }).tap();
    const edit = dialog(page, /Update workflow Tapped/);
    await edit.getByLabel('Description').fill('Edited by touch');
    await edit.getByRole('button', { name: 'Save' }).tap();
    await expect(edit).toBeHidden();

    // Delete: gone from the folder.
    await actions('Tapped').tap();
    await menu('Tapped').getByRole('menuitem', { name: 'Delete' }).tap();
    await dialog(page, 'Delete workflow').getByRole('button', { name: 'Delete' }).tap();
    await expect(page.getByText('This directory is empty.')).toBeVisible();

    // Rename: the folder, from the level above.
    await listAt(page, 'Workflows/Operations');
    await actions(folder).tap();
    await menu(folder).getByRole('menuitem', { name: 'Rename' }).tap();
    const rename = dialog(page, new RegExp(`Rename directory ${folder}`));
    await rename.getByLabel('New name').fill(`${folder} renamed`);
    await rename.getByRole('button', { name: 'Rename' }).tap();
    await expect(rename).toBeHidden();
    await expect(row(page, `${folder} renamed`)).toBeVisible();
  });
});
