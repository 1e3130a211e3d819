import { DrizzleQueryError } from 'drizzle-orm';

/** PostgreSQL's SQLSTATE codes that the services and the error handler act on. */
export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  /** A NUL byte in a text value ("invalid byte sequence for encoding UTF8: 0x00"). */
  characterNotInRepertoire: '22021',
  untranslatableCharacter: '22P05',
  /** A number past its column's range (an int4 id of 2^31 or more), should one slip past validation. */
  numericValueOutOfRange: '22003',
  invalidTextRepresentation: '22P02',
  /** A value a function refuses, such as a time zone name the database does not know. */
  invalidParameterValue: '22023',
  /** A CHECK constraint, or a row that no partition of a partitioned table takes. */
  checkViolation: '23514',
  /** Two transactions each waiting on a row the other holds: PostgreSQL rolled this one back. */
  deadlockDetected: '40P01',
  /** A lock not granted within the transaction's `lock_timeout`. */
  lockNotAvailable: '55P03',
} as const;

/**
 * A write the database's wall refused (docs/tenancy.md): a row in another tenant's name
 * ("new row violates row-level security policy", 42501). Only a service that forgot its scope
 * gets here; the caller is answered as for any row outside its scope.
 */
export function isRefusedByTheWall(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === '42501' && /row-level security/i.test(String(message))) return true;
  }
  return false;
}

/** Data errors (class 22) that only a client's value can cause: answered 400, never 500. */
export const CLIENT_DATA_ERRORS = [
  SQLSTATE.characterNotInRepertoire,
  SQLSTATE.untranslatableCharacter,
  SQLSTATE.numericValueOutOfRange,
  SQLSTATE.invalidTextRepresentation,
] as const;

/**
 * Whether a database error (or one it wraps: Drizzle puts the driver's error in `cause`) has one
 * of these SQLSTATE codes. Both PGlite and node-postgres set `code`.
 */
export function hasSqlState(error: unknown, ...codes: readonly string[]): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && codes.includes(code)) return true;
  }
  return false;
}

/**
 * Runs a transaction again (up to `attempts` in all) when PostgreSQL broke a deadlock by rolling
 * it back: nothing of it was kept, so running it again is safe. Any other failure goes up at once.
 */
export async function retryDeadlocks<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !hasSqlState(error, SQLSTATE.deadlockDetected)) throw error;
    }
  }
}

/** The constraint (or unique index) a database error names, if any: which of a row's unique rules it broke. */
export function violatedConstraint(error: unknown): string | undefined {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
  }
  return undefined;
}

/**
 * SQLSTATE classes that say the database cannot serve now, whatever the statement: 08 connection
 * exception, 53 insufficient resources (too many connections, disk full), 57P operator
 * intervention (admin shutdown, crash shutdown, cannot connect now), 58 system error (I/O).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P|58)/;

/** Socket failures of the driver's connection (node-postgres sets the errno code). */
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** The drivers' own words for a connection that is gone or never came (they set no code). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Cannot use a pool after calling end|PGlite is closed|Query read timeout/i;

/** A PostgreSQL error carries a five-character SQLSTATE; anything else a driver throws did not reach SQL. */
const isSqlState = (code: unknown): code is string => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

/**
 * Whether a failure means "the database cannot be reached or cannot serve now" (answered 503, and
 * the client retries), as opposed to "this statement was refused" (a 4xx, or a bug: 500). Walks
 * the `cause` chain, since Drizzle wraps each driver error in a DrizzleQueryError.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let wrappedByQuery = false;
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const { code, syscall, message, name, cause } = current as Record<string, unknown>;
    if (isSqlState(code)) return UNAVAILABLE_SQLSTATE.test(code);
    if (typeof code === 'string' && (UNAVAILABLE_ERRNO.has(code) || syscall === 'connect')) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    if (current instanceof DrizzleQueryError) {
      wrappedByQuery = true;
      continue;
    }
    // A query that failed with neither a SQLSTATE nor a programming error: the engine itself
    // failed (PGlite's WebAssembly aborting on an I/O error, say), not the statement.
    const programming = current instanceof TypeError || current instanceof RangeError || name === 'SyntaxError';
    if (wrappedByQuery && !programming && cause === undefined) return true;
  }
  return false;
}

/**
 * The driver's own words for a failure ("57P01 terminating connection…"), for a one-line log:
 * the wrapping error carries the whole statement and its parameters, and pg-pool's the client.
 */
export function databaseFailureReason(error: unknown): string {
  let innermost = error;
  while (innermost && typeof innermost === 'object' && (innermost as { cause?: unknown }).cause) {
    innermost = (innermost as { cause?: unknown }).cause;
  }
  const { code, message } = (innermost ?? {}) as { code?: unknown; message?: unknown };
  return [code, message ?? String(innermost)].filter((part) => typeof part === 'string' && part).join(' ');
}
