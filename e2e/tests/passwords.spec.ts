import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { signInByToken, USERS } from './support';

/** The password rule (docs/security.md, Passwords) in the user form, as a company head meets it. */
test.describe('a new password', () => {
  test('shows its strength while typed, refuses a common one under the field, and takes a strong one', async ({
    page,
  }) => {
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    const email = `e2e.password.${tag}@example.test`;
    await signInByToken(page, USERS.companyHead.email);
    await page.goto('/dashboard/management/users');
    await page.getByRole('button', { name: 'Create user' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('textbox', { name: 'First name' }).fill('Pat');
    await form.getByRole('textbox', { name: 'Last name' }).fill(`Strength${tag}`);
    await form.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await form.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Employee', exact: true }).click();
    await form.getByRole('combobox', { name: 'Department', exact: true }).click();
    await page.getByRole('option', { name: 'Dispatch', exact: true }).click();

    const password = form.getByLabel(/^Password/);
    await password.fill('password1234');
    await form.getByLabel(/^Confirm password/).fill('password1234');
    await expect(form.getByText(/Strength: Weak/)).toBeVisible();
    await expect(form.getByRole('progressbar', { name: 'Strength of the password' })).toBeVisible();
    await expect(form.getByText('This password is too common or easy to guess.')).toBeVisible();
    // The form holds an error: Save waits for a better password.
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expectAccessible(page, 'user form with a weak password', '[role="dialog"]');

    // Under the 8 characters of the rule.
    await password.fill('Qz9!kLm');
    await expect(form.getByText('Password must be at least 8 characters.')).toBeVisible();

    await password.fill('violet harbour lantern');
    await form.getByLabel(/^Confirm password/).fill('violet harbour lantern');
    await expect(form.getByText(/Strength: Strong/)).toBeVisible();
    await expect(form.getByText('This password is too common or easy to guess.')).toHaveCount(0);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(`Successfully added Pat Strength${tag}`)).toBeVisible();
  });
});
