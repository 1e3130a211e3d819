import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors';

/**
 * Serves the built console from the same port as the API. Unknown paths outside /api answer the
 * console's index.html so that the router can take them (deep links, reloads).
 */
export async function registerConsole(app: FastifyInstance, distDir: string) {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'console not built: serving the API only');
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    // Hashed assets never change; the page itself is always revalidated.
    setHeaders(res, filePath) {
      res.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api') || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(errorBody('ERROR_GENERAL_NOT_FOUND'));
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}
