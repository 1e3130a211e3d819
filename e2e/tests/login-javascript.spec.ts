import { gzipSync } from 'node:zlib';
import type { Page, Response } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_PASSWORD, USERS } from './support';

/**
 * The login page's JavaScript budget (docs/performance.md, the console's initial JavaScript): what
 * a browser asking for gzip receives to show /login, as bench/bundle-size.mjs counts it.
 */
const LOGIN_BUDGET_BYTES = 180 * 1024;

/** Every script the page receives while `action` runs, at its size on the wire (gzip when sent so). */
async function scriptBytes(page: Page, action: () => Promise<unknown>): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const pending: Promise<void>[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const length = await response.headerValue('content-length');
        // Without a length (a chunked answer) the script counts at its gzip size.
        const bytes = length === null ? gzipSync(await response.body()).length : Number(length);
        sizes.set(new URL(response.url()).pathname, bytes);
      })(),
    );
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  await Promise.all(pending);
  return sizes;
}

test.describe('the login page JavaScript', () => {
  test('stays within its budget, the signed-in shell left out', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'accept-encoding': 'gzip' } });
    const page = await context.newPage();
    const sizes = await scriptBytes(page, async () => {
      await page.goto('/login');
      await expect(page.getByLabel('Email')).toBeVisible();
    });
    const total = [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0);
    const listing = [...sizes].map(([url, bytes]) => `${url} ${(bytes / 1024).toFixed(1)} kB`).join('\n');
    expect(total, `the login page's scripts:\n${listing}`).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
    expect([...sizes.keys()].some((url) => url.includes('dashboard-layout'))).toBe(false);
    await context.close();
  });

  test('fetches the shell while the credentials are typed, before Login is pressed', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByLabel('Email')).toBeVisible();
    const shell = page.waitForResponse((response) => response.url().includes('/dashboard-layout-'));
    await page.getByLabel('Email').fill(USERS.admin.email);
    expect((await shell).ok()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/dashboard\//);
  });
});
