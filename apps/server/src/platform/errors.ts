// reply.sendFile (the console's index.html for deep links) is @fastify/static's, registered in static.ts.
import type {} from '@fastify/static';
import { ERROR_MESSAGES, type ErrorKey, isErrorKey } from '@opsdeck/contract/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  CLIENT_DATA_ERRORS,
  databaseFailureReason,
  hasSqlState,
  isDatabaseUnavailable,
  isRefusedByTheWall,
} from './database-errors';

/** A failure the client can act on: its HTTP status and one of the spec's error keys. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: ErrorKey,
    readonly fields?: Record<string, ErrorKey>,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

export const badRequest = (key: ErrorKey, fields?: Record<string, ErrorKey>) => new AppError(400, key, fields);
export const unauthorized = (key: ErrorKey = 'ERROR_UNAUTHORIZED') => new AppError(401, key);
export const forbidden = (key: ErrorKey = 'ERROR_FORBIDDEN') => new AppError(403, key);
export const notFound = (key: ErrorKey = 'ERROR_GENERAL_NOT_FOUND') => new AppError(404, key);
export const conflict = (key: ErrorKey, fields?: Record<string, ErrorKey>) => new AppError(409, key, fields);

/**
 * How long a client should wait before retrying while the database is away: the pool reconnects on
 * the next request once it is back, so a few seconds is enough (the `Retry-After` header).
 */
export const RETRY_AFTER_SECONDS = 5;

export function errorBody<K extends ErrorKey>(key: K, fields?: Record<string, string>) {
  return { key, message: ERROR_MESSAGES[key], ...(fields && Object.keys(fields).length ? { fields } : {}) };
}

/** Fastify's own client errors, by code, with the key we answer them with. */
const FASTIFY_CLIENT_ERRORS: Record<string, ErrorKey> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'ERROR_PAYLOAD_TOO_LARGE',
  FST_REQ_FILE_TOO_LARGE: 'ERROR_PAYLOAD_TOO_LARGE',
  FST_PARTS_LIMIT: 'ERROR_PAYLOAD_TOO_LARGE',
  FST_FILES_LIMIT: 'ERROR_PAYLOAD_TOO_LARGE',
};

/**
 * One error model for the whole API (docs/architecture.md, "Errors"): `{ key, message, fields? }`.
 * Validation messages in the contract are error keys, so a zod failure becomes the spec's key on
 * its field. A database that cannot be reached answers 503 ERROR_SERVICE_UNAVAILABLE with Retry-After.
 * Anything unexpected is logged and answered as ERROR_GENERAL_INTERNAL, never a stack.
 */
export function registerErrorHandling(app: FastifyInstance, options: { servesConsole: () => boolean }) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorBody(error.key, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      let first: ErrorKey | undefined;
      for (const issue of error.validation) {
        const key = isErrorKey(issue.message) ? issue.message : 'ERROR_GENERAL_INVALID_INPUT';
        first ??= key;
        const field = String(issue.instancePath ?? '')
          .replace(/^\//, '')
          .replaceAll('/', '.');
        if (field && !(field in fields)) fields[field] = key;
      }
      return reply.status(400).send(errorBody(first ?? 'ERROR_GENERAL_INVALID_INPUT', fields));
    }
    // The database is away (stopped, restarting, unreachable, closed): not a bug, and not the
    // client's fault. Nothing was half-written (a transaction without its commit rolls back).
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ reason: databaseFailureReason(error) }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(errorBody('ERROR_SERVICE_UNAVAILABLE'));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response does not match its schema');
      return reply.status(500).send(errorBody('ERROR_GENERAL_INTERNAL'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const key =
        FASTIFY_CLIENT_ERRORS[error.code] ??
        (status === 413
          ? 'ERROR_PAYLOAD_TOO_LARGE'
          : status === 429
            ? 'ERROR_TOO_MANY_REQUESTS'
            : status === 404
              ? 'ERROR_GENERAL_NOT_FOUND'
              : 'ERROR_GENERAL_INVALID_INPUT');
      return reply.status(key === 'ERROR_PAYLOAD_TOO_LARGE' ? 413 : status).send(errorBody(key));
    }
    // A NUL byte, or a number past its column, in the client's values: its mistake, not ours.
    if (hasSqlState(error, ...CLIENT_DATA_ERRORS)) {
      return reply.status(400).send(errorBody('ERROR_GENERAL_INVALID_INPUT'));
    }
    if (isRefusedByTheWall(error)) {
      // A service wrote in another tenant's name: its bug, told loudly; the caller learns nothing.
      request.log.error({ err: error }, 'a write outside the caller tenant refused by row-level security');
      return reply.status(404).send(errorBody('ERROR_GENERAL_NOT_FOUND'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(errorBody('ERROR_GENERAL_INTERNAL'));
  });

  // A page path the server does not know is a console route (a deep link or a reload).
  app.setNotFoundHandler((request, reply) => {
    const page = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
    if (page && options.servesConsole()) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(errorBody('ERROR_GENERAL_NOT_FOUND'));
  });
}
