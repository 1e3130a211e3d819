import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn, USERS } from './support';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

test.describe('shell', () => {
  test('shows the provider admin every group and the full name in the top bar', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    await expect(page.getByRole('banner')).toContainText(USERS.admin.name);
    for (const group of ['Workflow Management', 'License Management', 'User Management', 'Reports']) {
      await expect(nav(page).getByRole('button', { name: group })).toBeVisible();
    }
    for (const link of ['Companies', 'Accounts', 'Users', 'Roles', 'Schedules', 'Agent', 'Monitor']) {
      await expect(nav(page).getByRole('link', { name: link, exact: true })).toBeVisible();
    }
  });

  test('shows an employee only the links of their authorities', async ({ page }) => {
    await signIn(page, USERS.employee.email);
    await expect(nav(page).getByRole('link', { name: 'Workflows', exact: true })).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Data Entry', exact: true })).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Users', exact: true })).toHaveCount(0);
    await expect(nav(page).getByRole('link', { name: 'Companies', exact: true })).toHaveCount(0);
    await expect(nav(page).getByRole('button', { name: 'Reports' })).toHaveCount(0);
  });

  test('gives a company head a Licenses entry to their own company', async ({ page }) => {
    await signIn(page, USERS.companyHead.email);
    const licenses = nav(page).getByRole('link', { name: 'Licenses', exact: true });
    await expect(licenses).toBeVisible();
    await expect(licenses).toHaveAttribute('href', /\/dashboard\/license\/companies\/\d+$/);
    await expect(nav(page).getByRole('link', { name: 'Companies', exact: true })).toHaveCount(0);
  });

  test('highlights the active link and collapses a group', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    await nav(page).getByRole('link', { name: 'Roles', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/management\/roles$/);
    await expect(nav(page).getByRole('link', { name: 'Roles', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(nav(page).getByRole('link', { name: 'Users', exact: true })).not.toHaveAttribute(
      'aria-current',
      'page',
    );

    const group = nav(page).getByRole('button', { name: 'License Management' });
    await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'false');
    await expect(nav(page).getByRole('link', { name: 'Companies', exact: true })).toBeHidden();
    await group.click();
    await expect(nav(page).getByRole('link', { name: 'Companies', exact: true })).toBeVisible();
  });

  test('toggles the sidebar from the top bar', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    await expect(nav(page)).toBeVisible();
    await toggle.click();
    await expect(nav(page)).toBeHidden();
    await toggle.click();
    await expect(nav(page)).toBeVisible();
  });

  test('keeps a breadcrumb trail of the pages visited', async ({ page }) => {
    await signIn(page, USERS.admin.email);
    // The dashboard's landing page first: a click made while it still redirects would be replaced.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const [link, path] of [
      ['Users', /\/management\/users$/],
      ['Departments', /\/management\/departments$/],
      ['Roles', /\/management\/roles$/],
    ] as const) {
      await nav(page).getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(path);
    }
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(trail).toContainText('Users');
    await expect(trail).toContainText('Departments');
    await expect(trail).toContainText('Roles');
    await trail.getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/dashboard\/management\/users$/);
  });
});
