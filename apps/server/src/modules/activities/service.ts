import type {
  Activity,
  CatalogueActivity,
  LicenseTypeActivities,
  LicenseTypeKey,
  SaveActivity,
} from '@opsdeck/contract/activities';
import type { Db } from '../../db/client';
import { type RequestAuth, requireProvider } from '../../platform/access';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { conflict, notFound } from '../../platform/errors';
import * as q from './queries';

function toActivity(row: q.ActivityRow): Activity {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    category: row.category,
    partial: row.partial ? 1 : 0,
    isPartial: row.partial,
    createDate: row.createdAt,
  };
}

export type ActivitiesService = ReturnType<typeof createActivitiesService>;

/**
 * The provider's activity catalogue (spec sections 3, 5, 8): one list for every company, so no
 * tenant scope. Anyone with the routes' read authorities reads it; only the provider changes it.
 */
export function createActivitiesService(deps: { db: Db }) {
  const { db } = deps;

  /** A key another live activity holds answers 409 on the key field. */
  async function uniqueKey<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (hasSqlState(error, SQLSTATE.uniqueViolation)) {
        throw conflict('ERROR_ACTIVITY_KEY_DUPLICATE', { key: 'ERROR_ACTIVITY_KEY_DUPLICATE' });
      }
      throw error;
    }
  }

  return {
    async list(): Promise<Activity[]> {
      return (await q.listActivities(db)).map(toActivity);
    },

    async get(_auth: unknown, id: number): Promise<Activity> {
      const row = await q.findActivity(db, id);
      if (!row) throw notFound('ERROR_ACTIVITY_NOT_EXIST');
      return toActivity(row);
    },

    async create(auth: RequestAuth, body: SaveActivity): Promise<Activity> {
      requireProvider(auth);
      return toActivity(await uniqueKey(() => q.insertActivity(db, body)));
    },

    async update(auth: RequestAuth, id: number, body: SaveActivity): Promise<Activity> {
      requireProvider(auth);
      const row = await uniqueKey(() => q.updateActivity(db, id, body));
      if (!row) throw notFound('ERROR_ACTIVITY_NOT_EXIST');
      return toActivity(row);
    },

    /** The catalogue as the premium page lists it: `premium` when the 'pro' type unlocks it. */
    async premium(): Promise<CatalogueActivity[]> {
      return (await q.listWithLicenseType(db, 'pro')).map((row) => ({
        ...toActivity(row.activity),
        premium: row.unlocked,
      }));
    },

    /** The activities a licence type unlocks. */
    async ofLicenseType(key: LicenseTypeKey): Promise<Activity[]> {
      return (await q.listWithLicenseType(db, key))
        .filter((row) => row.unlocked)
        .map((row) => toActivity(row.activity));
    },

    /**
     * The premium toggle (spec section 4): `unlock` adds the activities to the licence type, else
     * removes them. Every id must be a live activity, or nothing changes.
     */
    async setUnlocked(auth: RequestAuth, body: LicenseTypeActivities, unlock: boolean): Promise<void> {
      requireProvider(auth);
      const ids = [...new Set(body.activities.map((activity) => activity.id))];
      await db.transaction(async (tx) => {
        if ((await q.countLive(tx, ids)) !== ids.length) throw notFound('ERROR_ACTIVITY_NOT_EXIST');
        if (unlock) await q.unlockActivities(tx, body.licenseType, ids);
        else await q.lockActivities(tx, body.licenseType, ids);
      });
    },

    /** Archived, not deleted (spec section 4): workflows that used it keep its name. */
    async remove(auth: RequestAuth, id: number): Promise<void> {
      requireProvider(auth);
      if (!(await q.archiveActivity(db, id, Date.now()))) throw notFound('ERROR_ACTIVITY_NOT_EXIST');
    },
  };
}
