import type { SaveTask, Task } from '@opsdeck/contract/tasks';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { badRequest, notFound } from '../../platform/errors';
import { oneTenant, scopeOf, writeTenant } from '../../platform/tenancy';
import { canManage, type Manageable, manageableDepartmentIds, requireManageable } from '../departments/access';
import { findDepartment } from '../departments/queries';
import { findStatus } from '../statuses/queries';
import * as q from './queries';

/** A task as the caller sees it: `editable` says whether they may change it (spec section 6). */
function toTask(row: q.TaskRow, manageable: Manageable): Task {
  return {
    id: row.id,
    name: row.name,
    status: { id: row.statusId, name: row.statusName },
    department: { id: row.departmentId, name: row.departmentName },
    editable: canManage(manageable, row.departmentId),
    tenantId: row.tenantId,
  };
}

export type TasksService = ReturnType<typeof createTasksService>;

export function createTasksService(deps: { db: Db }) {
  const { db } = deps;

  async function load(auth: RequestAuth, id: number) {
    const row = await q.findTask(db, scopeOf(auth), id);
    if (!row) throw notFound('ERROR_TASK_NOT_EXIST');
    return row;
  }

  /** The status and the department named in the body must be the tenant's (else as if not there). */
  async function requireReferences(tenantId: string, body: SaveTask) {
    const fields: Record<string, 'ERROR_STATUS_NOT_EXIST' | 'ERROR_DEPARTMENT_NOT_EXIST'> = {};
    const scope = oneTenant(tenantId);
    if (!(await findStatus(db, scope, body.statusId))) fields.statusId = 'ERROR_STATUS_NOT_EXIST';
    if (!(await findDepartment(db, scope, body.departmentId))) fields.departmentId = 'ERROR_DEPARTMENT_NOT_EXIST';
    const first = Object.values(fields)[0];
    if (first) throw badRequest(first, fields);
  }

  return {
    /** Every task of the tenant; an admin with no X-Tenant-Id reads every company's. */
    async list(auth: RequestAuth): Promise<Task[]> {
      const manageable = await manageableDepartmentIds(db, auth);
      return (await q.listTasks(db, scopeOf(auth))).map((row) => toTask(row, manageable));
    },

    async get(auth: RequestAuth, id: number): Promise<Task> {
      return toTask(await load(auth, id), await manageableDepartmentIds(db, auth));
    },

    async create(auth: RequestAuth, body: SaveTask): Promise<Task> {
      const tenantId = writeTenant(auth);
      await requireReferences(tenantId, body);
      const manageable = await manageableDepartmentIds(db, auth);
      requireManageable(manageable, 'ERROR_TASK_INACCESSIBLE', body.departmentId);
      const id = await q.insertTask(db, tenantId, body);
      return toTask((await q.findTask(db, oneTenant(tenantId), id))!, manageable);
    },

    async update(auth: RequestAuth, id: number, body: SaveTask): Promise<Task> {
      const current = await load(auth, id);
      const manageable = await manageableDepartmentIds(db, auth);
      requireManageable(manageable, 'ERROR_TASK_INACCESSIBLE', current.departmentId);
      await requireReferences(current.tenantId, body);
      requireManageable(manageable, 'ERROR_TASK_INACCESSIBLE', body.departmentId);
      await q.updateTask(db, scopeOf(auth), id, body);
      return toTask((await q.findTask(db, oneTenant(current.tenantId), id))!, manageable);
    },

    async remove(auth: RequestAuth, id: number): Promise<void> {
      const current = await load(auth, id);
      requireManageable(await manageableDepartmentIds(db, auth), 'ERROR_TASK_INACCESSIBLE', current.departmentId);
      await q.deleteTask(db, scopeOf(auth), id);
    },
  };
}
