import {
  isDeletable,
  isUpdatable,
  type NewSchedule,
  type Schedule,
  type ScheduleListQuery,
  type ScheduleTimes,
} from '@opsdeck/contract/schedules';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { readTenant, writeTenant } from '../../platform/tenancy';
import type { AuthService } from '../auth/service';
import * as q from './queries';

export type SchedulesService = ReturnType<typeof createSchedulesService>;

export function createSchedulesService(deps: { db: Db; auth: AuthService }) {
  const { db } = deps;
  const load = async (ids: readonly number[]): Promise<Schedule[]> => (ids.length ? q.schedulesByIds(db, ids) : []);

  return {
    /** The tenant's schedules (every company's for an admin without X-Tenant-Id). */
    list: (caller: RequestAuth, query: ScheduleListQuery): Promise<Schedule[]> =>
      q.listSchedules(db, { tenantId: readTenant(caller), ...query }),

    /** One record per user per day, already expanded by the console (spec section 4); all or nothing. */
    async create(caller: RequestAuth, records: readonly NewSchedule[]): Promise<Schedule[]> {
      const tenantId = writeTenant(caller);
      const active = await q.activeUserIds(db, tenantId, [...new Set(records.map((record) => record.userId))]);
      const invalid = records.findIndex((record) => !active.has(record.userId));
      if (invalid >= 0) {
        throw badRequest('ERROR_SCHEDULE_USER_INVALID', { [`${invalid}.userId`]: 'ERROR_SCHEDULE_USER_INVALID' });
      }
      const ids = await db.transaction((tx) => q.insertSchedules(tx, tenantId, records));
      return load(ids);
    },

    /**
     * New times for schedules that start later than 14 days from now, before and after the
     * change (spec section 9). One locked or unknown id and nothing changes.
     */
    async update(caller: RequestAuth, records: readonly ScheduleTimes[]): Promise<Schedule[]> {
      const byId = new Map(records.map((record) => [record.id, record]));
      const ids = [...byId.keys()];
      await db.transaction(async (tx) => {
        const found = await q.lockSchedules(tx, readTenant(caller), ids);
        if (found.length !== ids.length) throw notFound('ERROR_SCHEDULE_NOT_EXIST');
        const now = Date.now();
        if (found.some((row) => !isUpdatable(row, now)) || [...byId.values()].some((row) => !isUpdatable(row, now))) {
          throw conflict('ERROR_SCHEDULE_LOCKED');
        }
        await q.updateTimes(tx, [...byId.values()]);
      });
      return load(ids);
    },

    /** Archives schedules that start later than now (spec section 9); all or nothing. */
    async archive(caller: RequestAuth, ids: readonly number[]): Promise<{ ids: number[] }> {
      const unique = [...new Set(ids)];
      await db.transaction(async (tx) => {
        const found = await q.lockSchedules(tx, readTenant(caller), unique);
        if (found.length !== unique.length) throw notFound('ERROR_SCHEDULE_NOT_EXIST');
        const now = Date.now();
        if (found.some((row) => !isDeletable(row, now))) throw conflict('ERROR_SCHEDULE_LOCKED');
        await q.archiveSchedules(tx, unique);
      });
      return { ids: unique };
    },
  };
}
