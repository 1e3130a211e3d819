import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, statuses, tasks } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';

export type TaskRow = Awaited<ReturnType<typeof listTasks>>[number];

/** Tasks of the scope with their status and department, by name. */
export async function listTasks(db: Executor, scope: TenantScope, id?: number) {
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
    .where(and(inScope(tasks.tenantId, scope), id === undefined ? undefined : eq(tasks.id, id)))
    .orderBy(asc(tasks.name), asc(tasks.id));
}

export async function findTask(db: Executor, scope: TenantScope, id: number) {
  const [row] = await listTasks(db, scope, id);
  return row ?? null;
}

export type TaskValues = { name: string; statusId: number; departmentId: number };

export async function insertTask(db: Executor, tenantId: string, values: TaskValues) {
  const [row] = await db
    .insert(tasks)
    .values({ tenantId, ...values })
    .returning({ id: tasks.id });
  return row!.id;
}

export async function updateTask(db: Executor, scope: TenantScope, id: number, values: TaskValues) {
  await db
    .update(tasks)
    .set(values)
    .where(and(eq(tasks.id, id), inScope(tasks.tenantId, scope)));
}

export async function deleteTask(db: Executor, scope: TenantScope, id: number) {
  await db.delete(tasks).where(and(eq(tasks.id, id), inScope(tasks.tenantId, scope)));
}
