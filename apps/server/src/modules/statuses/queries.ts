import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, statuses, tasks } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';

const statusColumns = {
  id: statuses.id,
  tenantId: statuses.tenantId,
  name: statuses.name,
  departmentId: statuses.departmentId,
  departmentName: departments.name,
  threshold: statuses.threshold,
  color: statuses.color,
  icon: statuses.icon,
  fileName: statuses.fileName,
  trackIdle: statuses.trackIdle,
  builtIn: statuses.builtIn,
};

export type StatusRow = Awaited<ReturnType<typeof listStatuses>>[number];

/** Statuses of the scope with their department, by name. */
export async function listStatuses(db: Executor, scope: TenantScope, id?: number) {
  return db
    .select(statusColumns)
    .from(statuses)
    .innerJoin(departments, eq(departments.id, statuses.departmentId))
    .where(and(inScope(statuses.tenantId, scope), id === undefined ? undefined : eq(statuses.id, id)))
    .orderBy(asc(statuses.name), asc(statuses.id));
}

export async function findStatus(db: Executor, scope: TenantScope, id: number) {
  const [row] = await listStatuses(db, scope, id);
  return row ?? null;
}

export type StatusValues = {
  name: string;
  departmentId: number;
  threshold: number;
  color: string;
  trackIdle: boolean;
  icon?: Buffer;
  fileName?: string;
};

export async function insertStatus(
  db: Executor,
  tenantId: string,
  values: StatusValues & { icon: Buffer; fileName: string; builtIn?: boolean },
) {
  const [row] = await db
    .insert(statuses)
    .values({ tenantId, ...values })
    .returning({ id: statuses.id });
  return row!.id;
}

export async function updateStatus(db: Executor, scope: TenantScope, id: number, values: StatusValues) {
  await db
    .update(statuses)
    .set(values)
    .where(and(eq(statuses.id, id), inScope(statuses.tenantId, scope)));
}

export async function deleteStatus(db: Executor, scope: TenantScope, id: number) {
  await db.delete(statuses).where(and(eq(statuses.id, id), inScope(statuses.tenantId, scope)));
}

export async function countTasksOfStatus(db: Executor, scope: TenantScope, statusId: number) {
  const [row] = await db
    .select({ n: count() })
    .from(tasks)
    .where(and(eq(tasks.statusId, statusId), inScope(tasks.tenantId, scope)));
  return Number(row?.n ?? 0);
}
