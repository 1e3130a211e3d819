import { Ok } from '@opsdeck/contract/auth';
import { ApiToken, ApiTokenIdParams, CreateApiToken, CreatedApiToken } from '@opsdeck/contract/tokens';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import type { TokensService } from './service';

const tags = ['tokens'];
const SESSION_ONLY =
  'Any signed-in user, for their own tokens only; from a session (X-Auth-Token): an API token is refused (403 ERROR_API_TOKEN_SESSION_REQUIRED).';

/** The caller's personal API tokens (docs/security.md, API tokens). X-Tenant-Id plays no part. */
export const tokenRoutes: FastifyPluginAsyncZod<{ tokens: TokensService }> = async (app, { tokens }) => {
  app.get(
    '/token',
    {
      config: { access: access.session },
      schema: {
        tags,
        summary: "The caller's API tokens (never the tokens themselves)",
        description: `Newest first. ${SESSION_ONLY}`,
        response: { 200: z.array(ApiToken) },
      },
    },
    async (request) => tokens.list(requireAuth(request)),
  );

  app.post(
    '/token',
    {
      config: { access: access.session, audit: audit.action('token.create') },
      schema: {
        tags,
        summary: 'Create an API token; the answer is the only time `token` is shown',
        description:
          'Scopes are authority keys the caller holds (else 400 ERROR_API_TOKEN_SCOPE_NOT_HELD); the expiry is in the ' +
          `future and at most 365 days ahead. Send the token as \`Authorization: Bearer odt_…\`. ${SESSION_ONLY}`,
        body: CreateApiToken,
        response: { 201: CreatedApiToken },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return tokens.create(requireAuth(request), request.body);
    },
  );

  app.delete(
    '/token/:id',
    {
      config: { access: access.session, audit: audit.action('token.revoke') },
      schema: {
        tags,
        summary: 'Revoke one of the caller’s API tokens (refused at once from then on)',
        description: `Another user's token answers 404. ${SESSION_ONLY}`,
        params: ApiTokenIdParams,
        response: { 200: Ok },
      },
    },
    async (request) => {
      await tokens.revoke(requireAuth(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.addHook('onClose', async () => {
    await tokens.stop();
  });
};
