import {
  isDeletable,
  isUpdatable,
  type NewSchedule,
  type Schedule,
  type ScheduleListQuery,
  type ScheduleTimes,
} from '@opsdeck/contract/schedules';
import type { Db, Executor } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { oneTenant, scopeOf, type TenantScope, writeTenant } from '../../platform/tenancy';
import { type Manageable, manageableDepartmentIds } from '../departments/access';
import * as q from './queries';

export type SchedulesService = ReturnType<typeof createSchedulesService>;

/**
 * Whose shifts the caller may see and change. Admins and company-level users (COMPANY_ACCESS_LEVEL,
 * or the company head) reach the whole company; anyone else reaches the users of the departments
 * they head and below, the rule statuses and tasks follow (spec section 6).
 */
async function reachOf(db: Executor, caller: RequestAuth): Promise<Manageable> {
  if (caller.isAdmin || caller.authorities.has('COMPANY_ACCESS_LEVEL')) return 'all';
  return manageableDepartmentIds(db, caller);
}

function requireReach(reach: Manageable, departmentIds: readonly (number | null)[]) {
  if (reach === 'all') return;
  if (departmentIds.some((id) => id === null || !reach.has(id))) throw forbidden('ERROR_SCHEDULE_INACCESSIBLE');
}

/** Two shifts of one person overlap when each starts before the other ends. */
function overlapWithin(shifts: readonly q.Shift[]) {
  const sorted = [...shifts].sort((a, b) => a.userId - b.userId || a.scheduleStart - b.scheduleStart);
  return sorted.some(
    (shift, i) => i > 0 && sorted[i - 1]!.userId === shift.userId && sorted[i - 1]!.scheduleEnd > shift.scheduleStart,
  );
}

/** A person booked twice over the same hours is refused (409), within the request or against stored shifts. */
async function refuseOverlaps(
  db: Executor,
  scope: TenantScope,
  shifts: readonly q.Shift[],
  movedIds: readonly number[] = [],
) {
  if (overlapWithin(shifts) || (await q.overlappingShifts(db, scope, shifts, movedIds)).length > 0) {
    throw conflict('ERROR_SCHEDULE_OVERLAP');
  }
}

export function createSchedulesService(deps: { db: Db }) {
  const { db } = deps;
  const load = async (caller: RequestAuth, ids: readonly number[], tenantId?: string): Promise<Schedule[]> =>
    ids.length ? q.schedulesByIds(db, tenantId ? oneTenant(tenantId) : scopeOf(caller), ids) : [];

  return {
    /** The schedules in the caller's reach (every company's for an admin without X-Tenant-Id). */
    async list(caller: RequestAuth, query: ScheduleListQuery): Promise<Schedule[]> {
      const reach = await reachOf(db, caller);
      return q.listSchedules(db, {
        scope: scopeOf(caller),
        ...query,
        ...(reach === 'all' ? {} : { departmentIds: [...reach] }),
      });
    },

    /** One record per user per day, already expanded by the console (spec section 4); all or nothing. */
    async create(caller: RequestAuth, records: readonly NewSchedule[]): Promise<Schedule[]> {
      const tenantId = writeTenant(caller);
      const active = await q.activeUsers(db, tenantId, [...new Set(records.map((record) => record.userId))]);
      const invalid = records.findIndex((record) => !active.has(record.userId));
      if (invalid >= 0) {
        throw badRequest('ERROR_SCHEDULE_USER_INVALID', { [`${invalid}.userId`]: 'ERROR_SCHEDULE_USER_INVALID' });
      }
      requireReach(await reachOf(db, caller), [...active.values()]);
      const ids = await db.transaction(async (tx) => {
        await refuseOverlaps(tx, oneTenant(tenantId), records);
        return q.insertSchedules(tx, tenantId, records);
      });
      return load(caller, ids, tenantId);
    },

    /**
     * New times for schedules that start later than 14 days from now, before and after the
     * change (spec section 9). One locked or unknown id and nothing changes.
     */
    async update(caller: RequestAuth, records: readonly ScheduleTimes[]): Promise<Schedule[]> {
      const byId = new Map(records.map((record) => [record.id, record]));
      const ids = [...byId.keys()];
      const scope = scopeOf(caller);
      const reach = await reachOf(db, caller);
      await db.transaction(async (tx) => {
        const found = await q.lockSchedules(tx, scope, ids);
        if (found.length !== ids.length) throw notFound('ERROR_SCHEDULE_NOT_EXIST');
        requireReach(
          reach,
          found.map((row) => row.departmentId),
        );
        const now = Date.now();
        if (found.some((row) => !isUpdatable(row, now)) || [...byId.values()].some((row) => !isUpdatable(row, now))) {
          throw conflict('ERROR_SCHEDULE_LOCKED');
        }
        const moved = found.map((row) => ({ userId: row.userId, ...byId.get(row.id)! }));
        await refuseOverlaps(tx, scope, moved, ids);
        await q.updateTimes(tx, scope, [...byId.values()]);
      });
      return load(caller, ids);
    },

    /** Archives schedules that start later than now (spec section 9); all or nothing. */
    async archive(caller: RequestAuth, ids: readonly number[]): Promise<{ ids: number[] }> {
      const unique = [...new Set(ids)];
      const scope = scopeOf(caller);
      const reach = await reachOf(db, caller);
      await db.transaction(async (tx) => {
        const found = await q.lockSchedules(tx, scope, unique);
        if (found.length !== unique.length) throw notFound('ERROR_SCHEDULE_NOT_EXIST');
        requireReach(
          reach,
          found.map((row) => row.departmentId),
        );
        const now = Date.now();
        if (found.some((row) => !isDeletable(row, now))) throw conflict('ERROR_SCHEDULE_LOCKED');
        await q.archiveSchedules(tx, scope, unique);
      });
      return { ids: unique };
    },
  };
}
