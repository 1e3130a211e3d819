import type { FastifyRequest } from 'fastify';

/**
 * The spec's login and reset calls put credentials in the query string (section 7), and reset
 * links open /login?resetPasswordKey=…; these never reach the logs.
 */
const SECRET_PARAMS = new Set([
  'password',
  'newpassword',
  'confirmpassword',
  'resetpasswordkey',
  'token',
  'u',
  'username',
]);

export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    if (SECRET_PARAMS.has(name.toLowerCase())) {
      params.set(name, '[REDACTED]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, queryAt)}?${params.toString()}` : url;
}

export const loggerSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
  },
};
