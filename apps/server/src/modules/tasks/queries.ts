import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, statuses, tasks } from '../../db/schema';

export type TaskRow = Awaited<ReturnType<typeof listTasks>>[number];

/** Tasks with their status and department, of one tenant (or of every tenant with `tenantId` null). */
export async function listTasks(db: Executor, tenantId: string | null, id?: number) {
  const filters: SQL[] = [];
  if (tenantId !== null) filters.push(eq(tasks.tenantId, tenantId));
  if (id !== undefined) filters.push(eq(tasks.id, id));
  return db
    .select({
      id: tasks.id,
      tenantId: tasks.tenantId,
      name: tasks.name,
      statusId: tasks.statusId,
      statusName: statuses.name,
      departmentId: tasks.departmentId,
      departmentName: departments.name,
    })
    .from(tasks)
    .innerJoin(statuses, eq(statuses.id, tasks.statusId))
    .innerJoin(departments, eq(departments.id, tasks.departmentId))
    .where(and(...filters))
    .orderBy(asc(tasks.name), asc(tasks.id));
}

export async function findTask(db: Executor, tenantId: string | null, id: number) {
  const [row] = await listTasks(db, tenantId, id);
  return row ?? null;
}

export async function statusExists(db: Executor, tenantId: string, id: number) {
  const [row] = await db
    .select({ id: statuses.id })
    .from(statuses)
    .where(and(eq(statuses.id, id), eq(statuses.tenantId, tenantId)));
  return Boolean(row);
}

export async function departmentExists(db: Executor, tenantId: string, id: number) {
  const [row] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.id, id), eq(departments.tenantId, tenantId), eq(departments.archived, false)));
  return Boolean(row);
}

export type TaskValues = { name: string; statusId: number; departmentId: number };

export async function insertTask(db: Executor, tenantId: string, values: TaskValues) {
  const [row] = await db
    .insert(tasks)
    .values({ tenantId, ...values })
    .returning({ id: tasks.id });
  return row!.id;
}

export async function updateTask(db: Executor, tenantId: string, id: number, values: TaskValues) {
  await db
    .update(tasks)
    .set(values)
    .where(and(eq(tasks.id, id), eq(tasks.tenantId, tenantId)));
}

export async function deleteTask(db: Executor, tenantId: string, id: number) {
  await db.delete(tasks).where(and(eq(tasks.id, id), eq(tasks.tenantId, tenantId)));
}
