import { and, asc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, selectRows } from '../../db/client';
import { schedules, users } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';

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

/** LIKE pattern characters typed by a user match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export type ScheduleFilter = {
  scope: TenantScope;
  from?: number;
  to?: number;
  userName?: string;
  /** Only the users of these departments (a department head's reach); every user when absent. */
  departmentIds?: readonly number[];
};

/** Non-archived schedules overlapping [from, to], by start then name. */
export function listSchedules(db: Executor, filter: ScheduleFilter) {
  const conditions: (SQL | undefined)[] = [eq(schedules.archived, false), inScope(schedules.tenantId, filter.scope)];
  if (filter.departmentIds) conditions.push(inArray(users.departmentId, [...filter.departmentIds, 0]));
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

export function schedulesByIds(db: Executor, scope: TenantScope, ids: readonly number[]) {
  return db
    .select(scheduleColumns)
    .from(schedules)
    .innerJoin(users, eq(users.id, schedules.userId))
    .where(and(inArray(schedules.id, [...ids]), inScope(schedules.tenantId, scope)))
    .orderBy(asc(schedules.scheduleStart), asc(users.firstName), asc(users.lastName), asc(schedules.id));
}

/** The non-archived schedules in scope among `ids`, with their user's department, locked for the caller's transaction. */
export function lockSchedules(db: Executor, scope: TenantScope, ids: readonly number[]) {
  return db
    .select({
      id: schedules.id,
      tenantId: schedules.tenantId,
      userId: schedules.userId,
      departmentId: users.departmentId,
      scheduleStart: schedules.scheduleStart,
    })
    .from(schedules)
    .innerJoin(users, eq(users.id, schedules.userId))
    .where(and(inArray(schedules.id, [...ids]), eq(schedules.archived, false), inScope(schedules.tenantId, scope)))
    .for('update', { of: schedules });
}

/** The users among `userIds` of the tenant who are not archived, with their department. */
export async function activeUsers(db: Executor, tenantId: string, userIds: readonly number[]) {
  const rows = await db
    .select({ id: users.id, departmentId: users.departmentId })
    .from(users)
    .where(and(inArray(users.id, [...userIds]), eq(users.tenantId, tenantId), eq(users.archived, false)));
  return new Map(rows.map((row) => [row.id, row.departmentId]));
}

export type Shift = { userId: number; scheduleStart: number; scheduleEnd: number };

/** `s` of the overlap query below. */
const stored = alias(schedules, 's');

/**
 * Stored, non-archived shifts of the scope that overlap one of `shifts` for the same user (the
 * schedules `exceptIds` are being moved, so they do not count). Served by schedules_user_start_idx.
 */
export async function overlappingShifts(
  db: Executor,
  scope: TenantScope,
  shifts: readonly Shift[],
  exceptIds: readonly number[] = [],
) {
  if (shifts.length === 0) return [];
  const values = sql.join(
    shifts.map((shift) => sql`(${shift.userId}::int, ${shift.scheduleStart}::int8, ${shift.scheduleEnd}::int8)`),
    sql`, `,
  );
  const owner = inScope(stored.tenantId, scope);
  const except = exceptIds.length
    ? sql`and s.id not in (${sql.join(
        exceptIds.map((id) => sql`${id}::int`),
        sql`, `,
      )})`
    : sql``;
  const rows = await selectRows<{ user_id: number; schedule_start: string | number; schedule_end: string | number }>(
    db,
    sql`select distinct s.user_id, s.schedule_start, s.schedule_end
      from ${schedules} s join (values ${values}) as v(user_id, schedule_start, schedule_end)
        on s.user_id = v.user_id and s.schedule_start < v.schedule_end and s.schedule_end > v.schedule_start
      where not s.archived ${owner ? sql`and ${owner}` : sql``} ${except}
      limit 20`,
  );
  return rows.map((row) => ({
    userId: Number(row.user_id),
    scheduleStart: Number(row.schedule_start),
    scheduleEnd: Number(row.schedule_end),
  }));
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

/** New times for many schedules of the scope in one statement. */
export async function updateTimes(
  db: Executor,
  scope: TenantScope,
  rows: readonly { id: number; scheduleStart: number; scheduleEnd: number }[],
) {
  const values = sql.join(
    rows.map((row) => sql`(${row.id}::int, ${row.scheduleStart}::int8, ${row.scheduleEnd}::int8)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${schedules} set schedule_start = v.schedule_start, schedule_end = v.schedule_end
    from (values ${values}) as v(id, schedule_start, schedule_end)
    where ${and(sql`${schedules.id} = v.id`, inScope(schedules.tenantId, scope))}`);
}

export async function archiveSchedules(db: Executor, scope: TenantScope, ids: readonly number[]) {
  await db
    .update(schedules)
    .set({ archived: true })
    .where(and(inArray(schedules.id, [...ids]), eq(schedules.archived, false), inScope(schedules.tenantId, scope)));
}
