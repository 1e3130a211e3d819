import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ApiErrorBody } from '@opsdeck/contract/errors';
import { HEADERS } from '@opsdeck/contract/http';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** /api/openapi.json and /api/docs, generated from the same zod schemas that validate requests. */
export async function registerOpenApi(app: FastifyInstance, version: string) {
  // Every API route fails the same way: say so in the document once, for all of them.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || !route.schema || route.schema.hide) return;
    const routeAccess = route.config?.access;
    route.schema = {
      ...route.schema,
      response: { ...(route.schema.response as object), '4xx': ApiErrorBody, '5xx': ApiErrorBody },
      // The authorities any one of which the call needs: an API token needs one of them as a scope.
      ...(routeAccess?.kind === 'authorities' ? { 'x-authorities': routeAccess.anyOf } : {}),
    };
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Opsdeck API',
        version,
        description:
          'Every request carries `X-App-Key`; signed-in calls carry `X-Auth-Token` (from POST /api/login) or a personal API token as `Authorization: Bearer odt_…` (made with POST /api/token; it may do at most its scopes, narrowed to what its user holds now); admins may act on a company with `X-Tenant-Id`. Failures answer `{ key, message, fields? }`.',
      },
      components: {
        securitySchemes: {
          appKey: { type: 'apiKey', in: 'header', name: HEADERS.appKey },
          authToken: { type: 'apiKey', in: 'header', name: HEADERS.authToken },
          tenantId: { type: 'apiKey', in: 'header', name: HEADERS.tenantId },
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'odt_…',
            description: 'A personal API token (docs/security.md, API tokens); instead of X-Auth-Token.',
          },
        },
      },
      // Either the session token or an API token, each with the app key.
      security: [
        { appKey: [], authToken: [] },
        { appKey: [], bearerAuth: [] },
      ],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { persistAuthorization: false },
  });
  app.get('/api/openapi.json', { config: { skipAppKey: true }, schema: { hide: true } }, async () => app.swagger());
}
