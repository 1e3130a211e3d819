import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

/**
 * CSV export of the tables (docs/csv-export.md): the shared Download CSV button fetches the
 * table's list call with `format=csv` through the API client and saves the server's file.
 */

/** RFC 4180 records (quoted fields with doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  return records;
}

async function downloadCsv(page: Page) {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  return { name: download.suggestedFilename(), records: parseCsv(await readFile((await download.path())!, 'utf8')) };
}

test('the users table downloads the rows of its search as CSV', async ({ page }) => {
  await signInByToken(page, USERS.companyHead.email);
  await page.goto('/dashboard/management/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByRole('search').getByLabel('Search').fill('Maria');
  await expect(
    page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: 'Maria Santos' }),
  ).toBeVisible();
  await expectAccessible(page, 'users with the Download CSV button');

  const { name, records } = await downloadCsv(page);
  expect(name).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(records[0]).toEqual(['fullName', 'department', 'role', 'company', 'email']);
  expect(records.slice(1)).toContainEqual(expect.arrayContaining(['Maria Santos', USERS.companyHead.email]));
  for (const row of records.slice(1)) expect(row.join(' ').toLowerCase()).toContain('maria');
});

test('the departments table downloads its whole list as CSV', async ({ page }) => {
  await signInByToken(page, USERS.companyHead.email);
  await page.goto('/dashboard/management/departments');
  await expect(page.getByRole('heading', { level: 1, name: 'Departments' })).toBeVisible();
  const shown = await page.getByRole('table', { name: 'Departments' }).getByRole('row').count();

  const { name, records } = await downloadCsv(page);
  expect(name).toMatch(/^departments-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(records[0]).toEqual(['name', 'head', 'parent', 'company']);
  expect(records.length).toBeGreaterThan(1);
  expect(shown).toBeGreaterThan(1);
  for (const row of records.slice(1)) expect(row[3]).toBe(USERS.companyHead.company);
});
