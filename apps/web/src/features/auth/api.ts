import type {
  CurrentUserProfile,
  ForgotPasswordForm,
  LoginRequest,
  LoginResponse,
  Ok,
  ResetPasswordRequest,
  SessionCheck,
} from '@opsdeck/contract/auth';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

export const authKeys = {
  all: ['auth'] as const,
  profile: ['auth', 'profile'] as const,
};

export function profileQueryOptions() {
  return queryOptions({
    queryKey: authKeys.profile,
    queryFn: ({ signal }) => apiRequest<CurrentUserProfile>('/user/profile/current-user', { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

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
