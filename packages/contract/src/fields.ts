import { z } from 'zod';
import type { ErrorKey } from './errors';
import { EMAIL_PATTERN, FORBIDDEN_NAME_CHARS, LIMITS } from './limits';

/**
 * The field rules every area shares, written once. Each area passes its own error keys (spec
 * section 8), so the server and the console fail the same way with the same words.
 */

/** Row ids are PostgreSQL int4 identity columns: anything past 2^31-1 cannot name a row. */
export const ID_MAX = 2_147_483_647;

/**
 * A row id in a JSON body: a whole number from 1 to 2^31-1; anything else answers `key`, and a
 * missing value or one of another type answers `missing` (a required field's key) when given.
 */
export const id = (key: ErrorKey = 'ERROR_GENERAL_INVALID_INPUT', missing: ErrorKey = key) =>
  z.number({ error: missing }).int(key).positive(key).max(ID_MAX, key);

/** A row id in a path or query string (text coerced to a number), with the same bounds. */
export const idText = (key: ErrorKey = 'ERROR_GENERAL_INVALID_INPUT') =>
  z.coerce.number({ error: key }).int(key).positive(key).max(ID_MAX, key);

/**
 * A required row id in form data or a query string: missing, empty or null answers `missing` (the
 * field's required key), anything that is not an id answers `invalid`.
 */
export const requiredIdText = (missing: ErrorKey, invalid: ErrorKey) =>
  z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z
      .unknown()
      .refine((value): boolean => value !== undefined, { message: missing, abort: true })
      .pipe(idText(invalid)),
  );

/** The `{id}` path parameter; an id that cannot exist answers 400 with the area's not-exist key. */
export const idParams = (key: ErrorKey = 'ERROR_GENERAL_INVALID_INPUT') => z.object({ id: idText(key) });

/** An id a response carries. */
export const Id = z.number().int();

export type NameKeys = { required: ErrorKey; tooLong: ErrorKey; invalid: ErrorKey };

/** The general keys of a name (spec section 8: ERROR_GENERAL_NAME_*). */
export const GENERAL_NAME_KEYS: NameKeys = {
  required: 'ERROR_GENERAL_NAME_REQUIRED',
  tooLong: 'ERROR_GENERAL_NAME_TOO_LONG',
  invalid: 'ERROR_GENERAL_NAME_INVALID',
};

/** Spec section 5 for every name: trimmed, required, at most 255, none of the forbidden characters. */
export const name = (keys: NameKeys = GENERAL_NAME_KEYS) =>
  z
    .string({ error: keys.required })
    .trim()
    .min(1, keys.required)
    .max(LIMITS.nameMax, keys.tooLong)
    .refine((value) => !FORBIDDEN_NAME_CHARS.test(value), keys.invalid);

/** Free text with only a length bound (labels, person names): trimmed, required, at most 255. */
export const text = (keys: { required: ErrorKey; tooLong: ErrorKey }, max: number = LIMITS.nameMax) =>
  z.string({ error: keys.required }).trim().min(1, keys.required).max(max, keys.tooLong);

/** An e-mail address: exactly one '@' with text on both sides (spec section 5), at most 255. */
export const email = (keys: { required: ErrorKey; tooLong: ErrorKey; invalid: ErrorKey }) =>
  z
    .string({ error: keys.required })
    .trim()
    .min(1, keys.required)
    .max(LIMITS.nameMax, keys.tooLong)
    .regex(EMAIL_PATTERN, keys.invalid);

/** An optional search text of a list call. */
export const searchText = () => z.string().trim().max(LIMITS.nameMax).optional();

/** Epoch milliseconds (docs/architecture.md, "Data"), within what a JavaScript Date can hold. */
export const EPOCH_MAX = 8_640_000_000_000_000;
export const epoch = (key: ErrorKey = 'ERROR_GENERAL_INVALID_INPUT') =>
  z.number({ error: key }).int(key).min(0, key).max(EPOCH_MAX, key);
export const epochText = (key: ErrorKey = 'ERROR_GENERAL_INVALID_INPUT') =>
  z.coerce.number({ error: key }).int(key).min(0, key).max(EPOCH_MAX, key);
