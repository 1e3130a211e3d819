import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { HEADERS } from '@opsdeck/contract/http';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** /api/openapi.json and /api/docs, generated from the same zod schemas that validate requests. */
export async function registerOpenApi(app: FastifyInstance, version: string) {
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
