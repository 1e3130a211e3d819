import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built console from the same port as the API. Unknown paths outside /api answer the
 * console's index.html (see the not-found handler in errors.ts) so that the router can take them.
 * Answers whether the console is there to serve.
 */
export async function registerConsole(app: FastifyInstance, distDir: string): Promise<boolean> {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'console not built: serving the API only');
    return false;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    // The console build writes .br and .gz beside each asset (apps/web/precompress.ts).
    preCompressed: true,
    // Hashed assets never change; the page itself is always revalidated.
    setHeaders(res, filePath) {
      res.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  return true;
}
