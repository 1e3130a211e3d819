import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
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
 *
 * The lines of one event-loop turn reach that buffer as one string: sonic-boom measures the byte
 * length of its whole pending buffer on every write (flattening the string it appends to), which
 * cost several microseconds a line under load. Lines keep their order; a turn's lines are handed
 * on in the `setImmediate` after it, before any timer or I/O of the next.
 */
export function createLogDestination(fd = 1) {
  const destination = pino.destination({ dest: fd, sync: false, minLength: 4096 });
  let turn: string[] = [];
  function handOn() {
    if (turn.length === 0) return;
    const lines = turn.length === 1 ? turn[0]! : turn.join('');
    turn = [];
    destination.write(lines);
  }
  const flusher = setInterval(() => {
    try {
      handOn();
      destination.flush();
    } catch {
      // Closed at shutdown: nothing left to write.
    }
  }, 1000).unref();
  const onExit = () => {
    try {
      handOn();
      destination.flushSync();
    } catch {
      // Not open yet or already closed: nothing is buffered.
    }
  };
  process.once('exit', onExit);
  return {
    write(line: string) {
      if (turn.push(line) === 1) setImmediate(handOn);
    },
    /**
     * Writes what is left and closes the descriptor (stdout and stderr stay open), resolving once
     * closed: nothing is written to it afterwards, so a number the system hands out again later
     * never receives a stray batch.
     */
    end(): Promise<void> {
      clearInterval(flusher);
      process.off('exit', onExit);
      handOn();
      const closed = new Promise<void>((resolve) => destination.once('close', () => resolve()));
      destination.end();
      return closed;
    },
  };
}

/**
 * One line a request, written when it ends, with flat fields (request id, method, redacted URL,
 * status, milliseconds): the nested `req`/`res` serializers of Fastify's default two lines cost
 * most of what logging a request costs. Written through the server's logger with the id as a
 * field, so that a request which logs nothing else never makes its child logger.
 */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      reqId: request.id,
      method: request.method,
      url: redactUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) request.server.log.error({ ...line, err: error }, 'request errored');
    else request.server.log.info(line, 'request');
  }
}

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * `request.log` without a pino child per request: pino builds a child's bindings eagerly, and most
 * requests log nothing but their request line. The child (bound to the request id, as Fastify's
 * would be) is made the first time something logs through `request.log`.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
  ) {}

  #logger() {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }

  get level() {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.#logger().level = level;
  }
  #call(method: LogMethod, args: unknown[]) {
    (this.#logger()[method] as (...args: unknown[]) => void)(...args);
  }
  fatal(...args: unknown[]) {
    this.#call('fatal', args);
  }
  error(...args: unknown[]) {
    this.#call('error', args);
  }
  warn(...args: unknown[]) {
    this.#call('warn', args);
  }
  info(...args: unknown[]) {
    this.#call('info', args);
  }
  debug(...args: unknown[]) {
    this.#call('debug', args);
  }
  trace(...args: unknown[]) {
    this.#call('trace', args);
  }
  silent() {}
  child(bindings: Record<string, unknown>, options?: object) {
    return this.#logger().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a lazy child unless the route sets its own level or serializers. */
export const requestLogger = (
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: { level?: string; serializers?: Record<string, (value: unknown) => unknown> },
): FastifyBaseLogger =>
  options.level || options.serializers
    ? logger.child(bindings, options)
    : (new LazyChildLogger(logger, bindings) as unknown as FastifyBaseLogger);
