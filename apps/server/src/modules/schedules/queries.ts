import { and, asc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { schedules, users } from '../../db/schema';

const scheduleColumns = {
  id: schedules.id,
  userId: schedules.userId,
  firstName: users.firstName,
  lastName: users.lastName,
  scheduleStart: schedules.scheduleStart,
  scheduleEnd: schedules.scheduleEnd,
  archived: schedules.archived,
  tenantId: schedules.tenantId,
};

const inTenant = (tenantId: string | null) => (tenantId === null ? undefined : eq(schedules.tenantId, tenantId));

/** LIKE pattern characters typed by a user match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export type ScheduleFilter = { tenantId: string | null; from?: number; to?: number; userName?: string };

/** Non-archived schedules overlapping [from, to], by start then name. */
export function listSchedules(db: Executor, filter: ScheduleFilter) {
  const conditions: (SQL | undefined)[] = [eq(schedules.archived, false), inTenant(filter.tenantId)];
  if (filter.from !== undefined) conditions.push(gte(schedules.scheduleEnd, filter.from));
  if (filter.to !== undefined) conditions.push(lte(schedules.scheduleStart, filter.to));
  if (filter.userName) {
    conditions.push(sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${`%${escapeLike(filter.userName)}%`}`);
  }
  return db
    .select(scheduleColumns)
    .from(schedules)
    .innerJoin(users, eq(users.id, schedules.userId))
    .where(and(...conditions))
    .orderBy(asc(schedules.scheduleStart), asc(users.firstName), asc(users.lastName), asc(schedules.id));
}

export function schedulesByIds(db: Executor, ids: readonly number[]) {
  return db
    .select(scheduleColumns)
    .from(schedules)
    .innerJoin(users, eq(users.id, schedules.userId))
    .where(inArray(schedules.id, [...ids]))
    .orderBy(asc(schedules.scheduleStart), asc(users.firstName), asc(users.lastName), asc(schedules.id));
}

/** The non-archived schedules of the tenant among `ids`, locked for the caller's transaction. */
export function lockSchedules(db: Executor, tenantId: string | null, ids: readonly number[]) {
  return db
    .select({ id: schedules.id, scheduleStart: schedules.scheduleStart })
    .from(schedules)
    .where(and(inArray(schedules.id, [...ids]), eq(schedules.archived, false), inTenant(tenantId)))
    .for('update');
}

/** The ids among `userIds` of users of the tenant who are not archived. */
export async function activeUserIds(db: Executor, tenantId: string, userIds: readonly number[]) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...userIds]), eq(users.tenantId, tenantId), eq(users.archived, false)));
  return new Set(rows.map((row) => row.id));
}

export async function insertSchedules(
  db: Executor,
  tenantId: string,
  rows: readonly { userId: number; scheduleStart: number; scheduleEnd: number }[],
) {
  const inserted = await db
    .insert(schedules)
    .values(rows.map((row) => ({ tenantId, ...row, archived: false })))
    .returning({ id: schedules.id });
  return inserted.map((row) => row.id);
}

/** New times for many schedules in one statement. */
export async function updateTimes(
  db: Executor,
  rows: readonly { id: number; scheduleStart: number; scheduleEnd: number }[],
) {
  const values = sql.join(
    rows.map((row) => sql`(${row.id}::int, ${row.scheduleStart}::int8, ${row.scheduleEnd}::int8)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${schedules} set schedule_start = v.schedule_start, schedule_end = v.schedule_end
    from (values ${values}) as v(id, schedule_start, schedule_end)
    where ${schedules.id} = v.id`);
}

export async function archiveSchedules(db: Executor, ids: readonly number[]) {
  await db
    .update(schedules)
    .set({ archived: true })
    .where(and(inArray(schedules.id, [...ids]), eq(schedules.archived, false)));
}
