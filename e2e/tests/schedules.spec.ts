import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const iso = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
/** 'MMM DD YYYY', the table's date format. */
const shown = (date: Date) =>
  `${MONTHS[date.getMonth()]} ${String(date.getDate()).padStart(2, '0')} ${date.getFullYear()}`;
const daysAhead = (days: number) => {
  const today = new Date();
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() + days);
};

const table = (page: Page) => page.getByRole('table', { name: 'Schedules' });
const bodyRows = (page: Page) => table(page).locator('tbody tr');

/** Picks a day in one of the search bar's Custom range pickers, paging months from where it opens. */
async function pickDay(page: Page, label: 'From' | 'To', date: Date) {
  await page.getByRole('button', { name: label, exact: true }).click();
  const dropdown = page.getByRole('dialog');
  const month = date.toLocaleString('en-US', { month: 'long' });
  const target = new Date(date.getFullYear(), date.getMonth(), 1).getTime();
  const level = dropdown.getByRole('button', { name: /^[A-Z][a-z]+ \d{4}$/ });
  for (let step = 0; step < 36; step += 1) {
    const shownMonth = Date.parse(`1 ${await level.textContent()}`);
    if (shownMonth === target) break;
    await dropdown
      .locator(`[data-direction="${shownMonth < target ? 'next' : 'previous'}"]`)
      .first()
      .click();
  }
  await dropdown.getByRole('button', { name: `${date.getDate()} ${month} ${date.getFullYear()}`, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(dropdown).toHaveCount(0);
}

async function customRange(page: Page, from: Date, to: Date) {
  await page.getByRole('combobox', { name: 'Date range' }).click();
  await page.getByRole('option', { name: 'Custom' }).click();
  // To first: From may not pass To, which starts as the end of today.
  await pickDay(page, 'To', to);
  await pickDay(page, 'From', from);
}

async function search(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(text);
}

async function pickUser(modal: Locator, page: Page, name: string) {
  const users = modal.getByRole('combobox', { name: 'Users' });
  await users.click();
  await users.fill(name.split(' ')[0]!);
  await page.getByRole('option', { name }).click();
}

async function openMode(page: Page, mode: 'Update' | 'Delete') {
  await page.getByRole('button', { name: 'Schedule settings' }).click();
  await page.getByRole('menuitem', { name: mode }).click();
}

/**
 * Creates Monday and Wednesday shifts for two users over one week `offset` days ahead, finds them
 * with the date and name filters, changes their times in update mode and deletes them.
 */
async function scheduleLifecycle(page: Page, options: { users: [string, string]; offset: number; company?: string }) {
  const [first, second] = options.users;
  const start = daysAhead(options.offset);
  const end = daysAhead(options.offset + 6);
  await page.goto('/dashboard/management/schedules');
  await expect(page.getByRole('heading', { level: 1, name: 'Schedules' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Date range' })).toHaveValue('Today');

  // Create: the form's own checks first.
  await page.getByRole('button', { name: 'Create schedule' }).click();
  const modal = page.getByRole('dialog', { name: 'Create schedules' });
  if (options.company) {
    await modal.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option', { name: options.company }).click();
  }
  // Submit stays disabled while a field shows its error (spec section 4).
  for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await modal.getByRole('checkbox', { name: day }).uncheck();
  await expect(modal.getByText('Select at least one weekday')).toBeVisible();
  await modal.getByLabel('Shift start').fill('');
  await modal.getByLabel('Shift start').blur();
  await expect(modal.getByText('Select shift start')).toBeVisible();
  await modal.getByRole('textbox', { name: 'Start date' }).focus();
  await modal.getByRole('textbox', { name: 'Start date' }).blur();
  await expect(modal.getByText('Select start date')).toBeVisible();
  await modal.getByRole('combobox', { name: 'Users' }).focus();
  await modal.getByRole('combobox', { name: 'Users' }).blur();
  await expect(modal.getByText('No users selected')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Create' })).toBeDisabled();

  await pickUser(modal, page, first);
  await pickUser(modal, page, second);
  await modal.getByRole('textbox', { name: 'Start date' }).fill(iso(end));
  await modal.getByRole('textbox', { name: 'End date' }).fill(iso(start));
  await modal.getByRole('textbox', { name: 'End date' }).blur();
  await modal.getByRole('checkbox', { name: 'Mon' }).check();
  await modal.getByRole('checkbox', { name: 'Wed' }).check();
  await modal.getByLabel('Shift start').fill('08:00');
  await modal.getByLabel('Shift end').fill('16:00');
  await expect(modal.getByText('Start date must not be after end date.')).toBeVisible();
  await modal.getByRole('textbox', { name: 'Start date' }).fill(iso(start));
  await modal.getByRole('textbox', { name: 'End date' }).fill(iso(end));
  await modal.getByRole('textbox', { name: 'End date' }).blur();
  await expect(modal.getByText('4 schedules will be created.')).toBeVisible();
  await modal.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Successfully added 4 schedules')).toBeVisible();
  await expect(modal).toBeHidden();

  // The date filter finds them; the name filter narrows to one user.
  await customRange(page, start, daysAhead(options.offset + 7));
  await search(page, first);
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(bodyRows(page).first()).toContainText(first);
  await expect(bodyRows(page).first()).toContainText('8:00 am – 4:00 pm');
  const monday = [0, 1, 2, 3, 4, 5, 6].map((plus) => daysAhead(options.offset + plus)).find((d) => d.getDay() === 1)!;
  await expect(table(page).getByRole('row', { name: new RegExp(shown(monday)) })).toHaveCount(1);
  await search(page, second.toUpperCase());
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(bodyRows(page).first()).toContainText(second);

  // Update mode: rows within 14 days have no checkbox; nothing chosen gives the warning.
  await search(page, '');
  await expect(bodyRows(page)).toHaveCount(4);
  await page.getByRole('combobox', { name: 'Date range' }).click();
  await page.getByRole('option', { name: 'This Week' }).click();
  await openMode(page, 'Update');
  // This week's demo shifts are all within 14 days: none can be chosen.
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(bodyRows(page).getByRole('checkbox')).toHaveCount(0);
  await expect(table(page).getByRole('checkbox', { name: 'Select all' })).toBeDisabled();
  await page.getByRole('button', { name: 'Update selected' }).click();
  await expect(page.getByText('Nothing is selected')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await customRange(page, start, daysAhead(options.offset + 7));
  await expect(bodyRows(page)).toHaveCount(4);
  await openMode(page, 'Update');
  await search(page, first);
  await expect(bodyRows(page)).toHaveCount(2);
  await table(page).getByRole('checkbox', { name: 'Select all' }).check();
  await page.getByRole('button', { name: 'Update selected' }).click();
  const update = page.getByRole('dialog', { name: 'Update schedules' });
  await expect(update).toContainText('New shift times for 2 schedules');
  await update.getByLabel('Shift start').fill('10:00');
  await update.getByLabel('Shift end').fill('18:30');
  await update.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Successfully updated 2 schedules')).toBeVisible();
  await expect(bodyRows(page).nth(0)).toContainText('10:00 am – 6:30 pm');
  await expect(bodyRows(page).nth(1)).toContainText('10:00 am – 6:30 pm');
  await expect(page.getByRole('button', { name: 'Update selected' })).toBeHidden();

  // Delete mode: the dialog lists both names and the range; the rows go.
  await search(page, '');
  await expect(bodyRows(page)).toHaveCount(4);
  await openMode(page, 'Delete');
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await expect(page.getByText('Nothing is selected')).toBeVisible();
  await table(page).getByRole('checkbox', { name: 'Select all' }).check();
  await expect(page.getByText('Nothing is selected')).toBeHidden();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  const remove = page.getByRole('dialog', { name: 'Delete schedules' });
  await expect(remove).toContainText('Delete 4 schedules of:');
  await expect(remove.getByRole('listitem')).toHaveText([first, second].sort());
  const wednesday = [0, 1, 2, 3, 4, 5, 6]
    .map((plus) => daysAhead(options.offset + plus))
    .find((d) => d.getDay() === 3)!;
  const [earliest, latest] = monday < wednesday ? [monday, wednesday] : [wednesday, monday];
  await expect(remove).toContainText(`Covering ${shown(earliest)} – ${shown(latest)}`);
  await remove.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Successfully deleted 4 schedules')).toBeVisible();
  await expect(table(page)).toContainText('No schedules found.');
}

test.describe('schedules', () => {
  test.describe.configure({ timeout: 90_000 });
  test('the company head creates, finds, updates and deletes schedules', async ({ page }) => {
    await signInByToken(page, USERS.companyHead.email);
    await scheduleLifecycle(page, { users: ['Mateo Rossi', 'Amara Okoye'], offset: 40 });
  });

  test('the provider admin does the same for a company it picks', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await scheduleLifecycle(page, {
      users: ['Hannah Becker', 'Lucas Moreau'],
      offset: 50,
      company: USERS.companyHead.company,
    });
  });

  test('delete mode offers only schedules that have not started', async ({ page }) => {
    await signInByToken(page, USERS.companyHead.email);
    await page.goto('/dashboard/management/schedules');
    await page.getByRole('combobox', { name: 'Date range' }).click();
    await page.getByRole('option', { name: 'All' }).click();
    await search(page, 'Grace Liu');
    await openMode(page, 'Delete');
    // Sorted by start: the first rows are last week's, without a checkbox.
    await expect(bodyRows(page).first()).toContainText('Grace Liu');
    await expect(bodyRows(page).first().getByRole('checkbox')).toHaveCount(0);
    await page.getByRole('button', { name: 'Date' }).click();
    await page.getByRole('button', { name: 'Date' }).click();
    await expect(bodyRows(page).first().getByRole('checkbox')).toHaveCount(1);
  });
});
