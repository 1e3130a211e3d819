import type { Role } from '@opsdeck/contract/roles';
import { describe, expect, it } from 'vitest';
import { emptyUserForm, toRegisterUser, userFormSchema } from './user-form-schema';

const role = (id: number, keys: string[]): Role => ({
  id,
  name: `Role ${id}`,
  isProtected: false,
  editable: true,
  deletable: true,
  tenantId: 't',
  companyName: 'C',
  authorities: keys.map((key) => ({ id: key, key, title: key })),
});
const roles = [
  role(1, ['DEPARTMENT_ACCESS_LEVEL', 'VIEW_USER']),
  role(2, ['VIEW_USER']),
  role(3, ['ADMIN_ACCESS_LEVEL', 'VIEW_USER']),
];

/** The first key on each field, as the form shows it. */
const issues = (result: Awaited<ReturnType<ReturnType<typeof userFormSchema>['safeParseAsync']>>) => {
  const byField: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) byField[issue.path.join('.')] ??= issue.message;
  return byField;
};

const filled = {
  ...emptyUserForm('tenant'),
  firstName: 'Ada',
  lastName: 'Lovelace',
  emailAddress: 'ada@example.test',
  credential: { newPassword: 'violet harbour lantern', confirmPassword: 'violet harbour lantern' },
  roleId: '2',
};

describe('user form schema', () => {
  it('fails an empty create form with the spec keys on their fields', async () => {
    const result = await userFormSchema({ admin: true, editing: false, roles }).safeParseAsync(emptyUserForm(null));
    expect(issues(result)).toMatchObject({
      company: 'ERROR_COMPANY_REQUIRED',
      firstName: 'ERROR_USER_FIRST_NAME_REQUIRED',
      lastName: 'ERROR_USER_LAST_NAME_REQUIRED',
      emailAddress: 'ERROR_USER_EMAIL_REQUIRED',
      'credential.newPassword': 'ERROR_USER_PASSWORD_REQUIRED',
      'credential.confirmPassword': 'ERROR_USER_CONFIRM_PASSWORD_REQUIRED',
      roleId: 'ERROR_USER_ROLE_REQUIRED',
    });
  });

  it('requires a department only for a role holding DEPARTMENT_ACCESS_LEVEL', async () => {
    const schema = userFormSchema({ admin: false, editing: false, roles });
    expect((await schema.safeParseAsync(filled)).success).toBe(true);
    expect(issues(await schema.safeParseAsync({ ...filled, roleId: '1' }))).toEqual({
      departmentId: 'ERROR_USER_DEPARTMENT_REQUIRED',
    });
    expect((await schema.safeParseAsync({ ...filled, roleId: '1', departmentId: '7' })).success).toBe(true);
  });

  it('checks e-mail pattern, lengths and the password confirmation', async () => {
    const schema = userFormSchema({ admin: false, editing: false, roles });
    expect(
      issues(
        await schema.safeParseAsync({
          ...filled,
          firstName: 'x'.repeat(256),
          emailAddress: 'a@b@c',
          credential: { newPassword: 'orbit-velvet-42', confirmPassword: 'orbit-velvet-43' },
        }),
      ),
    ).toEqual({
      firstName: 'ERROR_USER_FIRST_NAME_TOO_LONG',
      emailAddress: 'ERROR_USER_EMAIL_INVALID',
      'credential.confirmPassword': 'ERROR_USER_PASSWORD_MISMATCH',
    });
  });

  it('applies the password rule: length, common passwords, the names, 12 characters for an admin role', async () => {
    const schema = userFormSchema({ admin: false, editing: false, roles });
    const withPassword = (password: string, more: Record<string, unknown> = {}) =>
      schema.safeParseAsync({ ...filled, credential: { newPassword: password, confirmPassword: password }, ...more });
    expect(issues(await withPassword('Qz9!kLm'))).toEqual({ 'credential.newPassword': 'ERROR_PASSWORD_TOO_SHORT' });
    expect(issues(await withPassword('Vx3!qR8#m'.repeat(15)))).toEqual({
      'credential.newPassword': 'ERROR_PASSWORD_TOO_LONG',
    });
    expect(issues(await withPassword('password1234'))).toEqual({
      'credential.newPassword': 'ERROR_PASSWORD_TOO_COMMON',
    });
    // Judged even while another field still fails.
    expect(issues(await withPassword('password1234', { firstName: '' }))).toEqual({
      firstName: 'ERROR_USER_FIRST_NAME_REQUIRED',
      'credential.newPassword': 'ERROR_PASSWORD_TOO_COMMON',
    });
    expect(
      issues(
        await withPassword('maria.santos2024', {
          firstName: 'Maria',
          lastName: 'Santos',
          emailAddress: 'maria.santos@example.test',
        }),
      ),
    ).toEqual({ 'credential.newPassword': 'ERROR_PASSWORD_TOO_COMMON' });
    expect((await withPassword('Xq7#vLm2p')).success).toBe(true);
    expect(issues(await withPassword('Xq7#vLm2p', { roleId: '3' }))).toEqual({
      'credential.newPassword': 'ERROR_PASSWORD_ADMIN_TOO_SHORT',
    });
    expect((await withPassword('violet harbour lantern', { roleId: '3' })).success).toBe(true);
  });

  it('does not ask for a password or a valid e-mail on edit', async () => {
    const schema = userFormSchema({ admin: true, editing: true, roles });
    const result = await schema.safeParseAsync({
      ...filled,
      company: null,
      emailAddress: '',
      credential: { newPassword: '', confirmPassword: '' },
    });
    expect(result.success).toBe(true);
  });

  it('sends the e-mail as username and the role as groups', async () => {
    const output = await userFormSchema({ admin: false, editing: false, roles }).parseAsync({
      ...filled,
      departmentId: '3',
    });
    expect(toRegisterUser(output, 5)).toMatchObject({
      credential: { username: 'ada@example.test' },
      groups: [2],
      departmentId: 3,
      companyId: 5,
    });
  });
});
