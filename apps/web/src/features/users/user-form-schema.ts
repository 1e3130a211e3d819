import { withPasswordRule } from '@opsdeck/contract/passwords';
import type { Role } from '@opsdeck/contract/roles';
import {
  type RegisterUser,
  requiresDepartment,
  type UpdateUser,
  type User,
  UserCredential,
  UserEmail,
  UserFirstName,
  UserLastName,
} from '@opsdeck/contract/users';
import { z } from 'zod';
import { chosenId, companyChoice } from '../../lib/form-schemas';

/**
 * The user form (spec section 5) over the contract's field schemas, so the form and the server
 * fail with the same keys. One role in the console (spec section 1: a user has one role), sent
 * as `groups: [id]`. Selects hold ids as text.
 */
export function userFormSchema(options: { admin: boolean; editing: boolean; roles: readonly Role[] }) {
  const { admin, editing, roles } = options;
  const schema = z
    .object({
      company: companyChoice(admin && !editing),
      firstName: UserFirstName,
      lastName: UserLastName,
      // E-mail and password are set once, on create; the edit form shows the e-mail read-only.
      emailAddress: editing ? z.string() : UserEmail,
      credential: editing ? z.object({ newPassword: z.string(), confirmPassword: z.string() }) : UserCredential,
      departmentId: z.string().nullable(),
      roleId: chosenId('ERROR_USER_ROLE_REQUIRED'),
    })
    .refine(
      (values) => {
        const role = roles.find((candidate) => String(candidate.id) === values.roleId);
        return Boolean(values.departmentId) || !role || !requiresDepartment([role]);
      },
      { path: ['departmentId'], message: 'ERROR_USER_DEPARTMENT_REQUIRED', when: () => true },
    );
  if (editing) return schema;
  // The password rule (docs/security.md): 12 characters when the chosen role holds
  // ADMIN_ACCESS_LEVEL, and nothing built from the user's own names and e-mail.
  return withPasswordRule(schema, ['credential', 'newPassword'], (values) => ({
    password: values.credential.newPassword,
    admin: roleIsAdmin(roles.find((candidate) => String(candidate.id) === values.roleId)),
    person: values,
  }));
}

/** Whether a role holds ADMIN_ACCESS_LEVEL: its holders' passwords need 12 characters. */
export function roleIsAdmin(role: Pick<Role, 'authorities'> | undefined): boolean {
  return role?.authorities.some((authority) => authority.key === 'ADMIN_ACCESS_LEVEL') ?? false;
}

export type UserFormValues = z.input<ReturnType<typeof userFormSchema>>;
export type UserFormOutput = z.output<ReturnType<typeof userFormSchema>>;

export function emptyUserForm(company: string | null): UserFormValues {
  return {
    company,
    firstName: '',
    lastName: '',
    emailAddress: '',
    credential: { newPassword: '', confirmPassword: '' },
    departmentId: null,
    roleId: null,
  };
}

export function userToForm(user: User): UserFormValues {
  return {
    company: user.tenantId,
    firstName: user.firstName,
    lastName: user.lastName,
    emailAddress: user.emailAddress,
    credential: { newPassword: '', confirmPassword: '' },
    departmentId: user.departmentId === null ? null : String(user.departmentId),
    roleId: user.groups[0] ? String(user.groups[0].id) : null,
  };
}

export function toRegisterUser(values: UserFormOutput, companyId: number | null): RegisterUser {
  const email = values.emailAddress.trim();
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    emailAddress: email,
    credential: {
      username: email,
      newPassword: values.credential.newPassword,
      confirmPassword: values.credential.confirmPassword,
    },
    departmentId: values.departmentId ? Number(values.departmentId) : null,
    groups: [Number(values.roleId)],
    companyId,
  };
}

export function toUpdateUser(values: UserFormOutput): UpdateUser {
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    department: values.departmentId ? Number(values.departmentId) : null,
    groups: [Number(values.roleId)],
  };
}
