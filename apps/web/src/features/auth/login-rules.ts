import type { LoginRequest } from '@opsdeck/contract/auth';
import type { ErrorKey } from '@opsdeck/contract/errors';

export interface LoginValues {
  email: string;
  password: string;
}
export type LoginField = keyof LoginValues;

export const LOGIN_FIELDS: readonly LoginField[] = ['email', 'password'];

/**
 * The contract's LoginForm schema (packages/contract/src/auth.ts) as two plain checks: its zod
 * would be a sixth of the login page's JavaScript (docs/performance.md, the console's initial
 * JavaScript). login-rules.test.ts holds both to the same answers.
 */
export const LOGIN_RULES: Readonly<Record<LoginField, (value: string) => ErrorKey | undefined>> = {
  email: (value) => (value.trim() === '' ? 'ERROR_LOGIN_FORM_EMAIL_REQUIRED' : undefined),
  password: (value) => (value === '' ? 'ERROR_LOGIN_FORM_PASSWORD_REQUIRED' : undefined),
};

/** The login call of checked values: the e-mail trimmed, as the schema's output has it. */
export function loginRequest({ email, password }: LoginValues): LoginRequest {
  return { username: email.trim(), password };
}
