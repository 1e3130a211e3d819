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
import { apiRequest } from '../../lib/api-client';

/** Credentials go in the body, never the URL (ARCHITECTURE.md, login). */
export function postLogin(credentials: LoginRequest): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/login', { method: 'POST', body: credentials, ignoreUnauthorized: true });
}

export function getLogout(): Promise<Ok> {
  return apiRequest<Ok>('/logout');
}

export function getSessionCheck(): Promise<SessionCheck> {
  return apiRequest<SessionCheck>('/test');
}

/** The answer is the same whether or not the address has an account. */
export function requestPasswordReset({ email }: ForgotPasswordForm): Promise<Ok> {
  return apiRequest<Ok>('/user/reset-password', { query: { u: email } });
}

export function postPasswordReset(request: ResetPasswordRequest): Promise<Ok> {
  return apiRequest<Ok>('/user/reset-password', { method: 'POST', body: request });
}

/** Whether the reset link's key still works; the key goes in the body, never in a URL. */
export function postResetKeyCheck(request: ResetKeyCheck): Promise<ResetKeyStatus> {
  return apiRequest<ResetKeyStatus>('/reset-password/check', { method: 'POST', body: request });
}
