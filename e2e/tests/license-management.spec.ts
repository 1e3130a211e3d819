import { readFile } from 'node:fs/promises';
import { checkLicenseFile } from '@opsdeck/licensing/license-file';
import { registrationFileText } from '@opsdeck/licensing/registration';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { DEMO_PASSWORD, signIn, signInByToken, USERS } from './support';

/**
 * License Management as the browser drives it on the real stack: companies and their heads,
 * licences and their renewal, keys (generated, from a registration file, exported as a signed
 * licence file), and the accounts of every company and of the solo licences.
 */

const COMPANIES = '/dashboard/license/companies';
const ACCOUNTS = '/dashboard/license/accounts';
const APP_KEY = { 'X-App-Key': 'opsdeck-console' };
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const rowOf = (table: Locator, text: string) => table.getByRole('row').filter({ hasText: text });
const companiesTable = (page: Page) => page.getByRole('table', { name: 'Companies' });
const licensesTable = (page: Page) => page.getByRole('table', { name: 'Licenses' });
const keysTable = (page: Page) => page.getByRole('table', { name: 'License keys' });
const accountsTable = (page: Page) => page.getByRole('table', { name: 'Accounts' });

/** A table cell by its column header's position (the tables keep every column on a desktop screen). */
async function cell(table: Locator, row: Locator, header: string) {
  const headers = await table.getByRole('columnheader').allTextContents();
  const index = headers.findIndex((text) => text.trim().startsWith(header));
  expect(index, `no column ${header} in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return row.getByRole('cell').nth(index);
}

async function search(page: Page, text: string) {
  await page.getByRole('search').getByLabel('Search').fill(text);
}

/** A registration file (.dat) as a machine writes it (docs/licensing.md, Registration files). */
function datFile(fullName: string, emailAddress: string, macAddresses: string[]) {
  const text = registrationFileText({ fullName, emailAddress, macAddresses, hostname: 'e2e-workstation' });
  return { name: 'machine.dat', mimeType: 'application/octet-stream', buffer: Buffer.from(text, 'utf8') };
}

/** The provider admin's API, to arrange a company of our own before a browser test. */
async function asProviderAdmin(request: APIRequestContext) {
  const login = await request.post('/api/login', {
    headers: APP_KEY,
    data: { username: USERS.admin.email, password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const auth = { ...APP_KEY, 'X-Auth-Token': token };
  return {
    /** A company with its head and one department (keys are made for a department). */
    async company(name: string, department: string) {
      const email = `head.${stamp()}@example.test`;
      const created = await request.post('/api/company', {
        headers: auth,
        data: {
          name,
          industryType: 'retail',
          head: {
            firstName: 'Rita',
            lastName: 'Keymaker',
            emailAddress: email,
            credential: { username: email, newPassword: 'e2e password 1', confirmPassword: 'e2e password 1' },
          },
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      const company = (await created.json()) as { id: number; tenantId: string; head: { id: number } };
      const made = await request.post('/api/department', {
        headers: { ...auth, 'X-Tenant-Id': company.tenantId },
        data: { name: department, headId: company.head.id },
      });
      expect(made.status(), await made.text()).toBe(201);
      return company;
    },
    /** A solo account (its own one-seat licence) from a registration file of this person. */
    async solo(fullName: string, emailAddress: string, mac: string) {
      const made = await request.post('/api/account/solo', {
        headers: auth,
        multipart: { licenseType: 'pro', regFile: datFile(fullName, emailAddress, [mac]) },
      });
      expect(made.status(), await made.text()).toBe(201);
    },
  };
}

/**
 * The text of one column in every row of a table, top to bottom, read at one moment (rows read one
 * by one could be replaced in between, and a row gone would be waited for).
 */
async function columnTexts(table: Locator, header: string) {
  const headers = await table.getByRole('columnheader').allTextContents();
  const index = headers.findIndex((text) => text.trim().startsWith(header));
  expect(index, `no column ${header} in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return table
    .locator('tbody tr')
    .evaluateAll(
      (rows, column) =>
        rows.map((row) => (row.querySelectorAll(':scope > td, :scope > th')[column]?.textContent ?? '').trim()),
      index,
    );
}

/** Picks a department in the key dialog and generates; returns the full key the one-time modal shows. */
async function generateIn(page: Page, dialog: Locator, department: string) {
  await dialog.getByRole('combobox', { name: /^Department/ }).click();
  await page.getByRole('option', { name: department, exact: true }).click();
  await dialog.getByRole('button', { name: 'Generate' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new license key' });
  await expect(shown).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(shown).toContainText('It will not be shown again');
  const key = await shown.getByRole('textbox', { name: 'License key' }).inputValue();
  expect(key).toMatch(/^ODK-[0-9A-Z-]+$/);
  return { shown, key };
}

async function openKeyMenu(page: Page, item: 'Generate key' | 'Generate from file') {
  await page.getByRole('button', { name: 'Generate keys', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
  await expectAccessible(page, 'key menu');
  await page.getByRole('menuitem', { name: item }).click();
  return page.getByRole('dialog', {
    name: item === 'Generate key' ? 'Generate key' : 'Generate key from a registration file',
  });
}

/** The partial key the table shows for a full key: its first group and its last four characters. */
function expectPartialOf(partial: string, key: string) {
  expect(partial).not.toBe(key);
  expect(partial).toContain('…');
  const [head, tail] = partial.split('…').map((part) => part.replace(/-$|^-/g, ''));
  expect(key.startsWith(head!)).toBe(true);
  expect(key.endsWith(tail!)).toBe(true);
}

test.describe('companies', () => {
  test('the provider admin creates a company with its head, who then signs in to their company page', async ({
    page,
    browser,
  }) => {
    const tag = stamp();
    const name = `E2E Parcel ${tag}`;
    const email = `e2e.head.${tag}@example.test`;
    const password = `head password ${tag}`;
    await signInByToken(page, USERS.admin.email);
    await page.goto(COMPANIES);
    await expect(page.getByRole('heading', { level: 1, name: 'Companies' })).toBeVisible();
    await expect(rowOf(companiesTable(page), USERS.companyHead.company)).toBeVisible();

    await page.getByRole('button', { name: 'Create company' }).click();
    const form = page.getByRole('dialog', { name: 'Create company' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Company name is required.')).toBeVisible();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await form.getByRole('combobox', { name: 'Industry' }).click();
    await page.getByRole('option', { name: 'Retail and E-commerce', exact: true }).click();
    await form.getByRole('textbox', { name: "Head's first name" }).fill('Nadia');
    await form.getByRole('textbox', { name: "Head's last name" }).fill(`Parcel${tag}`);
    await form.getByRole('textbox', { name: "Head's e-mail" }).fill(email);
    await form.getByLabel(/^Password/).fill(password);
    // The form's own check: the confirmation must match, before any call.
    await form.getByLabel(/^Confirm password/).fill(`${password}x`);
    await form.getByLabel(/^Confirm password/).blur();
    await expect(form.getByText('Password does not match.')).toBeVisible();
    await form.getByLabel(/^Confirm password/).fill(password);
    await expect(form.getByText('Password does not match.')).toHaveCount(0);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(toast(page, `Successfully added ${name}`)).toBeVisible();

    // Found by the search, with its head and industry.
    await search(page, tag);
    await expect(companiesTable(page).locator('tbody tr')).toHaveCount(1);
    const row = rowOf(companiesTable(page), name);
    await expect(row).toContainText(`Nadia Parcel${tag}`);
    await expect(row).toContainText('Retail and E-commerce');
    await row.getByRole('link', { name }).click();
    await expect(page).toHaveURL(/\/dashboard\/license\/companies\/\d+$/);
    const companyUrl = page.url();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Company summary' })).toContainText(email);
    await expect(page.getByText('This company has no licenses yet.')).toBeVisible();

    // The head signs in with the password the admin gave, and reaches their company by 'Licenses'.
    const context = await browser.newContext();
    try {
      const head = await context.newPage();
      await signIn(head, email, password);
      await expect(head.getByRole('banner')).toContainText(`Nadia Parcel${tag}`);
      const licenses = nav(head).getByRole('link', { name: 'Licenses', exact: true });
      await licenses.click();
      await expect(head).toHaveURL(companyUrl);
      await expect(head.getByRole('heading', { level: 1, name })).toBeVisible();
      await expect(head.getByText('This company has no licenses yet.')).toBeVisible();
      await expect(head.getByRole('button', { name: 'Add license' })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('a company that holds licences cannot be deleted', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto(COMPANIES);
    await search(page, USERS.companyHead.company);
    const row = rowOf(companiesTable(page), USERS.companyHead.company);
    await row.getByRole('button', { name: `Delete ${USERS.companyHead.company}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete company' });
    await expect(confirm).toContainText('Its users will no longer be able to sign in');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Company has licenses and cannot be deleted.')).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(row).toBeVisible();
  });
});

test.describe('licences and keys as the provider admin', () => {
  test('adds and renews a licence, generates keys alone and from a file until it is full, exports a licence file', async ({
    page,
    request,
    context,
  }) => {
    test.setTimeout(60_000);
    const tag = stamp();
    const companyName = `E2E Keys ${tag}`;
    const label = `Robots ${tag}`;
    const company = await (await asProviderAdmin(request)).company(companyName, 'Robotics');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInByToken(page, USERS.admin.email);
    await page.goto(`${COMPANIES}/${company.id}`);
    await expect(page.getByRole('heading', { level: 1, name: companyName })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Company summary' })).toContainText('No license');

    // Add: 'pro' is chosen already.
    await page.getByRole('button', { name: 'Add license' }).click();
    const add = page.getByRole('dialog', { name: 'Add license' });
    await expect(add.getByRole('combobox', { name: 'Type' })).toHaveValue('Professional');
    await add.getByRole('textbox', { name: 'Label' }).fill(label);
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add).toBeHidden();
    await expect(toast(page, `Successfully added ${label}`)).toBeVisible();
    const licence = rowOf(licensesTable(page), label);
    await expect(licence).toContainText('PRO');
    await expect(licence).toContainText('Active');
    await expect(await cell(licensesTable(page), licence, 'Allowed keys')).toHaveText('10');
    await expect(page.getByRole('region', { name: 'Company summary' })).toContainText('PRO');

    // Renew: the allowed keys are 1 to 100; then 2 keys until a day two years on.
    await licence.getByRole('button', { name: `Renew ${label}` }).click();
    const renew = page.getByRole('dialog', { name: 'Renew License Confirmation' });
    const allowed = renew.getByRole('textbox', { name: /^Allowed keys/ });
    await allowed.fill('0');
    await allowed.blur();
    await expect(renew.getByText('Allowed keys must be at least 1.')).toBeVisible();
    await expect(renew.getByRole('button', { name: 'Renew' })).toBeDisabled();
    await allowed.fill('101');
    await expect(renew.getByText('Allowed keys must be at most 100.')).toBeVisible();
    await allowed.fill('2');
    await expect(renew.getByText(/Allowed keys must be/)).toHaveCount(0);
    const until = new Date();
    until.setFullYear(until.getFullYear() + 2, 5, 15);
    const day = `06/15/${until.getFullYear()}`;
    const date = renew.getByRole('textbox', { name: /^Expiration date/ });
    await date.fill(day);
    await date.blur();
    await expect(date).toHaveValue(day);
    await renew.getByRole('button', { name: 'Renew' }).click();
    await expect(renew).toBeHidden();
    await expect(toast(page, `Successfully updated ${label}`)).toBeVisible();
    await expect(await cell(licensesTable(page), licence, 'Allowed keys')).toHaveText('2');
    await expect(await cell(licensesTable(page), licence, 'Remaining keys')).toHaveText('2');
    await expect(await cell(licensesTable(page), licence, 'Expiration date')).toHaveText(day);

    // The keys page: the company and licence, no keys yet.
    await licence.getByRole('link', { name: `View keys of ${label}` }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/license/companies/${company.id}/license/\\d+$`));
    await expect(page.getByRole('heading', { level: 1, name: 'License Keys' })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Company and license' });
    await expect(summary).toContainText(companyName);
    await expect(summary).toContainText(label);
    await expect(keysTable(page)).toContainText('No keys have been generated for this license yet.');

    // A key alone: shown in full once, copied, then only its partial form.
    const { shown, key } = await generateIn(page, await openKeyMenu(page, 'Generate key'), 'Robotics');
    await expectAccessible(page, 'the new key modal', '.mantine-Modal-content');
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
    await expect(keysTable(page).locator('tbody tr')).toHaveCount(1);
    const partial = (await keysTable(page).locator('tbody tr').first().getByRole('cell').first().textContent()) ?? '';
    expectPartialOf(partial, key);
    await expect(page.getByText(key)).toHaveCount(0);
    await expect(rowOf(keysTable(page), partial)).toContainText('Robotics');

    // A key from a machine's registration file: it carries the person and the machine.
    const person = `Ines Filemaker ${tag}`;
    const personEmail = `ines.${tag}@example.test`;
    const macs = ['AA:BB:CC:DD:EE:01', '02:00:5E:10:00:2A'];
    const fromFile = await openKeyMenu(page, 'Generate from file');
    await fromFile.locator('input[type=file]').setInputFiles(datFile(person, personEmail, macs));
    await expect(fromFile.getByText('machine.dat')).toBeVisible();
    const second = await generateIn(page, fromFile, 'Robotics');
    await expect(second.shown).toContainText(person);
    await second.shown.getByRole('button', { name: 'Done' }).click();
    await expect(keysTable(page).locator('tbody tr')).toHaveCount(2);
    const filed = rowOf(keysTable(page), person);
    await expect(filed).toContainText(personEmail);
    for (const mac of macs) await expect(filed).toContainText(mac);

    // Full: the summary counts it, and the menu says why nothing more can be made.
    await expect(summary).toContainText(/Remaining keys\s*0/);
    const blocked = page.getByRole('button', { name: 'Generate keys: The license has no remaining keys.' });
    await expect(blocked).toHaveAttribute('aria-disabled', 'true');
    await blocked.hover();
    await expect(page.getByRole('tooltip', { name: 'The license has no remaining keys.' })).toBeVisible();
    await blocked.click({ force: true });
    await expect(page.getByRole('menuitem', { name: 'Generate key' })).toHaveCount(0);
    // Only a key made from a file has a licence file to export.
    await expect(rowOf(keysTable(page), partial).getByRole('button', { name: /^Export/ })).toHaveCount(0);

    // Its licence file: signed by the server, for this person's machines.
    const filedPartial = (await filed.getByRole('cell').first().textContent()) ?? '';
    const downloading = page.waitForEvent('download');
    await filed.getByRole('button', { name: `Export the license file of ${filedPartial}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.lic$/);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.trimEnd().split('\n')).toHaveLength(6);
    const pem = await (await request.get('/api/license/public-key', { headers: APP_KEY })).text();
    const checked = checkLicenseFile(text, pem);
    if (!checked.valid) throw new Error(`the exported licence file does not verify: ${checked.reason}`);
    expect(checked.expired).toBe(false);
    expect(checked.payload.key).toBe(second.key);
    expect(checked.payload.fullName).toBe(person);
    expect(checked.payload.emailAddress).toBe(personEmail);
    expect(checked.payload.macAddresses).toEqual(macs);
    expect(checked.payload.company).toEqual({ id: company.id, name: companyName });
    expect(checked.payload.license.type).toBe('pro');
    expect(checked.payload.department?.name).toBe('Robotics');
  });
});

test.describe('licences as the company head', () => {
  test('sees her licences without the provider actions, and generates and deletes a key', async ({ page }) => {
    await signIn(page, USERS.companyHead.email);
    await nav(page).getByRole('link', { name: 'Licenses', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: USERS.companyHead.company })).toBeVisible();
    for (const label of ['Dispatch robots', 'Finance back office']) {
      const licence = rowOf(licensesTable(page), label);
      await expect(licence).toBeVisible();
      await expect(licence.getByRole('link', { name: `View keys of ${label}` })).toBeVisible();
    }
    await expect(rowOf(licensesTable(page), 'Finance back office')).toContainText('ENTERPRISE');
    await expect(page.getByRole('button', { name: 'Add license' })).toHaveCount(0);
    await expect(licensesTable(page).getByRole('button', { name: /^(Renew|Invalidate|Delete) / })).toHaveCount(0);

    await rowOf(licensesTable(page), 'Dispatch robots')
      .getByRole('link', { name: 'View keys of Dispatch robots' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'License Keys' })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Company and license' });
    await expect(summary).toContainText('Dispatch robots');
    // Counted once the keys have come (a loading table shows a row of its own).
    await expect(keysTable(page)).toHaveAttribute('aria-busy', 'false');
    await expect(keysTable(page).locator('tbody tr').first()).toBeVisible();
    const before = await keysTable(page).locator('tbody tr').count();

    const { shown, key } = await generateIn(page, await openKeyMenu(page, 'Generate key'), 'Dispatch');
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(toast(page, 'Successfully generated a key')).toBeVisible();
    await expect(keysTable(page).locator('tbody tr')).toHaveCount(before + 1);
    const mine = keysTable(page)
      .locator('tbody tr')
      .filter({ hasText: key.slice(0, 8) })
      .filter({ hasText: key.slice(-4) });
    await expect(mine).toHaveCount(1);
    const partial = (await mine.getByRole('cell').first().textContent()) ?? '';
    expectPartialOf(partial, key);

    // She may delete a key too: it frees the licence's slot again (and leaves the demo as it was).
    await mine.getByRole('button', { name: `Delete ${partial}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete key' });
    await expect(confirm).toContainText(partial);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, `Successfully deleted ${partial}`)).toBeVisible();
    await expect(keysTable(page).locator('tbody tr')).toHaveCount(before);
  });
});

test.describe('accounts', () => {
  test('lists, searches and expands the accounts; adds a solo account from a file and deletes it', async ({ page }) => {
    const tag = stamp();
    await signInByToken(page, USERS.admin.email);
    await page.goto(ACCOUNTS);
    await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
    await expect(accountsTable(page).locator('tbody tr')).toHaveCount(10);

    // The search narrows to one demo person, a solo account with its badge and expiry.
    await search(page, 'dana.whitfield');
    await expect(accountsTable(page).locator('tbody tr')).toHaveCount(1);
    const dana = rowOf(accountsTable(page), 'Dana Whitfield');
    await expect(dana).toContainText('Solo');
    await expect(dana).toContainText('dana.whitfield@freelance.test');
    await expect(await cell(accountsTable(page), dana, 'License expiration')).toHaveText(
      /^\d{4} [A-Z][a-z]{2} \d{2} \d{2}:\d{2} [AP]M$/,
    );

    // A solo account of our own, from a machine with five network cards.
    const person = `Solo Person ${tag}`;
    const email = `solo.${tag}@example.test`;
    const macs = [
      'AA:00:00:00:00:01',
      'AA:00:00:00:00:02',
      'AA:00:00:00:00:03',
      'AA:00:00:00:00:04',
      'AA:00:00:00:00:05',
    ];
    await page.getByRole('button', { name: 'Add solo account' }).click();
    const add = page.getByRole('dialog', { name: 'Add solo account' });
    await expect(add.getByRole('combobox', { name: /^License type/ })).toHaveValue('Professional');
    await add.locator('input[type=file]').setInputFiles(datFile(person, email, macs));
    await add.getByRole('button', { name: 'Add' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new license key' });
    await expect(shown.getByRole('textbox', { name: 'License key' })).toHaveValue(/^ODK-/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();

    await search(page, tag);
    await expect(accountsTable(page).locator('tbody tr')).toHaveCount(1);
    const solo = rowOf(accountsTable(page), person);
    await expect(solo).toContainText('Solo');
    await expect(solo).toContainText(email);
    // Three MAC addresses, then See More for the rest and See Less to fold them again.
    const macCell = await cell(accountsTable(page), solo, 'MAC addresses');
    await expect(macCell).toContainText(macs[2]!);
    await expect(macCell).not.toContainText(macs[3]!);
    await macCell.getByRole('button', { name: 'See More' }).click();
    for (const mac of macs) await expect(macCell).toContainText(mac);
    await expect(macCell.getByRole('button', { name: 'See Less' })).toHaveAttribute('aria-expanded', 'true');
    await macCell.getByRole('button', { name: 'See Less' }).click();
    await expect(macCell).not.toContainText(macs[4]!);

    // Its delete has its own dialog: the solo licence is invalidated, and the account leaves the list.
    await solo.getByRole('button', { name: `Delete ${person}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete solo account' });
    await expect(confirm).toContainText(`Delete the solo account ${person}?`);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, `Successfully deleted ${person}`)).toBeVisible();
    await expect(accountsTable(page)).toContainText('No matching records found.');
  });

  test('sorts by full name on the server and pages ten at a time', async ({ page, request }) => {
    // Accounts of our own, found together by their e-mails' tag, made in an order that is neither
    // the one asked for nor its reverse, and in mixed case: the server orders by name whatever the
    // case (a byte order would put "Ben" and "Carla" before "ada"), and not by id or by e-mail.
    const tag = stamp();
    const made = [
      ['Carla Byrne', 'c'],
      ['ada Lovett', 'd'],
      ['delia Moss', 'b'],
      ['Ben Achebe', 'a'],
    ] as const;
    const admin = await asProviderAdmin(request);
    const macs = Math.floor(Math.random() * 0xffff)
      .toString(16)
      .padStart(4, '0')
      .toUpperCase();
    for (const [index, [name, email]] of made.entries())
      await admin.solo(
        name,
        `${email}.sort.${tag}@example.test`,
        `AC:00:${macs.slice(0, 2)}:${macs.slice(2)}:00:0${index}`,
      );
    const ascending = ['ada Lovett', 'Ben Achebe', 'Carla Byrne', 'delia Moss'];

    await signInByToken(page, USERS.admin.email);
    await page.goto(ACCOUNTS);
    const table = accountsTable(page);
    const fullName = table.getByRole('columnheader', { name: /Full name/ });
    await expect(table.locator('tbody tr')).toHaveCount(10);
    await expect(fullName).toHaveAttribute('aria-sort', 'ascending');
    await search(page, tag);
    await expect.poll(() => columnTexts(table, 'Full name')).toEqual(ascending);
    await table.getByRole('button', { name: 'Full name' }).click();
    await expect(fullName).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(() => columnTexts(table, 'Full name')).toEqual([...ascending].reverse());
    await table.getByRole('button', { name: 'Full name' }).click();
    await expect(fullName).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(() => columnTexts(table, 'Full name')).toEqual(ascending);

    // Every account, ten a page, in that order across the pages too.
    await search(page, '');
    await expect(page.getByText(/Showing 1–10 of \d+/)).toBeVisible();
    await expect(table.locator('tbody tr')).toHaveCount(10);
    const firstPage = await columnTexts(table, 'Full name');
    const firstKeys = await columnTexts(table, 'Key');
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(page.getByText(/Showing 11–20 of \d+/)).toBeVisible();
    // The second page's rows shown (keys are unique; names may repeat, or be missing: "-").
    await expect.poll(() => columnTexts(table, 'Key')).not.toEqual(firstKeys);
    const secondPage = await columnTexts(table, 'Full name');
    expect(secondPage.length).toBeGreaterThan(0);
    const lower = (name: string) => name.toLowerCase();
    expect(lower(firstPage.at(-1)!) <= lower(secondPage[0]!), `${firstPage.at(-1)} before ${secondPage[0]}`).toBe(true);
  });
});
