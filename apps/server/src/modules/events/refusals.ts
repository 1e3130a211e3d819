import type { ErrorKey } from '@opsdeck/contract/errors';
import type { z } from 'zod';
import { isDatabaseUnavailable } from '../../platform/database-errors';
import { AppError } from '../../platform/errors';
import { isRedisUnavailable } from '../../platform/redis';
import { StompRefusal } from '../../platform/stomp/server';

/** A refusal the client is told by key (docs/live-channel.md): ERROR on CONNECT, `/user/topic/errors` after. */
export const refuse = (key: ErrorKey | string, message?: string) => new StompRefusal(key, message);

/** Redis was away for a backplane call (the call rejected with the API's 503). */
export const backplaneAway = (error: unknown) => error instanceof AppError && error.statusCode === 503;

/**
 * The key a failure is told by: an AppError's own, ERROR_SERVICE_UNAVAILABLE for a database or
 * Redis that is away; undefined for anything else (a bug: an internal error, logged).
 */
export function refusalKey(error: unknown): string | undefined {
  if (error instanceof AppError) return error.key;
  if (isDatabaseUnavailable(error) || isRedisUnavailable(error)) return 'ERROR_SERVICE_UNAVAILABLE';
  return undefined;
}

/**
 * The API's failures as the channel's refusals (`refusalKey`); anything else stays an internal
 * error (logged by the transport).
 */
function asRefusal(error: unknown): unknown {
  const key = refusalKey(error);
  return key === undefined ? error : refuse(key);
}

/** Runs a handler's work, its failures turned into refusals. */
export async function refusing<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asRefusal(error);
  }
}

/** A JSON body checked against its schema; anything else is ERROR_GENERAL_INVALID_INPUT. */
export function parse<T extends z.ZodType>(schema: T, body: Buffer): z.infer<T> {
  let json: unknown;
  try {
    json = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
  } catch {
    throw refuse('ERROR_GENERAL_INVALID_INPUT');
  }
  const result = schema.safeParse(json);
  if (!result.success) throw refuse('ERROR_GENERAL_INVALID_INPUT');
  return result.data;
}
