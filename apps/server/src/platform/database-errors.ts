/** PostgreSQL's SQLSTATE codes that the services and the error handler act on. */
export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  /** A NUL byte in a text value ("invalid byte sequence for encoding UTF8: 0x00"). */
  characterNotInRepertoire: '22021',
  untranslatableCharacter: '22P05',
} as const;

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
