import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { DEMO_PASSWORD, signIn, USERS } from './support';

const APP_KEY = { 'X-App-Key': 'opsdeck-console' };

/** A signed-in user's API headers. */
async function apiAs(request: APIRequestContext, email: string) {
  const login = await request.post('/api/login', {
    headers: APP_KEY,
    data: { username: email, password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
  return { ...APP_KEY, 'X-Auth-Token': ((await login.json()) as { token: string }).token };
}

/** Deletes the company's seats-nearly-full rules (one left by an earlier attempt of this test). */
async function deleteSeatRules(request: APIRequestContext, headers: Record<string, string>) {
  const listed = await request.get('/api/alert-rule', { headers });
  expect(listed.status(), await listed.text()).toBe(200);
  for (const rule of (await listed.json()) as { id: number; kind: string }[]) {
    if (rule.kind !== 'seats_nearly_full') continue;
    const removed = await request.delete(`/api/alert-rule/${rule.id}`, { headers });
    expect(removed.status(), await removed.text()).toBe(200);
  }
}

/** The bell in the top bar: named "Notifications" or "Notifications, 3 unread". */
const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

/** The unread count the bell tells, read from its accessible name. */
async function unreadOf(bell: Locator): Promise<number> {
  const name = (await bell.getAttribute('aria-label')) ?? '';
  const match = name.match(/(\d+) unread/);
  return match ? Number(match[1]) : 0;
}

/**
 * Alerts and the notification centre (docs/alerts.md) as the demo company head: a rule that holds
 * at once (any licence with a key uses 1 % of its seats) made on the alerts page; the server checks
 * the rules every second here (ALERT_CHECK_MS, tests/server.ts) and the bell counts the
 * notification live, without a reload; the notification is listed, followed (and so read), and the
 * alert is among the open ones; the rule is deleted.
 */
test('a rule raising an alert: the bell counts it live, it is read, listed open, and the rule deleted', async ({
  page,
  request,
}) => {
  const head = await apiAs(request, USERS.companyHead.email);
  await deleteSeatRules(request, head);
  try {
    await signIn(page, USERS.companyHead.email);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Alerts' }).click();
    await expect(page).toHaveURL(/\/dashboard\/management\/alerts$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
    const bell = bellOf(page);
    await expect(bell).toBeVisible();
    await expectAccessible(page, 'Alerts');
    const before = await unreadOf(bell);

    // The form: the kind first, then its own parameters; the console channel is chosen already.
    await page.getByRole('button', { name: 'Add alert rule' }).click();
    const form = page.getByRole('dialog', { name: 'Add alert rule' });
    await form.getByRole('combobox', { name: 'What the rule watches' }).click();
    await page.getByRole('option', { name: 'Agent offline' }).click();
    await expect(form.getByRole('textbox', { name: /^Offline for more than/ })).toHaveValue('15');
    await expect(form.getByRole('combobox', { name: /^Time zone/ })).toBeVisible();
    await form.getByRole('combobox', { name: 'What the rule watches' }).click();
    await page.getByRole('option', { name: 'Seats nearly full' }).click();
    await expect(form.getByRole('textbox', { name: /^Offline for more than/ })).toHaveCount(0);
    const percent = form.getByRole('textbox', { name: /^Seats in use/ });
    await percent.fill('1');
    await expect(form.getByRole('checkbox', { name: /^Console/ })).toBeChecked();
    await expectAccessible(page, 'Alerts: add rule', '.mantine-Modal-content');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(form).toHaveCount(0);

    const row = page
      .getByRole('table', { name: 'Alert rules' })
      .getByRole('row')
      .filter({ hasText: 'A license’s keys use 1 % or more of its seats' });
    await expect(row).toContainText('Seats nearly full');
    await expect(row).toContainText('Console');

    // Raised at the next check and told on the live channel: the count goes up with no reload.
    await expect.poll(() => unreadOf(bell), { timeout: 15_000 }).toBeGreaterThan(before);
    // One notification per licence, told one after another: the count is read once they are all in.
    await page.waitForTimeout(2_500);
    const raised = await unreadOf(bell);

    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const entry = panel
      .getByRole('list', { name: 'Newest notifications' })
      .getByRole('listitem')
      .filter({ hasText: 'Licence seats nearly full' })
      .first();
    await expect(entry).toHaveAttribute('data-unread', 'true');
    await expect(entry).toHaveAttribute('data-open', 'true');
    await expect(entry).toContainText('Open');
    await expect(entry).toContainText(/uses \d+ of its \d+ seats/);
    // The body, after the title ("Licence seats nearly full"): "Licence <label> uses 8 of its 25 seats".
    const subject = ((await entry.textContent()) ?? '').match(/.*(Licence .+? uses \d+ of its \d+ seats)/)?.[1];
    expect(subject).toBeTruthy();
    await expectAccessible(page, 'Notifications', '.mantine-Popover-dropdown');

    // Followed: read (one fewer unread) and at its link.
    await entry.getByRole('link').click();
    await expect(panel).toHaveCount(0);
    await expect.poll(() => unreadOf(bell)).toBe(raised - 1);
    await expect(page).toHaveURL(/\/dashboard\/license/);

    // Among the company's open alerts.
    await bell.click();
    await panel.getByRole('tab', { name: 'Open alerts' }).click();
    const open = panel.getByRole('list', { name: 'Open alerts' });
    await expect(open.getByRole('listitem').filter({ hasText: subject ?? '' })).toHaveCount(1);
    await expect(open).toContainText('Seats nearly full');
    await expectAccessible(page, 'Notifications: open alerts', '.mantine-Popover-dropdown');

    // The e-mail preferences: a switch per kind.
    await panel.getByRole('button', { name: 'E-mail preferences' }).click();
    const preferences = page.getByRole('dialog', { name: 'E-mail preferences' });
    await expect(preferences.getByRole('switch', { name: 'Seats nearly full' })).toBeChecked();
    await expectAccessible(page, 'E-mail preferences', '.mantine-Modal-content');
    await preferences.getByRole('button', { name: 'Cancel' }).click();
    await expect(preferences).toHaveCount(0);

    // The rule deleted.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Alerts' }).click();
    await row.getByRole('button', { name: /^Delete Seats nearly full/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete alert rule' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(row).toHaveCount(0);
  } finally {
    await deleteSeatRules(request, head);
  }
});
