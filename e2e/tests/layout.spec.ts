import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn, signInByToken, USERS } from './support';

// The machine is shared: a reload that loads the console again may take a while. Each test signs
// in on a page of its own and changes nothing, so they go to whichever workers are free.
test.describe.configure({ mode: 'parallel', timeout: 90_000 });

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

/** The list pages of the User Management area, with their create button and their table (roles has none). */
const LISTS = [
  { path: '/dashboard/management/users', create: 'Create user', table: 'Users' },
  { path: '/dashboard/management/departments', create: 'Create department', table: 'Departments' },
  { path: '/dashboard/management/statuses', create: 'Create status', table: 'Statuses' },
  { path: '/dashboard/management/tasks', create: 'Create task', table: 'Tasks' },
  { path: '/dashboard/management/roles', create: 'Create role', table: null },
] as const;

/**
 * Scrolls `target` to the bottom edge of the window, where a floating button used to sit, and
 * asserts nothing else is drawn over its centre: a click there reaches it.
 */
async function expectUncovered(target: Locator) {
  // Polled: a scroll may still be moving the page (or a row settling) when the point is first read;
  // a button that is covered stays covered, and the poll then fails.
  await expect
    .poll(
      () =>
        target.evaluate((element) => {
          element.scrollIntoView({ block: 'end', behavior: 'instant' });
          const box = element.getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return top !== null && (element === top || element.contains(top));
        }),
      { message: 'nothing covers it' },
    )
    .toBe(true);
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 800, height: 900 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    for (const list of LISTS) {
      test(`${list.create}: the button covers no row action and no page link`, async ({ page }) => {
        await signInByToken(page, USERS.admin.email);
        await page.goto(list.path);
        await expect(page.getByRole('button', { name: list.create })).toBeVisible();
        if (!list.table) {
          // Roles: the last role's actions.
          const last = page.getByTestId('role-item').last();
          await expectUncovered(last.getByRole('button', { name: /^Delete / }));
          return;
        }
        const table = page.getByRole('table', { name: list.table });
        await expect(table).toHaveAttribute('aria-busy', 'false');
        const action = table.getByRole('row').last().getByRole('button').last();
        if ((await action.count()) > 0) await expectUncovered(action);
        const next = page.getByRole('button', { name: 'Next page' });
        if ((await next.count()) > 0) {
          await expectUncovered(next);
          await next.click();
          await expect(page).toHaveURL(/[?&]page=2/);
          await expect(page.getByRole('dialog')).toHaveCount(0);
        }
      });
    }
  });
}

test.describe('at 800 px', () => {
  test.use({ viewport: { width: 800, height: 900 } });

  test('the sidebar is a drawer opened from the top bar, closed by a link or Escape', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await expect(nav(page)).toBeHidden();
    // The table has the whole width: its left edge is near the window's.
    const box = await page.getByRole('table', { name: 'Users' }).boundingBox();
    expect(box?.x ?? 999).toBeLessThan(80);

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(nav(page)).toBeVisible();
    await nav(page).getByRole('link', { name: 'Departments', exact: true }).click();
    await expect(page).toHaveURL(/\/departments$/);
    await expect(nav(page)).toBeHidden();

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(nav(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav(page)).toBeHidden();
  });

  test('role badges keep their words', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/roles');
    const badge = page.getByTestId('role-item').first().getByText('Built-in', { exact: true });
    await expect(badge).toBeVisible();
    const cut = await badge.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
    expect(cut).toBe(false);
  });
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the page fits the width and the table scrolls inside its card', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/users');
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The row's name and its actions stay; the lower-priority columns give way.
    const headers = page.getByRole('table', { name: 'Users' }).getByRole('columnheader');
    await expect(headers.filter({ hasText: 'Full name' })).toBeVisible();
    await expect(headers.filter({ hasText: 'Actions' })).toBeVisible();
    await expect(headers.filter({ hasText: 'Company' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create user' })).toBeVisible();
  });

  test('the audit log and a record of it fit the width', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/audit');
    const table = page.getByRole('table', { name: 'Audit log' });
    // Loaded and settled: a click on a row the table is still replacing opens nothing.
    await expect(table).toHaveAttribute('aria-busy', 'false');
    const first = table.getByRole('row').nth(1);
    await expect(first).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await first.click();
    const view = page.getByRole('dialog');
    await expect(view).toBeVisible();
    const box = (await view.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
  });

  for (const { path, table, create } of [
    { path: '/dashboard/management/webhooks', table: 'Webhook endpoints', create: 'Add endpoint' },
    { path: '/dashboard/management/alerts', table: 'Alert rules', create: 'Add alert rule' },
  ]) {
    test(`${table}: the page fits the width, and so does its form`, async ({ page }) => {
      await signInByToken(page, USERS.companyHead.email);
      await page.goto(path);
      await expect(page.getByRole('table', { name: table })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      await page.getByRole('button', { name: create }).click();
      const form = page.getByRole('dialog');
      await expect(form).toBeVisible();
      const box = (await form.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    });
  }

  test('the API tokens page fits the width with its create button', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/profile/tokens');
    await expect(page.getByRole('table', { name: 'API tokens' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expect(page.getByRole('button', { name: /create token/i })).toBeVisible();
  });
});

test.describe('keyboard', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the skip link is the first Tab stop, and Create is a few Tabs after it', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/users');
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    let tabs = 0;
    const create = page.getByRole('button', { name: 'Create user' });
    while (tabs < 10 && !(await create.evaluate((element) => element === document.activeElement))) {
      await page.keyboard.press('Tab');
      tabs += 1;
    }
    expect(tabs).toBeLessThanOrEqual(5);
  });

  test("a sidebar link's focus ring is drawn inside the sidebar", async ({ page }) => {
    await signIn(page, USERS.admin.email);
    const link = nav(page).getByRole('link', { name: 'Users', exact: true });
    await link.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(link).toBeFocused();
    const ring = await link.evaluate((element) => {
      const style = getComputedStyle(element);
      return { offset: Number.parseFloat(style.outlineOffset), width: Number.parseFloat(style.outlineWidth) };
    });
    expect(ring.width).toBeGreaterThan(0);
    expect(ring.offset + ring.width).toBeLessThanOrEqual(0);
  });

  test('every create dialog opens on its first field, and typing a space does not close it', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    for (const list of LISTS) {
      await page.goto(list.path);
      await page.getByRole('button', { name: list.create }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      const focused = dialog.locator(':focus');
      await expect(focused).toHaveCount(1);
      // The first field, or the form itself when that field is a searchable picker (its list would
      // open over the form on focus: see markFirstField); never the close button.
      expect(await focused.evaluate((element) => element.tagName)).toMatch(/^(INPUT|TEXTAREA|FORM)$/);
      await page.keyboard.press('Space');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    }
  });

  test('the schedules dialog opens on itself, not its close button, when its first field is a searchable picker', async ({
    page,
  }) => {
    await signInByToken(page, USERS.companyHead.email);
    await page.goto('/dashboard/management/schedules');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create schedules' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close' })).not.toBeFocused();
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await page.keyboard.press('Space');
    await expect(dialog).toBeVisible();
  });

  test('the account menu opens from the keyboard with the name, company, e-mail and Logout', async ({ page }) => {
    await signIn(page, USERS.companyHead.email);
    const account = page.getByRole('banner').getByRole('button', { name: new RegExp(USERS.companyHead.name) });
    await account.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu).toContainText(USERS.companyHead.name);
    await expect(menu).toContainText(USERS.companyHead.company);
    await expect(menu).toContainText(USERS.companyHead.email);
    await expect(menu.getByRole('menuitem', { name: 'API documentation' })).toHaveAttribute('href', '/api/docs');
    await menu.getByRole('menuitem', { name: 'Logout' }).press('Enter');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('sorting and memory', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a click anywhere in a header cell sorts, and the header says how', async ({ page }) => {
    await signInByToken(page, USERS.admin.email);
    await page.goto('/dashboard/management/departments');
    const header = page.getByRole('table', { name: 'Departments' }).getByRole('columnheader', { name: 'Head' });
    await expect(header).toHaveAttribute('aria-sort', 'none');
    const box = await header.boundingBox();
    if (!box) throw new Error('no header box');
    // The cell's bottom-right corner, away from its label.
    await page.mouse.click(box.x + box.width - 4, box.y + box.height - 4);
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
  });

  test('the sidebar remembers its closed groups and whether it is shown', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    const group = nav(page).getByRole('button', { name: 'License Management' });
    await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'false');
    await page.reload();
    await expect(nav(page).getByRole('button', { name: 'License Management' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(nav(page)).toBeHidden();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Toggle sidebar' })).toBeVisible();
    await expect(nav(page)).toBeHidden();
  });
});
