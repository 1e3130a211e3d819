import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';

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

/**
 * Log lines are written in batches of about 4 KiB rather than one system call each: a line per
 * request otherwise cost a quarter of the throughput of a cached session check
 * (docs/performance.md). What is buffered is flushed every second and when the process exits.
 */
export function createLogDestination() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // Closed at shutdown: nothing left to write.
    }
  }, 1000).unref();
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Not open yet or already closed: nothing is buffered.
    }
  });
  return destination;
}

/**
 * One line a request, written when it ends, with flat fields (method, redacted URL, status,
 * milliseconds): the nested `req`/`res` serializers of Fastify's default two lines cost most of
 * what logging a request costs.
 */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request');
  }
}
