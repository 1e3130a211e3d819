import { and, asc, eq, exists, inArray, ne, not, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, selectRows } from '../../db/client';
import { companies, departments, roleAuthorities, statuses, tasks, userRoles, users } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';

const head = alias(users, 'head');
const parent = alias(departments, 'parent');

const departmentColumns = {
  id: departments.id,
  name: departments.name,
  headId: departments.headId,
  headFirstName: head.firstName,
  headLastName: head.lastName,
  parentId: departments.parentId,
  parentName: parent.name,
  tenantId: departments.tenantId,
  companyName: companies.name,
  archived: departments.archived,
};

export type DepartmentRow = Awaited<ReturnType<typeof listDepartments>>[number];

/** Non-archived departments of the scope with head, parent and company, by name; `ids` narrows to those ids. */
export async function listDepartments(db: Executor, scope: TenantScope, ids?: readonly number[]) {
  return db
    .select(departmentColumns)
    .from(departments)
    .innerJoin(companies, eq(companies.tenantId, departments.tenantId))
    .leftJoin(head, eq(head.id, departments.headId))
    .leftJoin(parent, eq(parent.id, departments.parentId))
    .where(
      and(
        not(departments.archived),
        inScope(departments.tenantId, scope),
        ids === undefined ? undefined : inArray(departments.id, [...ids]),
      ),
    )
    .orderBy(asc(sql`lower(${departments.name})`), asc(departments.id));
}

/** One non-archived department inside the scope, or undefined: the one department lookup every area uses. */
export async function findDepartment(db: Executor, scope: TenantScope, id: number) {
  const [row] = await db
    .select(departmentColumns)
    .from(departments)
    .innerJoin(companies, eq(companies.tenantId, departments.tenantId))
    .leftJoin(head, eq(head.id, departments.headId))
    .leftJoin(parent, eq(parent.id, departments.parentId))
    .where(and(eq(departments.id, id), not(departments.archived), inScope(departments.tenantId, scope)));
  return row;
}

/** Whether another department of the tenant (archived ones included: the unique index holds them) has this name. */
export async function nameTaken(db: Executor, tenantId: string, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.tenantId, tenantId),
        eq(sql`lower(${departments.name})`, name.toLowerCase()),
        exceptId === undefined ? undefined : ne(departments.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The ids of a department of the scope and every department below it (empty outside the scope). */
export async function subtreeIds(db: Executor, scope: TenantScope, id: number): Promise<Set<number>> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`
    with recursive subtree as (
      select id from departments where ${and(eq(departments.id, id), inScope(departments.tenantId, scope))}
      union
      select child.id from departments child join subtree on child.parent_id = subtree.id
    )
    select id from subtree
  `,
  );
  return new Set(rows.map((row) => Number(row.id)));
}

export async function hasChildren(db: Executor, scope: TenantScope, id: number) {
  const [row] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.parentId, id), inScope(departments.tenantId, scope)))
    .limit(1);
  return row !== undefined;
}

/** Statuses, or tasks (which hang off statuses), of the scope that name this department. */
export async function hasStatusesOrTasks(db: Executor, scope: TenantScope, id: number) {
  const [status] = await db
    .select({ id: statuses.id })
    .from(statuses)
    .where(and(eq(statuses.departmentId, id), inScope(statuses.tenantId, scope)))
    .limit(1);
  if (status) return true;
  const [task] = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.departmentId, id), inScope(tasks.tenantId, scope)))
    .limit(1);
  return task !== undefined;
}

export async function insertDepartment(
  db: Executor,
  values: { tenantId: string; name: string; headId: number; parentId: number | null },
) {
  const [row] = await db.insert(departments).values(values).returning({ id: departments.id });
  return row!.id;
}

export async function updateDepartment(
  db: Executor,
  scope: TenantScope,
  id: number,
  values: { name: string; headId: number; parentId: number | null },
) {
  await db
    .update(departments)
    .set(values)
    .where(and(eq(departments.id, id), inScope(departments.tenantId, scope)));
}

export async function deleteDepartment(db: Executor, scope: TenantScope, id: number) {
  await db.delete(departments).where(and(eq(departments.id, id), inScope(departments.tenantId, scope)));
}

/** Users whose roles hold a level that qualifies them to head a department. */
const qualifiesAsHead = (db: Executor) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(userRoles)
      .innerJoin(roleAuthorities, eq(roleAuthorities.roleId, userRoles.roleId))
      .where(
        and(
          eq(userRoles.userId, users.id),
          inArray(roleAuthorities.authorityKey, ['DEPARTMENT_ACCESS_LEVEL', 'COMPANY_ACCESS_LEVEL']),
        ),
      ),
  );

/**
 * Who may head a department of the tenant: non-archived users whose roles hold
 * DEPARTMENT_ACCESS_LEVEL or COMPANY_ACCESS_LEVEL, plus the department's current head (so an
 * unchanged head always passes). With `departmentId`, that department's own users come first.
 */
export async function headCandidates(db: Executor, tenantId: string, departmentId?: number, currentHeadId?: number) {
  const qualifies = qualifiesAsHead(db);
  const inDepartment = departmentId === undefined ? sql`false` : sql`${users.departmentId} = ${departmentId}`;
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      emailAddress: users.emailAddress,
    })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        not(users.archived),
        currentHeadId === undefined ? qualifies : or(qualifies, eq(users.id, currentHeadId)),
      ),
    )
    .orderBy(
      sql`case when ${inDepartment} then 0 else 1 end`,
      asc(sql`lower(${users.firstName})`),
      asc(sql`lower(${users.lastName})`),
      asc(users.id),
    );
}

/** Whether `userId` is on the tenant's department-head list (see headCandidates). */
export async function isHeadCandidate(db: Executor, tenantId: string, userId: number, currentHeadId?: number) {
  if (userId === currentHeadId) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.tenantId, tenantId), not(users.archived)));
    return row !== undefined;
  }
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.tenantId, tenantId), not(users.archived), qualifiesAsHead(db)));
  return row !== undefined;
}

/** Whether the user heads a department of the scope that is not archived. */
export async function headsDepartment(db: Executor, scope: TenantScope, userId: number) {
  const [row] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.headId, userId), eq(departments.archived, false), inScope(departments.tenantId, scope)))
    .limit(1);
  return row !== undefined;
}
