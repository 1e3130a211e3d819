import { type Logger, NoopLogger } from 'drizzle-orm';

/**
 * A database that fails some statements as a lost connection does ("Connection terminated
 * unexpectedly", what node-postgres says when PostgreSQL goes away mid-query), whichever database
 * the run uses: every statement whose SQL matches `match` fails, in a transaction or not, until
 * the returned function is called; the others run. For a test that needs the outage to fall on
 * one lookup (a whole database stopped would fail the session check first).
 *
 * Drizzle tells its logger of every statement it sends, inside the prepared query's `execute`,
 * before the driver runs it; the app's database has no logger of its own (a NoopLogger), so a
 * throw there fails that statement alone, as the driver's error would.
 */
export function failStatements(match: RegExp): () => void {
  const prototype: Logger = NoopLogger.prototype;
  const original = prototype.logQuery;
  prototype.logQuery = function logQuery(this: Logger, query: string, params: unknown[]) {
    if (match.test(query)) throw new Error('Connection terminated unexpectedly');
    original.call(this, query, params);
  };
  return () => {
    prototype.logQuery = original;
  };
}
