import { BUILT_IN_ROLES, type BuiltInRole } from '@opsdeck/contract/authorities';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { authorities, roleAuthorities, roles, userRoles } from '../../db/schema';

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
    .where(and(tenantId === null ? isNull(roles.tenantId) : eq(roles.tenantId, tenantId), eq(roles.builtIn, builtIn)))
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
