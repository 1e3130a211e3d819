import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CLIENT_DATA_ERRORS, hasSqlState, isDatabaseUnavailable, retryDeadlocks } from './database-errors';

/** An error as node-postgres or PGlite gives it, wrapped by Drizzle as every query failure is. */
const failedQuery = (cause: unknown) => new DrizzleQueryError('select 1', [], cause as Error);
const withCode = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'admin shutdown (pg_ctl stop -m fast)',
      withCode('terminating connection due to administrator command', { code: '57P01' }),
    ],
    ['the database is starting or stopping', withCode('the database system is shutting down', { code: '57P03' })],
    ['a connection exception', withCode('connection failure', { code: '08006' })],
    ['too many connections', withCode('sorry, too many clients already', { code: '53300' })],
    ['an I/O error', withCode('could not read block', { code: '58030' })],
    [
      'a refused connection',
      withCode('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', syscall: 'connect' }),
    ],
    ['a socket that is gone', withCode('connect ENOENT /tmp/.s.PGSQL.5432', { code: 'ENOENT', syscall: 'connect' })],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a pool that waited too long', new Error('timeout exceeded when trying to connect')],
    ['a client that lost its connection', new Error('Client has encountered a connection error and is not queryable')],
    ['a closed PGlite', new Error('PGlite is closed')],
    ['an engine abort without SQLSTATE', new Error('RuntimeError: unreachable')],
  ])('says yes to %s, wrapped by Drizzle', (_, cause) => {
    expect(isDatabaseUnavailable(failedQuery(cause))).toBe(true);
  });

  it.each([
    ['a duplicate', withCode('duplicate key value', { code: '23505' })],
    ['a missing row a foreign key names', withCode('violates foreign key constraint', { code: '23503' })],
    ['a client value (NUL byte)', withCode('invalid byte sequence', { code: '22021' })],
    ['a bad cast', withCode('invalid input syntax for type integer', { code: '22P02' })],
    ['a bug in a statement', withCode('column "nope" does not exist', { code: '42703' })],
    ['a programming error in a parameter', new TypeError('Converting circular structure to JSON')],
  ])('says no to %s', (_, cause) => {
    expect(isDatabaseUnavailable(failedQuery(cause))).toBe(false);
  });

  it('says no to errors that never came from a query', () => {
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('no such file', { code: 'ENOENT', syscall: 'open' }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('leaves client data errors to hasSqlState', () => {
    expect(hasSqlState(failedQuery(withCode('out of range', { code: '22003' })), ...CLIENT_DATA_ERRORS)).toBe(true);
  });
});

describe('retryDeadlocks', () => {
  const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

  it('runs a transaction again when PostgreSQL broke a deadlock, up to three times in all', async () => {
    let runs = 0;
    const answer = await retryDeadlocks(async () => {
      runs += 1;
      if (runs < 3) throw new DrizzleQueryError('insert …', [], deadlock());
      return 'stored';
    });
    expect([answer, runs]).toEqual(['stored', 3]);
    runs = 0;
    await expect(
      retryDeadlocks(async () => {
        runs += 1;
        throw deadlock();
      }),
    ).rejects.toThrow('deadlock detected');
    expect(runs).toBe(3);
  });

  it('lets any other failure through at once', async () => {
    let runs = 0;
    await expect(
      retryDeadlocks(async () => {
        runs += 1;
        throw Object.assign(new Error('duplicate key'), { code: '23505' });
      }),
    ).rejects.toThrow('duplicate key');
    expect(runs).toBe(1);
  });
});
