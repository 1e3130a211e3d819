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
    route.schema = {
      ...route.schema,
      response: { ...(route.schema.response as object), '4xx': ApiErrorBody, '5xx': ApiErrorBody },
    };
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Opsdeck API',
        version,
        description:
          'Every request carries `X-App-Key`; signed-in calls carry `X-Auth-Token` (from POST /api/login); admins may act on a company with `X-Tenant-Id`. Failures answer `{ key, message, fields? }`.',
      },
      components: {
        securitySchemes: {
          appKey: { type: 'apiKey', in: 'header', name: HEADERS.appKey },
          authToken: { type: 'apiKey', in: 'header', name: HEADERS.authToken },
          tenantId: { type: 'apiKey', in: 'header', name: HEADERS.tenantId },
        },
      },
      security: [{ appKey: [], authToken: [] }],
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
