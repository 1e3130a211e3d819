import { z } from 'zod';
import { AUTHORITY_KEYS } from './authorities';
import type { ErrorKey } from './errors';
import { epoch, idParams, name } from './fields';

/**
 * Personal API tokens (docs/security.md, API tokens): sent as `Authorization: Bearer odt_…`,
 * stored as a digest, shown once. The prefix lets secret scanners recognise a leaked one.
 */
export const API_TOKEN_PREFIX = 'odt_';
/** A token expires at most this many days after it is made. */
export const API_TOKEN_MAX_DAYS = 365;
const DAY_MS = 86_400_000;

/** A token as its user lists it: never the token itself. */
export const ApiToken = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** Authority keys: the most it may do; always narrowed to what its user holds now. */
    scopes: z.array(z.string()),
    createdAt: z.number().int(),
    expiresAt: z.number().int(),
    /** Recorded at most once a minute; null until the token is first used. */
    lastUsedAt: z.number().int().nullable(),
    lastUsedAddress: z.string().nullable(),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof ApiToken>;

/** The answer of POST /api/token: the only time `token` is ever shown. */
export const CreatedApiToken = ApiToken.extend({ token: z.string() }).meta({ id: 'CreatedApiToken' });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const ApiTokenName = name({
  required: 'ERROR_API_TOKEN_NAME_REQUIRED',
  tooLong: 'ERROR_API_TOKEN_NAME_TOO_LONG',
  invalid: 'ERROR_API_TOKEN_NAME_INVALID',
});

export const ApiTokenScopes = z
  .array(z.enum(AUTHORITY_KEYS, { error: 'ERROR_API_TOKEN_SCOPE_INVALID' }), {
    error: 'ERROR_API_TOKEN_SCOPES_REQUIRED',
  })
  .min(1, 'ERROR_API_TOKEN_SCOPES_REQUIRED')
  .max(AUTHORITY_KEYS.length, 'ERROR_API_TOKEN_SCOPE_INVALID');

/** POST /api/token. Scopes must be authorities the user holds; the expiry in the future, at most a year ahead. */
export const CreateApiToken = z
  .object({
    name: ApiTokenName,
    expiresAt: epoch('ERROR_API_TOKEN_EXPIRY_REQUIRED'),
    scopes: ApiTokenScopes,
  })
  .meta({ id: 'CreateApiToken' });
export type CreateApiToken = z.infer<typeof CreateApiToken>;

export const ApiTokenIdParams = idParams('ERROR_API_TOKEN_NOT_EXIST');

/** What is wrong with an expiry at `now`, or null: the server's rule, which the console's form shares. */
export function apiTokenExpiryProblem(expiresAt: number, now: number): ErrorKey | null {
  if (expiresAt <= now) return 'ERROR_API_TOKEN_EXPIRY_PAST';
  if (expiresAt > now + API_TOKEN_MAX_DAYS * DAY_MS) return 'ERROR_API_TOKEN_EXPIRY_TOO_FAR';
  return null;
}
