import type { Db, Executor } from '../../db/client';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { type AppError, notFound } from '../../platform/errors';
import { oneTenant } from '../../platform/tenancy';
import type { DirectoryPlace } from './places';
import * as q from './queries';

/**
 * How every write into the tree is made (docs/workflows.md): in one transaction that first locks
 * the directory written into, so that two writes of one name meet in turn, and with a
 * unique-index race on a name answered as the check before it would have.
 */

/** Runs a write; a unique-index race on a file or directory name answers as the check before it would. */
export async function write<T>(db: Db, work: (tx: Executor) => Promise<T>, nameClash: AppError): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    if (hasSqlState(error, SQLSTATE.uniqueViolation)) throw nameClash;
    throw error;
  }
}

/** Locks the directory a write goes into; one removed meanwhile answers 404. */
export async function lockPlace(tx: Executor, place: DirectoryPlace) {
  const locked = await q.lockDirectory(tx, oneTenant(place.tenantId), place.directory.id);
  if (!locked) throw notFound('ERROR_DIRECTORY_NOT_EXIST');
  return locked;
}
