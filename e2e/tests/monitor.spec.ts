import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WIDGET_KEYS, type WidgetKey } from '@opsdeck/contract/monitor';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { DEMO_PASSWORD, signIn, USERS } from './support';

/**
 * The monitor dashboard's frame (spec section 2; docs/monitor.md, "The console page") on the whole
 * stack, as the demo's company head: the default six, the filters in the URL, the layout changed by
 * mouse, keyboard and settings and saved, and axe over the page and its two modals; every widget
 * drawn from the demo's activity (or saying what would fill it) and the same for a range with none.
 */

const MONITOR = '/dashboard/report/monitor';
const APP_KEY = { 'X-App-Key': 'opsdeck-console' };
const SAVE = /\/api\/user\/updateVisibleWidgets\/\d+$/;

test.describe.configure({ mode: 'serial', timeout: 60_000 });

/** The company head's own layout through the API: `key@column` in order. */
async function setLayout(request: APIRequestContext, layout: readonly string[]) {
  const login = await request.post('/api/login', {
    headers: APP_KEY,
    data: { username: USERS.companyHead.email, password: DEMO_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { ...APP_KEY, 'X-Auth-Token': token };
  const profile = (await (await request.get('/api/user/profile/current-user', { headers })).json()) as { id: number };
  const currentVisibleWidgets = layout.map((entry, index) => {
    const [widgetKey, column] = entry.split('@');
    return { widgetKey, widgetOrder: index + 1, widgetColumnNumber: Number(column) };
  });
  const response = await request.post(`/api/user/updateVisibleWidgets/${profile.id}`, {
    headers,
    data: { toAdd: [], currentVisibleWidgets },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Each widget's empty message, as the console's locale file words it. */
const EMPTY_TEXT = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '../../apps/web/src/locales/en/monitor.json'), 'utf8')) as {
    widget: { empty: Record<WidgetKey, string> };
  }
).widget.empty;

const column = (page: Page, number: 1 | 2) => page.getByRole('list', { name: `Column ${number}` });
const titles = (list: Locator) => list.getByRole('heading', { level: 3 }).allTextContents();
const saved = (page: Page) =>
  page.waitForResponse((response) => SAVE.test(response.url()) && response.request().method() === 'POST');

async function openMonitor(page: Page, query = '') {
  await page.goto(`${MONITOR}${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Monitor Dashboard' })).toBeVisible();
  await expect(column(page, 1)).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signIn(page, USERS.companyHead.email);
});

test('a user who never chose sees the default six', async ({ page }) => {
  await openMonitor(page);
  // The spec's redirect: no dates in the URL means today's.
  await expect(page).toHaveURL(/dateFrom=\d+&dateTo=\d+/);
  const url = new URL(page.url());
  const today = await page.evaluate(() => {
    const now = new Date();
    const first = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
    const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
    return { from: String(first), to: String(next - 1) };
  });
  expect({ from: url.searchParams.get('dateFrom'), to: url.searchParams.get('dateTo') }).toEqual(today);
  await expect.poll(() => titles(column(page, 1))).toEqual(['Active Users', 'Hourly Activity', 'Top Statuses']);
  expect(await titles(column(page, 2))).toEqual(['Top Applications', 'Employee Login Hours', 'Alerts']);
  await expect(page.locator('[data-widget-body="top_statuses"]')).toHaveAttribute(
    'data-widget-state',
    /^(data|empty)$/,
  );
});

test('filters are kept in the URL across a reload', async ({ page }) => {
  await openMonitor(page);
  await page.getByRole('button', { name: 'Filters' }).click();
  const dialog = page.getByRole('dialog', { name: 'Filter the dashboard' });
  await dialog.getByRole('combobox', { name: 'Person' }).click();
  await page.getByRole('option', { name: USERS.employee.name }).click();
  await dialog.getByRole('combobox', { name: 'Department' }).click();
  await page.getByRole('option', { name: 'All departments' }).click();
  // A day typed as shown (MM/DD/YYYY).
  await dialog.getByRole('textbox', { name: 'From' }).fill('01/05/2026');
  await dialog.getByRole('textbox', { name: 'From' }).press('Tab');
  await dialog.getByRole('textbox', { name: 'To' }).fill('01/20/2026');
  await dialog.getByRole('textbox', { name: 'To' }).press('Tab');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toHaveCount(0);
  const range = await page.evaluate(() => ({
    from: new Date(2026, 0, 5).getTime(),
    to: new Date(2026, 0, 21).getTime() - 1,
  }));
  await expect(page).toHaveURL(new RegExp(`\\?user=\\d+&dateFrom=${range.from}&dateTo=${range.to}$`));

  await page.reload();
  const active = page.getByRole('list', { name: 'Active filters' });
  await expect(active.getByText(`Person: ${USERS.employee.name}`)).toBeVisible();
  await expect(active.getByText('Department: All departments')).toBeVisible();
  await expect(active.getByText('Role: All roles')).toBeVisible();
  await expect(active.getByText('Dates: 01/05/2026 – 01/20/2026')).toBeVisible();
});

test('a drag by mouse is saved and still there after a reload', async ({ page, request }) => {
  await setLayout(request, ['active_users@1', 'hourly_activity@1', 'top_applications@2', 'alerts@2']);
  await openMonitor(page);
  await expect.poll(() => titles(column(page, 2))).toEqual(['Top Applications', 'Alerts']);

  const handle = page.getByRole('button', { name: 'Move Alerts' });
  const target = page.getByRole('region', { name: 'Active Users' });
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  const save = saved(page);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 - 20, from.y + from.height / 2, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + 10, { steps: 20 });
  await page.mouse.move(to.x + to.width / 2, to.y + 5, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => titles(column(page, 1))).toEqual(['Alerts', 'Active Users', 'Hourly Activity']);
  expect((await save).status()).toBe(200);

  await page.reload();
  await expect.poll(() => titles(column(page, 1))).toEqual(['Alerts', 'Active Users', 'Hourly Activity']);
  expect(await titles(column(page, 2))).toEqual(['Top Applications']);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a drag by touch (a press held, then moved) is saved and still there after a reload', async ({
    page,
    request,
  }) => {
    await setLayout(request, ['active_users@1', 'alerts@2']);
    await openMonitor(page);
    await expect.poll(() => titles(column(page, 2))).toEqual(['Alerts']);

    // One column on a phone: Alerts below Active Users. Touch events as a finger makes them
    // (Chromium's input layer through CDP): pressed, held past the sensor's 200 ms, moved, lifted.
    const handle = page.getByRole('button', { name: 'Move Alerts' });
    await handle.scrollIntoViewIfNeeded();
    const target = page.getByRole('region', { name: 'Active Users' });
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const x = from.x + from.width / 2;
    const y = from.y + from.height / 2;
    const save = saved(page);
    await touch('touchStart', x, y);
    // Held until the sensor's delay has passed and the drag has begun (dnd-kit presses the handle).
    await expect(handle).toHaveAttribute('aria-pressed', 'true');
    const steps = 20;
    for (let step = 1; step <= steps; step += 1) {
      await touch('touchMove', x, y + ((to.y + 10 - y) * step) / steps);
      // One move a frame, as a finger's.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    }
    await touch('touchEnd', x, to.y + 10);
    await expect.poll(() => titles(column(page, 1))).toEqual(['Alerts', 'Active Users']);
    expect((await save).status()).toBe(200);

    await page.reload();
    await expect.poll(() => titles(column(page, 1))).toEqual(['Alerts', 'Active Users']);
    expect(await titles(column(page, 2))).toEqual([]);
  });
});

test('a move by keyboard is saved and still there after a reload', async ({ page, request }) => {
  await setLayout(request, ['active_users@1', 'top_applications@2', 'hourly_activity@1', 'top_statuses@1']);
  await openMonitor(page);
  await expect.poll(() => titles(column(page, 1))).toEqual(['Active Users', 'Hourly Activity', 'Top Statuses']);

  const save = saved(page);
  const handle = page.getByRole('button', { name: 'Move Top Statuses' });
  await handle.focus();
  // At a person's pace: each key waits for the move before it to be announced.
  const announced = (text: string) => expect(page.getByText(text, { exact: true })).toBeAttached();
  await page.keyboard.press('Space');
  await announced('Top Statuses would go to column 1, place 3.');
  await page.keyboard.press('ArrowUp');
  await announced('Top Statuses would go to column 1, place 2.');
  await page.keyboard.press('ArrowUp');
  await announced('Top Statuses would go to column 1, place 1.');
  await page.keyboard.press('Space');
  await announced('Top Statuses dropped in column 1, place 1.');
  await expect.poll(() => titles(column(page, 1))).toEqual(['Top Statuses', 'Active Users', 'Hourly Activity']);
  expect((await save).status()).toBe(200);

  await page.reload();
  await expect.poll(() => titles(column(page, 1))).toEqual(['Top Statuses', 'Active Users', 'Hourly Activity']);
});

test('Dashboard Settings turns a widget on and off, and the close button hides one', async ({ page, request }) => {
  await setLayout(request, ['active_users@1', 'alerts@2']);
  await openMonitor(page);
  await page.getByRole('button', { name: 'Dashboard Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Dashboard Settings' });
  await expect(dialog.getByRole('switch')).toHaveCount(16);

  const topTasks = dialog.getByRole('switch', { name: 'Top Tasks' });
  await expect(topTasks).not.toBeChecked();
  let save = saved(page);
  await topTasks.click({ force: true });
  await expect(topTasks).toBeChecked();
  expect((await save).status()).toBe(200);
  await page.keyboard.press('Escape');
  await expect.poll(() => titles(column(page, 1))).toEqual(['Active Users', 'Top Tasks']);
  await page.reload();
  await expect.poll(() => titles(column(page, 1))).toEqual(['Active Users', 'Top Tasks']);

  await page.getByRole('button', { name: 'Dashboard Settings' }).click();
  save = saved(page);
  await dialog.getByRole('switch', { name: 'Top Tasks' }).click({ force: true });
  expect((await save).status()).toBe(200);
  await page.keyboard.press('Escape');
  save = saved(page);
  await page.getByRole('button', { name: 'Hide Alerts' }).click();
  expect((await save).status()).toBe(200);
  await page.reload();
  await expect.poll(() => titles(column(page, 1))).toEqual(['Active Users']);
  expect(await titles(column(page, 2))).toEqual([]);
});

test('the page and its two modals are accessible', async ({ page, request }) => {
  await setLayout(request, ['active_users@1', 'hourly_activity@1', 'top_applications@2', 'alerts@2']);
  await openMonitor(page);
  await expect(page.getByRole('region', { name: 'Alerts' })).toBeVisible();
  await expectAccessible(page, 'Monitor Dashboard');
  for (const [button, name] of [
    ['Filters', 'Filter the dashboard'],
    ['Dashboard Settings', 'Dashboard Settings'],
  ] as const) {
    await page.getByRole('button', { name: button }).click();
    const dialog = page.getByRole('dialog', { name });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, `Monitor Dashboard: ${name}`, '.mantine-Modal-content');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
});

test('every widget shows its data or says what would fill it, a range without activity says it for each, and both are accessible', async ({
  page,
  request,
}) => {
  // Sixteen widgets read twice and two whole-page axe scans: past a minute on two busy cores.
  test.slow();
  await setLayout(
    request,
    WIDGET_KEYS.map((key, index) => `${key}@${(index % 2) + 1}`),
  );
  await openMonitor(page);
  await expect(page.locator('section[data-widget]')).toHaveCount(16);
  for (const key of WIDGET_KEYS) {
    const body = page.locator(`[data-widget-body="${key}"]`);
    // Data or its empty message, never an error, whatever activity the demo has today.
    await expect(body, key).toHaveAttribute('data-widget-state', /^(data|empty)$/);
    if ((await body.getAttribute('data-widget-state')) === 'empty') {
      await expect(body.getByText(EMPTY_TEXT[key]), key).toBeVisible();
    }
  }
  await expectAccessible(page, 'Monitor Dashboard with every widget');

  // A day long before the demo's activity, in the browser's zone.
  const past = await page.evaluate(() => ({
    from: new Date(2020, 0, 1).getTime(),
    to: new Date(2020, 0, 2).getTime() - 1,
  }));
  await openMonitor(page, `?dateFrom=${past.from}&dateTo=${past.to}`);
  for (const key of WIDGET_KEYS) {
    await expect(page.locator(`[data-widget-body="${key}"]`).getByText(EMPTY_TEXT[key]), key).toBeVisible();
  }
  await expectAccessible(page, 'Monitor Dashboard with every widget empty');
});
