import { BUILT_IN_ROLES, type BuiltInRole } from '@opsdeck/contract/authorities';
import { and, asc, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { authorities, companies, roleAuthorities, roles, userRoles, users } from '../../db/schema';
import { inScope, ownedBy, type TenantScope } from '../../platform/tenancy';

/**
 * Rows keyed by role (role_authorities, user_roles: no tenant column of their own) whose role is
 * among `roleIds` and lives in the scope: the scope reaches them through their role.
 */
export function ofRolesInScope(roleColumn: PgColumn, roleIds: readonly number[], scope: TenantScope): SQL {
  const owner = inScope(roles.tenantId, scope);
  const wanted = roleIds.length === 1 ? eq(roleColumn, roleIds[0]!) : inArray(roleColumn, [...roleIds]);
  if (!owner) return wanted;
  const ofRoles = roleIds.length === 1 ? eq(roles.id, roleIds[0]!) : inArray(roles.id, [...roleIds]);
  return and(wanted, sql`${roleColumn} in (select ${roles.id} from ${roles} where ${and(ofRoles, owner)})`)!;
}

export async function upsertAuthorities(db: Executor, rows: { key: string; title: string }[]) {
  for (const row of rows) {
    await db
      .insert(authorities)
      .values(row)
      .onConflictDoUpdate({ target: authorities.key, set: { title: row.title } });
  }
}

export async function findBuiltInRole(db: Executor, tenantId: string | null, builtIn: BuiltInRole) {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(ownedBy(roles.tenantId, tenantId), eq(roles.builtIn, builtIn)))
    .limit(1);
  return row?.id;
}

/** Creates a built-in role for a tenant (null: the provider's), or brings its authorities up to date. */
export async function ensureBuiltInRole(db: Executor, tenantId: string | null, builtIn: BuiltInRole) {
  const definition = BUILT_IN_ROLES[builtIn];
  let roleId = await findBuiltInRole(db, tenantId, builtIn);
  if (roleId === undefined) {
    const [row] = await db
      .insert(roles)
      .values({ tenantId, name: definition.name, builtIn, isProtected: definition.isProtected })
      .returning({ id: roles.id });
    roleId = row!.id;
  }
  await db.delete(roleAuthorities).where(eq(roleAuthorities.roleId, roleId));
  await db.insert(roleAuthorities).values(definition.authorities.map((authorityKey) => ({ roleId, authorityKey })));
  return roleId;
}

export async function assignRole(db: Executor, userId: number, roleId: number) {
  await db.insert(userRoles).values({ userId, roleId }).onConflictDoNothing();
}

export type RoleRow = {
  id: number;
  name: string;
  isProtected: boolean;
  builtIn: string | null;
  tenantId: string | null;
  companyName: string | null;
};

const roleColumns = {
  id: roles.id,
  name: roles.name,
  isProtected: roles.isProtected,
  builtIn: roles.builtIn,
  tenantId: roles.tenantId,
  companyName: companies.name,
};

/** Non-archived roles of the scope (every tenant's: the provider's included), by company then name. */
export async function listActiveRoles(db: Executor, scope: TenantScope): Promise<RoleRow[]> {
  return db
    .select(roleColumns)
    .from(roles)
    .leftJoin(companies, eq(companies.tenantId, roles.tenantId))
    .where(and(eq(roles.archived, false), inScope(roles.tenantId, scope)))
    .orderBy(
      sql`${companies.name} asc nulls first`,
      desc(roles.isProtected),
      asc(sql`lower(${roles.name})`),
      asc(roles.id),
    );
}

/** One non-archived role inside the scope, or undefined (a foreign role reads as missing). */
export async function findRole(db: Executor, scope: TenantScope, id: number): Promise<RoleRow | undefined> {
  const [row] = await db
    .select(roleColumns)
    .from(roles)
    .leftJoin(companies, eq(companies.tenantId, roles.tenantId))
    .where(and(eq(roles.id, id), eq(roles.archived, false), inScope(roles.tenantId, scope)))
    .limit(1);
  return row;
}

/** The authorities of these roles of the scope, with their titles. */
export async function listRoleAuthorities(db: Executor, scope: TenantScope, roleIds: number[]) {
  if (roleIds.length === 0) return [];
  return db
    .select({ roleId: roleAuthorities.roleId, key: authorities.key, title: authorities.title })
    .from(roleAuthorities)
    .innerJoin(authorities, eq(authorities.key, roleAuthorities.authorityKey))
    .where(ofRolesInScope(roleAuthorities.roleId, roleIds, scope));
}

export async function listAuthorities(db: Executor) {
  return db.select({ key: authorities.key, title: authorities.title }).from(authorities);
}

/** Whether a role of this name exists in the tenant, case-insensitively (archived ones too: the index covers them). */
export async function roleNameTaken(db: Executor, tenantId: string | null, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        ownedBy(roles.tenantId, tenantId),
        sql`lower(${roles.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(roles.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertRole(db: Executor, tenantId: string, name: string) {
  const [row] = await db.insert(roles).values({ tenantId, name }).returning({ id: roles.id });
  return row!.id;
}

export async function renameRole(db: Executor, scope: TenantScope, id: number, name: string) {
  await db
    .update(roles)
    .set({ name })
    .where(and(eq(roles.id, id), inScope(roles.tenantId, scope)));
}

/** Sets the authorities of a role of the scope (the caller resolved, or just made, it there). */
export async function replaceRoleAuthorities(
  db: Executor,
  scope: TenantScope,
  roleId: number,
  keys: readonly string[],
) {
  await db.delete(roleAuthorities).where(ofRolesInScope(roleAuthorities.roleId, [roleId], scope));
  if (keys.length) await db.insert(roleAuthorities).values(keys.map((authorityKey) => ({ roleId, authorityKey })));
}

/** How many active (non-archived) users of the scope hold the role. */
export async function countActiveHolders(db: Executor, scope: TenantScope, roleId: number) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(and(eq(userRoles.roleId, roleId), eq(users.archived, false), inScope(users.tenantId, scope)));
  return Number(row?.count ?? 0);
}

/** Removes a role; archived users' past assignments to it go with it (role_authorities cascade). */
export async function deleteRole(db: Executor, scope: TenantScope, roleId: number) {
  await db.delete(userRoles).where(ofRolesInScope(userRoles.roleId, [roleId], scope));
  await db.delete(roles).where(and(eq(roles.id, roleId), inScope(roles.tenantId, scope)));
}

/** Non-archived roles of exactly this tenant (null: the provider's own) among `ids`, with their authority keys. */
export async function findRolesWithAuthorities(db: Executor, ids: readonly number[], tenantId: string | null) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: roles.id, name: roles.name, authorityKey: roleAuthorities.authorityKey })
    .from(roles)
    .leftJoin(roleAuthorities, eq(roleAuthorities.roleId, roles.id))
    .where(and(inArray(roles.id, [...ids]), eq(roles.archived, false), ownedBy(roles.tenantId, tenantId)));
  const byId = new Map<number, { id: number; name: string; authorities: string[] }>();
  for (const row of rows) {
    const role = byId.get(row.id) ?? { id: row.id, name: row.name, authorities: [] };
    if (row.authorityKey) role.authorities.push(row.authorityKey);
    byId.set(row.id, role);
  }
  return [...byId.values()];
}
