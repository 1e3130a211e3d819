import { expect, test } from './fixtures';
import { signIn, USERS } from './support';

/**
 * A personal API token (docs/security.md, API tokens), from the user menu: made with a scope,
 * shown once, used by a script (here the test's own request) with `Authorization: Bearer` and the
 * app key, listed with its last use, revoked, and refused from then on.
 */
test('creating a token, seeing it once, calling the API with it and revoking it', async ({ page }) => {
  await signIn(page, USERS.companyHead.email);
  await page.getByRole('button', { name: new RegExp(USERS.companyHead.name) }).click();
  await page.getByRole('menuitem', { name: 'API Tokens' }).click();
  await expect(page).toHaveURL(/\/dashboard\/profile\/tokens$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API Tokens' })).toBeVisible();

  await page.getByRole('button', { name: 'Create token' }).click();
  const form = page.getByRole('dialog', { name: 'Create API token' });
  await form.getByLabel('Name').fill('E2E script');
  // Only the user's own authorities are offered; ADMIN_ACCESS_LEVEL is not one of a company head's.
  await expect(form.getByRole('checkbox', { name: 'Admin access level' })).toHaveCount(0);
  await form.getByRole('checkbox', { name: 'View task', exact: true }).check();
  await form.getByRole('button', { name: 'Create', exact: true }).click();

  const shown = page.getByRole('dialog', { name: 'Your new API token' });
  await expect(shown).toBeVisible();
  await expect(shown.getByText(/shown only this once/)).toBeVisible();
  const token = await shown.getByRole('textbox', { name: 'Token E2E script' }).inputValue();
  expect(token).toMatch(/^odt_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);

  const table = page.getByRole('table', { name: 'API tokens' });
  const row = table.getByRole('row').filter({ hasText: 'E2E script' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Never');
  // The token is nowhere on the page any more.
  await expect(page.getByText(token)).toHaveCount(0);

  const bearer = { 'X-App-Key': 'opsdeck-console', Authorization: `Bearer ${token}` };
  const tasks = await page.request.get('/api/task', { headers: bearer });
  expect(tasks.status()).toBe(200);
  // Its scope is View task only: the user's other authorities are not the token's.
  expect((await page.request.get('/api/department', { headers: bearer })).status()).toBe(403);
  // And no token manages tokens.
  expect((await page.request.get('/api/token', { headers: bearer })).status()).toBe(403);

  await page.reload();
  await expect(row).toContainText(/from .*127\.0\.0\.1/);

  await row.getByRole('button', { name: 'Revoke E2E script' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
  await expect(confirm).toContainText('Anything using it stops working at once');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row).toHaveCount(0);

  const refused = await page.request.get('/api/task', { headers: bearer });
  expect(refused.status()).toBe(401);
});
