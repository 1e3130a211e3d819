import type { SaveStatus, Status } from '@opsdeck/contract/statuses';
import { statusIconProblem } from '@opsdeck/contract/statuses';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { decodeDataUrl, pngDataUrl, pngInfo } from '../../platform/png';
import { oneTenant, scopeOf, writeTenant } from '../../platform/tenancy';
import { canManage, type Manageable, manageableDepartmentIds, requireManageable } from '../departments/access';
import { findDepartment } from '../departments/queries';
import * as q from './queries';

/** A status as the caller sees it: `editable` says whether they may change it (spec sections 2 and 6). */
function toStatus(row: q.StatusRow, manageable: Manageable): Status {
  return {
    id: row.id,
    name: row.name,
    department: { id: row.departmentId, name: row.departmentName },
    departmentId: row.departmentId,
    threshold: row.threshold,
    color: row.color,
    icon: pngDataUrl(row.icon),
    fileName: row.fileName,
    trackIdle: row.trackIdle,
    editable: !row.builtIn && canManage(manageable, row.departmentId),
    builtIn: row.builtIn,
    tenantId: row.tenantId,
  };
}

/**
 * The icon of a request, checked from its decoded bytes (spec sections 5 and 9): never from the
 * file name or the declared MIME type. Null when the request carries none (an update keeps the
 * stored icon, spec: "a file with no size is accepted without checking").
 */
function readIcon(icon: string | null | undefined): Buffer | null {
  if (!icon?.trim()) return null;
  const bytes = decodeDataUrl(icon.trim());
  if (!bytes) throw badRequest('ERROR_STATUS_ICON_UNSUPPORTED', { icon: 'ERROR_STATUS_ICON_UNSUPPORTED' });
  if (bytes.length === 0) return null;
  const problem = statusIconProblem({ byteLength: bytes.length, png: pngInfo(bytes) });
  if (problem) throw badRequest(problem, { icon: problem });
  return bytes;
}

/** A safe display name for the stored file: the given one without any path, else 'icon.png'. */
function iconFileName(fileName: string | null | undefined) {
  const base = (fileName ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  return base || 'icon.png';
}

export type StatusesService = ReturnType<typeof createStatusesService>;

export function createStatusesService(deps: { db: Db }) {
  const { db } = deps;

  async function load(auth: RequestAuth, id: number) {
    const row = await q.findStatus(db, scopeOf(auth), id);
    if (!row) throw notFound('ERROR_STATUS_NOT_EXIST');
    return row;
  }

  async function requireDepartment(tenantId: string, departmentId: number) {
    const department = await findDepartment(db, oneTenant(tenantId), departmentId);
    if (!department) throw badRequest('ERROR_DEPARTMENT_NOT_EXIST', { departmentId: 'ERROR_DEPARTMENT_NOT_EXIST' });
  }

  return {
    /** Every status of the tenant; an admin with no X-Tenant-Id reads every company's. */
    async list(auth: RequestAuth): Promise<Status[]> {
      const manageable = await manageableDepartmentIds(db, auth);
      return (await q.listStatuses(db, scopeOf(auth))).map((row) => toStatus(row, manageable));
    },

    async get(auth: RequestAuth, id: number): Promise<Status> {
      return toStatus(await load(auth, id), await manageableDepartmentIds(db, auth));
    },

    async create(auth: RequestAuth, body: SaveStatus): Promise<Status> {
      const tenantId = writeTenant(auth);
      const icon = readIcon(body.icon);
      if (!icon) throw badRequest('ERROR_STATUS_ICON_REQUIRED', { icon: 'ERROR_STATUS_ICON_REQUIRED' });
      await requireDepartment(tenantId, body.departmentId);
      const manageable = await manageableDepartmentIds(db, auth);
      requireManageable(manageable, 'ERROR_STATUS_INACCESSIBLE', body.departmentId);
      const id = await q.insertStatus(db, tenantId, {
        name: body.name,
        departmentId: body.departmentId,
        threshold: body.threshold,
        color: body.color.toLowerCase(),
        trackIdle: body.trackIdle,
        icon,
        fileName: iconFileName(body.fileName),
      });
      return toStatus((await q.findStatus(db, oneTenant(tenantId), id))!, manageable);
    },

    async update(auth: RequestAuth, id: number, body: SaveStatus): Promise<Status> {
      const current = await load(auth, id);
      const tenantId = current.tenantId;
      if (current.builtIn) throw forbidden('ERROR_STATUS_INACCESSIBLE');
      const manageable = await manageableDepartmentIds(db, auth);
      requireManageable(manageable, 'ERROR_STATUS_INACCESSIBLE', current.departmentId);
      const icon = readIcon(body.icon);
      await requireDepartment(tenantId, body.departmentId);
      requireManageable(manageable, 'ERROR_STATUS_INACCESSIBLE', body.departmentId);
      await q.updateStatus(db, scopeOf(auth), id, {
        name: body.name,
        departmentId: body.departmentId,
        threshold: body.threshold,
        color: body.color.toLowerCase(),
        trackIdle: body.trackIdle,
        ...(icon ? { icon, fileName: iconFileName(body.fileName) } : {}),
      });
      return toStatus((await q.findStatus(db, oneTenant(tenantId), id))!, manageable);
    },

    async remove(auth: RequestAuth, id: number): Promise<void> {
      const current = await load(auth, id);
      if (current.builtIn) throw forbidden('ERROR_STATUS_INACCESSIBLE');
      requireManageable(await manageableDepartmentIds(db, auth), 'ERROR_STATUS_INACCESSIBLE', current.departmentId);
      if ((await q.countTasksOfStatus(db, scopeOf(auth), id)) > 0) throw conflict('ERROR_STATUS_DELETE');
      try {
        await q.deleteStatus(db, scopeOf(auth), id);
      } catch (error) {
        // A task arrived between the in-use check and the delete.
        if (hasSqlState(error, SQLSTATE.foreignKeyViolation)) throw conflict('ERROR_STATUS_DELETE');
        throw error;
      }
    },
  };
}
