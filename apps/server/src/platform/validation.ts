import { type ErrorKey, isErrorKey } from '@opsdeck/contract/errors';
import type { z } from 'zod';
import { AppError } from './errors';

/**
 * Validates a value the route schema could not (a request that may carry its fields in the query
 * or the body), failing the same way a route schema does: the contract's key on each field.
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields: Record<string, ErrorKey> = {};
  for (const issue of result.error.issues) {
    const key = isErrorKey(issue.message) ? issue.message : 'ERROR_GENERAL_INVALID_INPUT';
    const field = issue.path.join('.');
    if (field && !(field in fields)) fields[field] = key;
  }
  const first = Object.values(fields)[0] ?? 'ERROR_GENERAL_INVALID_INPUT';
  throw new AppError(400, first, fields);
}
