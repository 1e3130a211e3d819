import type {
  Department,
  DepartmentHeadCandidate,
  DepartmentNode,
  SaveDepartment,
} from '@opsdeck/contract/departments';
import type { Db, Executor } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { badRequest, conflict, notFound } from '../../platform/errors';
import type { ChangeKind, EventBus } from '../../platform/events';
import { EVERY_TENANT, oneTenant, scopedTenant, scopeOf, writeTenant } from '../../platform/tenancy';
import { completeName } from '../users/names';
import { manageableDepartmentIds } from './access';
import * as q from './queries';

function toDepartment(row: q.DepartmentRow): Department {
  return {
    id: row.id,
    name: row.name,
    head:
      row.headId !== null && row.headFirstName !== null && row.headLastName !== null
        ? { id: row.headId, completeName: completeName({ firstName: row.headFirstName, lastName: row.headLastName }) }
        : null,
    headId: row.headId,
    parent: row.parentId !== null && row.parentName !== null ? { id: row.parentId, name: row.parentName } : null,
    parentId: row.parentId,
    tenantId: row.tenantId,
    companyName: row.companyName,
    archived: row.archived,
  };
}

/** Nests departments under their parents; one whose parent is not in the list is a root. */
export function toForest(list: readonly Department[]): DepartmentNode[] {
  const nodes = new Map<number, DepartmentNode>();
  for (const department of list) {
    nodes.set(department.id, {
      id: department.id,
      name: department.name,
      head: department.head,
      parentId: department.parentId,
      tenantId: department.tenantId,
      children: [],
    });
  }
  const roots: DepartmentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export type DepartmentsService = ReturnType<typeof createDepartmentsService>;

export function createDepartmentsService(deps: { db: Db; events: EventBus }) {
  const { db, events } = deps;
  /** A department's change, for whatever keeps what it changes (the users list's pages sorted by department). */
  const published = (kind: ChangeKind, id: number, tenantId: string) =>
    events.publish({ resource: 'departments', kind, ids: [id], tenantId });

  async function findOrThrow(executor: Executor, auth: RequestAuth, id: number) {
    const row = await q.findDepartment(executor, scopeOf(auth), id);
    if (!row) throw notFound('ERROR_DEPARTMENT_NOT_EXIST');
    return row;
  }

  /** The rules shared by create and update (spec section 5, Department). */
  async function check(
    executor: Executor,
    tenantId: string,
    body: SaveDepartment,
    existing?: { id: number; headId: number | null },
  ) {
    if (await q.nameTaken(executor, tenantId, body.name, existing?.id)) {
      throw conflict('ERROR_DEPARTMENT_NAME_DUPLICATE', { name: 'ERROR_DEPARTMENT_NAME_DUPLICATE' });
    }
    if (!(await q.isHeadCandidate(executor, tenantId, body.headId, existing?.headId ?? undefined))) {
      throw badRequest('ERROR_DEPARTMENT_HEAD_NOT_SELECTED', { headId: 'ERROR_DEPARTMENT_HEAD_NOT_SELECTED' });
    }
    const parentId = body.parentId ?? null;
    if (parentId !== null) {
      const parent = await q.findDepartment(executor, oneTenant(tenantId), parentId);
      // Itself or one of its descendants as parent would close a cycle in the tree.
      const below = existing ? await q.subtreeIds(executor, oneTenant(tenantId), existing.id) : new Set<number>();
      if (!parent || below.has(parentId)) {
        throw badRequest('ERROR_DEPARTMENT_PARENT_INVALID', { parentId: 'ERROR_DEPARTMENT_PARENT_INVALID' });
      }
    }
    return { name: body.name, headId: body.headId, parentId };
  }

  async function saving<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (hasSqlState(error, SQLSTATE.uniqueViolation)) {
        throw conflict('ERROR_DEPARTMENT_NAME_DUPLICATE', { name: 'ERROR_DEPARTMENT_NAME_DUPLICATE' });
      }
      throw error;
    }
  }

  async function accessible(auth: RequestAuth): Promise<Department[]> {
    const manageable = await manageableDepartmentIds(db, auth);
    if (manageable !== 'all' && manageable.size === 0) return [];
    const rows = await q.listDepartments(db, scopeOf(auth), manageable === 'all' ? undefined : [...manageable]);
    return rows.map(toDepartment);
  }

  return {
    /** The tenant's departments; an admin with no company picked sees every company's. */
    async list(auth: RequestAuth): Promise<Department[]> {
      return (await q.listDepartments(db, scopeOf(auth))).map(toDepartment);
    },

    async get(auth: RequestAuth, id: number): Promise<Department> {
      return toDepartment(await findOrThrow(db, auth, id));
    },

    /** The departments whose statuses and tasks the caller may change (spec section 6). */
    accessible,

    /** The same departments nested as a tree, for display. */
    async accessibleTree(auth: RequestAuth): Promise<DepartmentNode[]> {
      return toForest(await accessible(auth));
    },

    /**
     * The department-head list of the department form. With a department, its tenant and its own
     * users first; otherwise the request's tenant (none for an admin with no company picked).
     */
    async headList(auth: RequestAuth, departmentId?: number): Promise<DepartmentHeadCandidate[]> {
      let tenantId = scopedTenant(scopeOf(auth));
      let currentHeadId: number | undefined;
      if (departmentId !== undefined) {
        const department = await findOrThrow(db, auth, departmentId);
        tenantId = department.tenantId;
        currentHeadId = department.headId ?? undefined;
      }
      if (tenantId === null) return [];
      const rows = await q.headCandidates(db, tenantId, departmentId, currentHeadId);
      return rows.map((row) => ({ id: row.id, completeName: completeName(row), emailAddress: row.emailAddress }));
    },

    async create(auth: RequestAuth, body: SaveDepartment): Promise<Department> {
      const tenantId = writeTenant(auth);
      const id = await saving(() =>
        db.transaction(async (tx) => q.insertDepartment(tx, { tenantId, ...(await check(tx, tenantId, body)) })),
      );
      published('created', id, tenantId);
      return toDepartment((await q.findDepartment(db, oneTenant(tenantId), id))!);
    },

    /** An admin may update any company's department; its own tenant scopes the rules. */
    async update(auth: RequestAuth, id: number, body: SaveDepartment): Promise<Department> {
      const tenantId = await saving(() =>
        db.transaction(async (tx) => {
          const existing = await findOrThrow(tx, auth, id);
          await q.updateDepartment(tx, scopeOf(auth), id, await check(tx, existing.tenantId, body, existing));
          return existing.tenantId;
        }),
      );
      published('updated', id, tenantId);
      return toDepartment((await q.findDepartment(db, EVERY_TENANT, id))!);
    },

    /** Hard delete (spec section 4); its users stay, with no department. */
    async remove(auth: RequestAuth, id: number): Promise<void> {
      const tenantId = await db.transaction(async (tx) => {
        const existing = await findOrThrow(tx, auth, id);
        if (await q.hasChildren(tx, scopeOf(auth), id)) throw conflict('ERROR_DEPARTMENT_DELETE_HAS_CHILDREN');
        if (await q.hasStatusesOrTasks(tx, scopeOf(auth), id))
          throw conflict('ERROR_DEPARTMENT_DELETE_ASSOCIATED_WITH_STATUSES');
        await q.deleteDepartment(tx, scopeOf(auth), id);
        return existing.tenantId;
      });
      published('deleted', id, tenantId);
    },
  };
}
