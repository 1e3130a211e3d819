import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, statuses, tasks } from '../../db/schema';

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
  editable: statuses.editable,
};

export type StatusRow = Awaited<ReturnType<typeof listStatuses>>[number];

/** Statuses with their department, of one tenant (or of every tenant with `tenantId` null). */
export async function listStatuses(db: Executor, tenantId: string | null, id?: number) {
  const filters: SQL[] = [];
  if (tenantId !== null) filters.push(eq(statuses.tenantId, tenantId));
  if (id !== undefined) filters.push(eq(statuses.id, id));
  return db
    .select(statusColumns)
    .from(statuses)
    .innerJoin(departments, eq(departments.id, statuses.departmentId))
    .where(and(...filters))
    .orderBy(asc(statuses.name), asc(statuses.id));
}

export async function findStatus(db: Executor, tenantId: string | null, id: number) {
  const [row] = await listStatuses(db, tenantId, id);
  return row ?? null;
}

/** A live (not archived) department of the tenant, or null. */
export async function findDepartment(db: Executor, tenantId: string, id: number) {
  const [row] = await db
    .select({ id: departments.id, name: departments.name })
    .from(departments)
    .where(and(eq(departments.id, id), eq(departments.tenantId, tenantId), eq(departments.archived, false)));
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
  values: StatusValues & { icon: Buffer; fileName: string; editable?: boolean },
) {
  const [row] = await db
    .insert(statuses)
    .values({ tenantId, ...values })
    .returning({ id: statuses.id });
  return row!.id;
}

export async function updateStatus(db: Executor, tenantId: string, id: number, values: StatusValues) {
  await db
    .update(statuses)
    .set(values)
    .where(and(eq(statuses.id, id), eq(statuses.tenantId, tenantId)));
}

export async function deleteStatus(db: Executor, tenantId: string, id: number) {
  await db.delete(statuses).where(and(eq(statuses.id, id), eq(statuses.tenantId, tenantId)));
}

export async function countTasksOfStatus(db: Executor, statusId: number) {
  const [row] = await db.select({ n: count() }).from(tasks).where(eq(tasks.statusId, statusId));
  return Number(row?.n ?? 0);
}
