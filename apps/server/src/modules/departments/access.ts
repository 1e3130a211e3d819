import { sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { forbidden } from '../../platform/errors';

/** 'all' departments of the tenant, or the ids of those a user may manage. */
export type Manageable = 'all' | Set<number>;

/**
 * The departments whose statuses and tasks a user may change (spec section 6): those they head
 * and every descendant. Admins and the company head (the company's main admin, spec section 1)
 * may change every department of the tenant: 'all'.
 */
export async function manageableDepartmentIds(
  db: Executor,
  auth: Pick<RequestAuth, 'userId' | 'isAdmin' | 'tenantId'>,
): Promise<Manageable> {
  if (auth.isAdmin) return 'all';
  if (auth.tenantId === null) return new Set();
  const rows = await selectRows<{ id: number; company_head: boolean }>(
    db,
    sql`
    with recursive headed as (
      select d.id from departments d
      where d.tenant_id = ${auth.tenantId} and d.head_id = ${auth.userId} and not d.archived
      union
      select child.id from departments child join headed on child.parent_id = headed.id
      where not child.archived
    )
    select id, false as company_head from headed
    union all
    select 0 as id, true as company_head from companies
    where tenant_id = ${auth.tenantId} and head_id = ${auth.userId}
  `,
  );
  if (rows.some((row) => row.company_head)) return 'all';
  return new Set(rows.map((row) => Number(row.id)));
}

export function canManage(manageable: Manageable, departmentId: number) {
  return manageable === 'all' || manageable.has(departmentId);
}

/** Spec section 6: 403 with `key` unless the caller manages every one of these departments. */
export function requireManageable(
  manageable: Manageable,
  key: 'ERROR_STATUS_INACCESSIBLE' | 'ERROR_TASK_INACCESSIBLE',
  ...departmentIds: number[]
) {
  if (!departmentIds.every((id) => canManage(manageable, id))) throw forbidden(key);
}
