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
const roles = [role(1, ['DEPARTMENT_ACCESS_LEVEL', 'VIEW_USER']), role(2, ['VIEW_USER'])];

/** The first key on each field, as the form shows it. */
const issues = (result: ReturnType<ReturnType<typeof userFormSchema>['safeParse']>) => {
  const byField: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) byField[issue.path.join('.')] ??= issue.message;
  return byField;
};

const filled = {
  ...emptyUserForm('tenant'),
  firstName: 'Ada',
  lastName: 'Lovelace',
  emailAddress: 'ada@example.test',
  credential: { newPassword: 'secret', confirmPassword: 'secret' },
  roleId: '2',
};

describe('user form schema', () => {
  it('fails an empty create form with the spec keys on their fields', () => {
    const result = userFormSchema({ admin: true, editing: false, roles }).safeParse(emptyUserForm(null));
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

  it('requires a department only for a role holding DEPARTMENT_ACCESS_LEVEL', () => {
    const schema = userFormSchema({ admin: false, editing: false, roles });
    expect(schema.safeParse(filled).success).toBe(true);
    expect(issues(schema.safeParse({ ...filled, roleId: '1' }))).toEqual({
      departmentId: 'ERROR_USER_DEPARTMENT_REQUIRED',
    });
    expect(schema.safeParse({ ...filled, roleId: '1', departmentId: '7' }).success).toBe(true);
  });

  it('checks e-mail pattern, lengths and the password confirmation', () => {
    const schema = userFormSchema({ admin: false, editing: false, roles });
    expect(
      issues(
        schema.safeParse({
          ...filled,
          firstName: 'x'.repeat(256),
          emailAddress: 'a@b@c',
          credential: { newPassword: 'one', confirmPassword: 'two' },
        }),
      ),
    ).toEqual({
      firstName: 'ERROR_USER_FIRST_NAME_TOO_LONG',
      emailAddress: 'ERROR_USER_EMAIL_INVALID',
      'credential.confirmPassword': 'ERROR_USER_PASSWORD_MISMATCH',
    });
  });

  it('does not ask for a password or a valid e-mail on edit', () => {
    const schema = userFormSchema({ admin: true, editing: true, roles });
    const result = schema.safeParse({
      ...filled,
      company: null,
      emailAddress: '',
      credential: { newPassword: '', confirmPassword: '' },
    });
    expect(result.success).toBe(true);
  });

  it('sends the e-mail as username and the role as groups', () => {
    const output = userFormSchema({ admin: false, editing: false, roles }).parse({ ...filled, departmentId: '3' });
    expect(toRegisterUser(output, 5)).toMatchObject({
      credential: { username: 'ada@example.test' },
      groups: [2],
      departmentId: 3,
      companyId: 5,
    });
  });
});
