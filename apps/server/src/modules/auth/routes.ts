import {
  AUTH_PATHS,
  ForgotPasswordQuery,
  LoginRequest,
  LoginResponse,
  Ok,
  ResetKeyCheck,
  ResetKeyStatus,
  ResetPasswordRequest,
  SessionCheck,
} from '@opsdeck/contract/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import { parseOrThrow } from '../../platform/validation';
import type { AuthService } from './service';

const tags = ['auth'];

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    AUTH_PATHS.login,
    {
      config: {
        access: access.public,
        audit: audit.action('auth.sign_in', { failure: { action: 'auth.sign_in_failed', statuses: [401] } }),
      },
      schema: {
        tags,
        summary: 'Sign in; answers the session token',
        description:
          'Credentials in a JSON or form body (what the console sends), or as the query parameters `username` and `password` of the original API. Throttled per account and per address (429).',
        querystring: LoginRequest.partial(),
        body: LoginRequest.partial().nullish(),
        response: { 200: LoginResponse },
      },
    },
    async (request) => {
      const { username, password } = parseOrThrow(LoginRequest, { ...request.query, ...request.body });
      return auth.login(username, password, request.ip);
    },
  );

  app.get(
    AUTH_PATHS.logout,
    {
      config: { access: access.session, audit: audit.action('auth.sign_out') },
      schema: { tags, summary: 'End this session', response: { 200: Ok } },
    },
    async (request) => {
      await auth.logout(requireAuth(request).tokenHash);
      return { ok: true as const };
    },
  );

  app.get(
    AUTH_PATHS.sessionCheck,
    {
      config: { access: access.session },
      schema: { tags, summary: 'Session check', response: { 200: SessionCheck } },
    },
    async (request) => {
      const caller = requireAuth(request);
      return {
        authenticated: true as const,
        userId: caller.userId,
        tenantId: caller.tenantId,
        expiresAt: caller.expiresAt,
      };
    },
  );

  app.get(
    AUTH_PATHS.resetPassword,
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Ask for a password-reset mail',
        description: 'The same answer whether or not the e-mail belongs to an account.',
        querystring: ForgotPasswordQuery,
        response: { 200: Ok },
      },
    },
    async (request) => {
      auth.requestPasswordReset(request.query.u, request.ip);
      return { ok: true as const };
    },
  );

  app.post(
    AUTH_PATHS.resetKeyCheck,
    {
      config: { access: access.public, audit: audit.none('a check: whether a reset key still works') },
      schema: {
        tags,
        summary: 'Whether a password-reset key can still be used',
        description:
          'Asked when the reset panel opens, so a used or expired link says so before anything is typed. ' +
          'Does not use the key up. The key is in the body only. Throttled per address (429).',
        body: ResetKeyCheck,
        response: { 200: ResetKeyStatus },
      },
    },
    async (request) => ({ valid: await auth.checkResetKey(request.body.resetPasswordKey, request.ip) }),
  );

  app.post(
    AUTH_PATHS.resetPassword,
    {
      config: { access: access.public, audit: audit.action('auth.password_reset') },
      schema: {
        tags,
        summary: 'Set a new password with a reset key',
        description: 'The key works once. Fields in a JSON or form body, or as query parameters.',
        querystring: ResetPasswordRequest.partial(),
        body: ResetPasswordRequest.partial().nullish(),
        response: { 200: Ok },
      },
    },
    async (request) => {
      const { newPassword, resetPasswordKey } = parseOrThrow(ResetPasswordRequest, {
        ...request.query,
        ...request.body,
      });
      await auth.resetPassword(resetPasswordKey, newPassword);
      return { ok: true as const };
    },
  );
};
