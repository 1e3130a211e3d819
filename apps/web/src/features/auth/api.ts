import type {
  ForgotPasswordForm,
  LoginRequest,
  LoginResponse,
  Ok,
  ResetKeyCheck,
  ResetKeyStatus,
  ResetPasswordRequest,
  SessionCheck,
} from '@opsdeck/contract/auth';
// From a module of its own: contract/auth's schemas would bring zod onto the login page.
import { AUTH_PATHS } from '@opsdeck/contract/auth-paths';
import { apiRequest } from '../../lib/api-client';

/** Credentials go in the body, never the URL (docs/architecture.md, "Login"). */
export function postLogin(credentials: LoginRequest): Promise<LoginResponse> {
  return apiRequest<LoginResponse>(AUTH_PATHS.login, { method: 'POST', body: credentials, ignoreUnauthorized: true });
}

export function getLogout(): Promise<Ok> {
  return apiRequest<Ok>(AUTH_PATHS.logout);
}

export function getSessionCheck(): Promise<SessionCheck> {
  return apiRequest<SessionCheck>(AUTH_PATHS.sessionCheck);
}

/** The answer is the same whether or not the address has an account. */
export function requestPasswordReset({ email }: ForgotPasswordForm): Promise<Ok> {
  return apiRequest<Ok>(AUTH_PATHS.resetPassword, { query: { u: email } });
}

export function postPasswordReset(request: ResetPasswordRequest): Promise<Ok> {
  return apiRequest<Ok>(AUTH_PATHS.resetPassword, { method: 'POST', body: request });
}

/** Whether the reset link's key still works; the key goes in the body, never in a URL. */
export function postResetKeyCheck(request: ResetKeyCheck): Promise<ResetKeyStatus> {
  return apiRequest<ResetKeyStatus>(AUTH_PATHS.resetKeyCheck, { method: 'POST', body: request });
}
