import { z } from 'zod';
import { id, idParams, text } from './fields';
import { EMAIL_PATTERN, LIMITS } from './limits';
import { listFormat, PageQuery, pageOf } from './paging';
import { newPasswordField } from './passwords';

/** A role as a user carries it. */
export const UserGroupRef = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'UserGroupRef' });

/** A user as lists and forms read it (spec section 3). Owned by the users area. */
export const User = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    completeName: z.string(),
    emailAddress: z.string(),
    departmentId: z.number().int().nullable(),
    displayDepartment: z.string().nullable(),
    groups: z.array(UserGroupRef),
    displayGroups: z.string(),
    companyId: z.number().int().nullable(),
    companyName: z.string().nullable(),
    tenantId: z.string().nullable(),
    archived: z.boolean(),
    /**
     * Whether the caller may archive this user: not themself, not the head of a department or of
     * the company (spec section 8: "A user associated with a department cannot be deleted").
     */
    deletable: z.boolean(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

/** Spec section 5, User: first and last name required, at most 255 characters (trimmed). */
export const UserFirstName = text({
  required: 'ERROR_USER_FIRST_NAME_REQUIRED',
  tooLong: 'ERROR_USER_FIRST_NAME_TOO_LONG',
});

export const UserLastName = text({
  required: 'ERROR_USER_LAST_NAME_REQUIRED',
  tooLong: 'ERROR_USER_LAST_NAME_TOO_LONG',
});

/** Required, at most 255 characters, exactly one '@' (spec section 5); unique is the server's check. */
export const UserEmail = z
  .string({ error: 'ERROR_USER_EMAIL_REQUIRED' })
  .trim()
  .min(1, { message: 'ERROR_USER_EMAIL_REQUIRED', abort: true })
  .max(LIMITS.nameMax, { message: 'ERROR_USER_EMAIL_TOO_LONG', abort: true })
  .regex(EMAIL_PATTERN, 'ERROR_USER_EMAIL_INVALID');

/** The spec's credential: the username is the e-mail (the server ignores what is sent here). */
export const UserCredential = z
  .object({
    username: z.string().max(LIMITS.nameMax).optional(),
    // The length rule here; the admins' 12 and the common passwords are the server's (passwords.ts).
    newPassword: newPasswordField('ERROR_USER_PASSWORD_REQUIRED'),
    confirmPassword: z
      .string({ error: 'ERROR_USER_CONFIRM_PASSWORD_REQUIRED' })
      .min(1, 'ERROR_USER_CONFIRM_PASSWORD_REQUIRED')
      .max(1024, 'ERROR_USER_CONFIRM_PASSWORD_REQUIRED'),
  })
  .refine((credential) => credential.newPassword === credential.confirmPassword, {
    path: ['confirmPassword'],
    message: 'ERROR_USER_PASSWORD_MISMATCH',
  });

const RoleIds = z
  .array(id('ERROR_USER_ROLE_REQUIRED'), { error: 'ERROR_USER_ROLE_REQUIRED' })
  .min(1, 'ERROR_USER_ROLE_REQUIRED')
  .max(20, 'ERROR_USER_ROLE_REQUIRED');

const DepartmentId = id('ERROR_USER_DEPARTMENT_REQUIRED').nullish();

/**
 * POST /api/user/register (spec section 7). `groups` are role ids (one role in the console).
 * `companyId` is required for admins (ERROR_COMPANY_REQUIRED) and ignored for company users,
 * who always register in their own company. The department is required when a chosen role
 * holds DEPARTMENT_ACCESS_LEVEL: the server checks that, the form with `requiresDepartment`.
 */
export const RegisterUser = z
  .object({
    firstName: UserFirstName,
    lastName: UserLastName,
    emailAddress: UserEmail,
    credential: UserCredential,
    departmentId: DepartmentId,
    groups: RoleIds,
    companyId: id('ERROR_COMPANY_REQUIRED').nullish(),
  })
  .meta({ id: 'RegisterUser' });
export type RegisterUser = z.infer<typeof RegisterUser>;
export type RegisterUserInput = z.input<typeof RegisterUser>;

/**
 * PUT /api/user/updateUser/{id} (spec section 7: firstName, lastName, department, company_,
 * groups). E-mail and company are read-only on update (spec section 5): `company_` and
 * `emailAddress` are accepted for compatibility and ignored.
 */
export const UpdateUser = z
  .object({
    firstName: UserFirstName,
    lastName: UserLastName,
    department: DepartmentId,
    groups: RoleIds,
    company_: z.unknown().optional(),
    emailAddress: z.unknown().optional(),
  })
  .meta({ id: 'UpdateUser' });
export type UpdateUser = z.infer<typeof UpdateUser>;
export type UpdateUserInput = z.input<typeof UpdateUser>;

/** Spec section 6: a role holding DEPARTMENT_ACCESS_LEVEL makes the department required. */
export function requiresDepartment(roles: readonly { authorities: readonly { key: string }[] }[]) {
  return roles.some((role) => role.authorities.some((authority) => authority.key === 'DEPARTMENT_ACCESS_LEVEL'));
}

export const UserIdParams = idParams();
export const CompanyIdParams = UserIdParams;
export const EmailParams = z.object({ email: z.string().trim().min(1).max(LIMITS.nameMax) });

/**
 * GET /api/user/getActiveUsers/{flag}: `true` answers the users signed in right now (an
 * unexpired session), `false` every user who is not archived; both within the caller's tenant.
 */
export const ActiveUsersParams = z.object({
  flag: z.enum(['true', 'false'], { error: 'ERROR_GENERAL_INVALID_INPUT' }).transform((flag) => flag === 'true'),
});

/** The sortable columns of the users table (spec section 2). */
export const USER_SORT_FIELDS = ['fullName', 'department', 'role', 'company', 'email'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export const UserListQuery = PageQuery.extend({
  sort: z
    .string()
    .regex(new RegExp(`^(${USER_SORT_FIELDS.join('|')})(,(asc|desc))?$`), 'ERROR_GENERAL_INVALID_INPUT')
    .optional(),
  ...listFormat,
});
export type UserListQuery = z.infer<typeof UserListQuery>;

export const UserPage = pageOf(User).meta({ id: 'UserPage' });
