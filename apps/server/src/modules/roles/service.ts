import { AUTHORITY_KEYS, type Authority } from '@opsdeck/contract/authorities';
import type { AuthorityItem, CreateRole, Role, UpdateRole } from '@opsdeck/contract/roles';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { currentAudit } from '../../platform/audit';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { conflict, forbidden, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { oneTenant, scopeOf, type TenantScope, writeTenant } from '../../platform/tenancy';
import * as q from './queries';

/** The checklist's order: the contract's (tabs, then actions, then levels), not alphabetical. */
const ORDER = new Map<string, number>(AUTHORITY_KEYS.map((key, index) => [key, index]));
const byContractOrder = (a: { key: string }, b: { key: string }) =>
  (ORDER.get(a.key) ?? Number.MAX_SAFE_INTEGER) - (ORDER.get(b.key) ?? Number.MAX_SAFE_INTEGER);

const toItem = (row: { key: string; title: string }): AuthorityItem => ({
  id: row.key,
  key: row.key,
  title: row.title,
});

/**
 * What a caller may put in a role. Admins: every authority. Anyone else: only what they hold
 * themselves, and never ADMIN_ACCESS_LEVEL, so no one can make a role stronger than their own.
 */
export function grantable(caller: RequestAuth): (key: string) => boolean {
  if (caller.isAdmin) return () => true;
  return (key) => key !== 'ADMIN_ACCESS_LEVEL' && caller.authorities.has(key as Authority);
}

const unique = <T>(values: readonly T[]) => [...new Set(values)];

export type RolesService = ReturnType<typeof createRolesService>;

export function createRolesService(deps: { db: Db; events: EventBus }) {
  const { db, events } = deps;

  async function withAuthorities(scope: TenantScope, rows: q.RoleRow[]): Promise<Role[]> {
    const held = await q.listRoleAuthorities(
      db,
      scope,
      rows.map((row) => row.id),
    );
    const byRole = new Map<number, AuthorityItem[]>();
    for (const row of held.sort(byContractOrder)) {
      const list = byRole.get(row.roleId) ?? [];
      list.push(toItem(row));
      byRole.set(row.roleId, list);
    }
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      isProtected: row.isProtected,
      tenantId: row.tenantId,
      companyName: row.companyName,
      authorities: byRole.get(row.id) ?? [],
      editable: !row.isProtected && row.builtIn === null,
      deletable: !row.isProtected,
    }));
  }

  async function requireRole(caller: RequestAuth, id: number) {
    const row = await q.findRole(db, scopeOf(caller), id);
    if (!row) throw notFound('ERROR_ROLE_NOT_EXIST');
    return row;
  }

  /** A company user may not add an authority they could not grant (escalation): 403. */
  function checkGrant(caller: RequestAuth, added: readonly string[]) {
    const may = grantable(caller);
    if (added.some((key) => !may(key))) throw forbidden('ERROR_FORBIDDEN');
  }

  async function checkName(tenantId: string | null, name: string, exceptId?: number) {
    if (await q.roleNameTaken(db, tenantId, name, exceptId)) {
      throw conflict('ERROR_ROLE_NAME_DUPLICATE', { name: 'ERROR_ROLE_NAME_DUPLICATE' });
    }
  }

  /** The unique index catches two concurrent saves of one name that both passed checkName. */
  async function guardDuplicate<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (hasSqlState(error, SQLSTATE.uniqueViolation))
        throw conflict('ERROR_ROLE_NAME_DUPLICATE', { name: 'ERROR_ROLE_NAME_DUPLICATE' });
      throw error;
    }
  }

  return {
    /** The checklist of the role forms: what the caller may grant. */
    async authorities(caller: RequestAuth): Promise<AuthorityItem[]> {
      const may = grantable(caller);
      return (await q.listAuthorities(db))
        .filter((row) => may(row.key))
        .sort(byContractOrder)
        .map(toItem);
    },

    async listActive(caller: RequestAuth): Promise<Role[]> {
      const scope = scopeOf(caller);
      return withAuthorities(scope, await q.listActiveRoles(db, scope));
    },

    async get(caller: RequestAuth, id: number): Promise<Role> {
      const [role] = await withAuthorities(scopeOf(caller), [await requireRole(caller, id)]);
      return role!;
    },

    /** A role always belongs to a company: admins name it with X-Tenant-Id (ERROR_COMPANY_REQUIRED otherwise). */
    async create(caller: RequestAuth, body: CreateRole): Promise<Role> {
      const tenantId = writeTenant(caller);
      const name = body.name.trim();
      const keys = unique(body.authorityNames);
      checkGrant(caller, keys);
      await checkName(tenantId, name);
      const id = await guardDuplicate(() =>
        db.transaction(async (tx) => {
          const roleId = await q.insertRole(tx, tenantId, name);
          await q.replaceRoleAuthorities(tx, oneTenant(tenantId), roleId, keys);
          return roleId;
        }),
      );
      events.publish({ resource: 'roles', kind: 'created', ids: [id], tenantId });
      return this.get(caller, id);
    },

    /**
     * Renames a role and sets its authorities to `newAuthorityName`. Built-in roles are read-only
     * (ERROR_ROLE_PROTECTED): their authorities come from the contract and the server re-applies
     * them, so an edit would not last. Authorities the caller cannot grant may stay on the role,
     * or be removed, but not be added.
     */
    async update(caller: RequestAuth, id: number, body: UpdateRole): Promise<Role> {
      const role = await this.get(caller, id);
      // The role as it was is the audit record's before (the route reads it no second time).
      currentAudit()?.describe({ before: role });
      if (!role.editable) throw conflict('ERROR_ROLE_PROTECTED');
      const name = body.name.trim();
      const keys = unique(body.newAuthorityName);
      const current = new Set(role.authorities.map((authority) => authority.key));
      checkGrant(
        caller,
        keys.filter((key) => !current.has(key)),
      );
      await checkName(role.tenantId, name, id);
      await guardDuplicate(() =>
        db.transaction(async (tx) => {
          await q.renameRole(tx, scopeOf(caller), id, name);
          await q.replaceRoleAuthorities(tx, scopeOf(caller), id, keys);
        }),
      );
      events.publish({ resource: 'roles', kind: 'updated', ids: [id], tenantId: role.tenantId });
      return this.get(caller, id);
    },

    /** Hard delete (spec section 4). Protected roles and roles active users hold are refused (409). */
    async remove(caller: RequestAuth, id: number): Promise<void> {
      const role = await requireRole(caller, id);
      if (role.isProtected) throw conflict('ERROR_GENERAL_PROTECTED');
      await db.transaction(async (tx) => {
        if ((await q.countActiveHolders(tx, scopeOf(caller), id)) > 0)
          throw conflict('ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER');
        await q.deleteRole(tx, scopeOf(caller), id);
      });
      events.publish({ resource: 'roles', kind: 'deleted', ids: [id], tenantId: role.tenantId });
    },
  };
}
