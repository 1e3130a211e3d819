import { z } from 'zod';
import { EMAIL_PATTERN } from './limits';
import { newPasswordField, withPasswordRule } from './passwords';

// The paths live apart from the schemas: the console's login page takes them without zod (docs/performance.md).
export { AUTH_PATHS } from './auth-paths';

/** POST /api/login: the console sends a JSON body; the spec's query form is accepted too. */
export const LoginRequest = z
  .object({
    username: z
      .string({ error: 'ERROR_LOGIN_FORM_EMAIL_REQUIRED' })
      .trim()
      .min(1, 'ERROR_LOGIN_FORM_EMAIL_REQUIRED')
      .max(255),
    password: z
      .string({ error: 'ERROR_LOGIN_FORM_PASSWORD_REQUIRED' })
      .min(1, 'ERROR_LOGIN_FORM_PASSWORD_REQUIRED')
      .max(1024),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginResponse = z.object({ token: z.string() }).meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof LoginResponse>;

/** The console form of the login panel (the API's `username` is the e-mail). */
export const LoginForm = z.object({
  email: z.string().trim().min(1, 'ERROR_LOGIN_FORM_EMAIL_REQUIRED'),
  password: z.string().min(1, 'ERROR_LOGIN_FORM_PASSWORD_REQUIRED'),
});
export type LoginForm = z.infer<typeof LoginForm>;

/** GET /api/user/reset-password?u= */
export const ForgotPasswordQuery = z.object({
  u: z
    .string({ error: 'ERROR_FORGOT_PASSWORD_FORM_EMAIL_REQUIRED' })
    .trim()
    .min(1, 'ERROR_FORGOT_PASSWORD_FORM_EMAIL_REQUIRED')
    .max(255, 'ERROR_FORGOT_PASSWORD_FORM_INVALID')
    .regex(EMAIL_PATTERN, 'ERROR_FORGOT_PASSWORD_FORM_INVALID'),
});

export const ForgotPasswordForm = z.object({ email: ForgotPasswordQuery.shape.u });
export type ForgotPasswordForm = z.infer<typeof ForgotPasswordForm>;

/** POST /api/user/reset-password: query form of the spec, or a body (the console's). */
export const ResetPasswordRequest = z
  .object({
    // The length rule here; the admins' 12 and the common passwords are the server's (passwords.ts).
    newPassword: newPasswordField('ERROR_RESET_PASSWORD_FORM_PASSWORD_REQUIRED'),
    resetPasswordKey: z
      .string({ error: 'ERROR_RESET_PASSWORD_FORM_INVALID' })
      .min(1, 'ERROR_RESET_PASSWORD_FORM_INVALID')
      .max(256),
  })
  .meta({ id: 'ResetPasswordRequest' });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/**
 * POST /api/reset-password/check: whether a reset key can still be used, asked when the reset
 * panel opens so a used or expired link shows 'Invalid reset password.' instead of the form. The
 * key travels in the body, never in a URL the console builds.
 */
export const ResetKeyCheck = z
  .object({ resetPasswordKey: ResetPasswordRequest.shape.resetPasswordKey })
  .meta({ id: 'ResetKeyCheck' });
export type ResetKeyCheck = z.infer<typeof ResetKeyCheck>;

export const ResetKeyStatus = z.object({ valid: z.boolean() }).meta({ id: 'ResetKeyStatus' });
export type ResetKeyStatus = z.infer<typeof ResetKeyStatus>;

/** The console's reset panel: the whole password rule (the server adds the admins' 12 characters). */
export const ResetPasswordForm = withPasswordRule(
  z
    .object({
      newPassword: newPasswordField('ERROR_RESET_PASSWORD_FORM_PASSWORD_REQUIRED'),
      confirmPassword: z.string().min(1, 'ERROR_RESET_PASSWORD_FORM_CONFIRM_REQUIRED'),
    })
    .refine((form) => form.newPassword === form.confirmPassword, {
      path: ['confirmPassword'],
      message: 'ERROR_RESET_PASSWORD_FORM_MISMATCH',
    }),
  ['newPassword'],
  (form) => ({ password: form.newPassword }),
);
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>;

/** A plain acknowledgement for calls whose answer the spec does not show. */
export const Ok = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });
export type Ok = z.infer<typeof Ok>;

/** GET /api/user/profile/current-user (spec section 3, current user profile). */
export const CurrentUserProfile = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    completeName: z.string(),
    fullName: z.string(),
    emailAddress: z.string(),
    tenantId: z.string().nullable(),
    auths: z.array(z.string()),
    company: z.object({ id: z.number().int(), name: z.string(), tenantId: z.string() }).nullable(),
    department: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  })
  .meta({ id: 'CurrentUserProfile' });
export type CurrentUserProfile = z.infer<typeof CurrentUserProfile>;

/** GET /api/test: the session check. */
export const SessionCheck = z
  .object({
    authenticated: z.literal(true),
    userId: z.number().int(),
    tenantId: z.string().nullable(),
    expiresAt: z.number(),
  })
  .meta({ id: 'SessionCheck' });
export type SessionCheck = z.infer<typeof SessionCheck>;
