import type { SaveActivity } from '@opsdeck/contract/activities';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { activities, licenseTypeActivities } from '../../db/schema';

export type ActivityRow = typeof activities.$inferSelect;

const live = isNull(activities.archivedAt);

/** The live catalogue, by name. */
export async function listActivities(db: Executor): Promise<ActivityRow[]> {
  return db.select().from(activities).where(live).orderBy(asc(activities.name), asc(activities.id));
}

/** A live activity; archived ones are as if they did not exist (spec section 8). */
export async function findActivity(db: Executor, id: number): Promise<ActivityRow | undefined> {
  const [row] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.id, id), live));
  return row;
}

export async function insertActivity(db: Executor, body: SaveActivity): Promise<ActivityRow> {
  const [row] = await db.insert(activities).values(body).returning();
  return row!;
}

export async function updateActivity(db: Executor, id: number, body: SaveActivity): Promise<ActivityRow | undefined> {
  const [row] = await db
    .update(activities)
    .set(body)
    .where(and(eq(activities.id, id), live))
    .returning();
  return row;
}

/** Archives a live activity; false when there was none. */
export async function archiveActivity(db: Executor, id: number, now: number): Promise<boolean> {
  const rows = await db
    .update(activities)
    .set({ archivedAt: now })
    .where(and(eq(activities.id, id), live))
    .returning({ id: activities.id });
  return rows.length > 0;
}

/** The live catalogue with whether `licenseType` unlocks each one, by name. */
export async function listWithLicenseType(db: Executor, licenseType: string) {
  return db
    .select({
      activity: activities,
      unlocked: sql<boolean>`${licenseTypeActivities.activityId} is not null`,
    })
    .from(activities)
    .leftJoin(
      licenseTypeActivities,
      and(eq(licenseTypeActivities.activityId, activities.id), eq(licenseTypeActivities.licenseTypeKey, licenseType)),
    )
    .where(live)
    .orderBy(asc(activities.name), asc(activities.id));
}

/** How many of `ids` are live activities. */
export async function countLive(db: Executor, ids: readonly number[]): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(activities)
    .where(and(inArray(activities.id, [...ids]), live));
  return row?.count ?? 0;
}

export async function unlockActivities(db: Executor, licenseType: string, ids: readonly number[]) {
  await db
    .insert(licenseTypeActivities)
    .values(ids.map((activityId) => ({ licenseTypeKey: licenseType, activityId })))
    .onConflictDoNothing();
}

export async function lockActivities(db: Executor, licenseType: string, ids: readonly number[]) {
  await db
    .delete(licenseTypeActivities)
    .where(
      and(eq(licenseTypeActivities.licenseTypeKey, licenseType), inArray(licenseTypeActivities.activityId, [...ids])),
    );
}
