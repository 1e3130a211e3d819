import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import {
  companies,
  credentials,
  passwordResetKeys,
  roleAuthorities,
  sessions,
  userRoles,
  users,
} from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';
import { ofUserInScope } from '../users/queries';

export async function findLoginByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({
      userId: users.id,
      tenantId: users.tenantId,
      archived: users.archived,
      passwordHash: credentials.passwordHash,
    })
    .from(users)
    .innerJoin(credentials, eq(credentials.userId, users.id))
    .where(eq(sql`lower(${users.emailAddress})`, email.toLowerCase()))
    .limit(1);
  return row;
}

export async function findActiveUserByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({ id: users.id, firstName: users.firstName, emailAddress: users.emailAddress })
    .from(users)
    .where(and(eq(sql`lower(${users.emailAddress})`, email.toLowerCase()), eq(users.archived, false)))
    .limit(1);
  return row;
}

export async function insertSession(db: Executor, values: { userId: number; tokenHash: string; expiresAt: number }) {
  await db.insert(sessions).values(values);
}

/** The deleted sessions' ids and their user's tenant: what the domain event about them names. */
const deletedSession = {
  id: sessions.id,
  tenantId: sql<string | null>`(select ${users.tenantId} from ${users} where ${users.id} = ${sessions.userId})`,
};

export async function deleteSession(db: Executor, tokenHash: string) {
  return db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).returning(deletedSession);
}

export async function deleteSessionsOfUser(db: Executor, scope: TenantScope, userId: number) {
  return db
    .delete(sessions)
    .where(ofUserInScope(sessions.userId, userId, scope))
    .returning(deletedSession);
}

export async function deleteExpiredSessions(db: Executor, now: number) {
  await db.delete(sessions).where(lte(sessions.expiresAt, now));
}

/**
 * Every authority a user's roles hold now, as an array (empty without a role): the caller's
 * authorities, for a session and for an API token. Joined through `user_roles` and
 * `role_authorities` (left joins) and grouped by the user.
 */
export const heldAuthorities = sql<
  string[]
>`coalesce(array_agg(distinct ${roleAuthorities.authorityKey}) filter (where ${roleAuthorities.authorityKey} is not null), '{}')`;

/**
 * The statements a request runs when its session or tenant is not cached: built once per database
 * and, on PostgreSQL, prepared once per connection under their names (parsed and planned once, not
 * on every call). PGlite runs them as ordinary queries. A name is a contract with the connection:
 * change a statement's text and its name changes with it (the `_v` suffix).
 */
export function prepareRequestStatements(db: Db) {
  return {
    /** One round trip: the session, its user and every authority of the user's roles. */
    callerBySessionHash: db
      .select({
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        userId: users.id,
        companyId: users.companyId,
        tenantId: users.tenantId,
        authorities: heldAuthorities,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(userRoles, eq(userRoles.userId, users.id))
      .leftJoin(roleAuthorities, eq(roleAuthorities.roleId, userRoles.roleId))
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder('tokenHash')),
          gt(sessions.expiresAt, sql.placeholder('now')),
          eq(users.archived, false),
        ),
      )
      .groupBy(sessions.id, users.id)
      .prepare('opsdeck_caller_by_session_v1'),
    /** The company a tenant id names (the provider's `X-Tenant-Id`). */
    companyByTenant: db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.tenantId, sql.placeholder('tenantId')))
      .limit(1)
      .prepare('opsdeck_company_by_tenant_v1'),
  };
}

export async function insertResetKey(db: Executor, values: { userId: number; keyHash: string; expiresAt: number }) {
  await db.insert(passwordResetKeys).values(values);
}

/** Marks a valid key used and returns its user; a used, expired or unknown key returns nothing. */
/** Whether a reset key is stored, unused and unexpired (it is not used up by asking). */
export async function findUsableResetKey(db: Executor, keyHash: string, now: number) {
  const [row] = await db
    .select({ userId: passwordResetKeys.userId })
    .from(passwordResetKeys)
    .where(
      and(
        eq(passwordResetKeys.keyHash, keyHash),
        isNull(passwordResetKeys.usedAt),
        gt(passwordResetKeys.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The user a usable reset key belongs to, with what the password rule needs: the names and
 * e-mail (user inputs), the company (none: a provider administrator) and the roles' authorities.
 */
export async function findResetKeyHolder(db: Executor, keyHash: string, now: number) {
  const [row] = await db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      emailAddress: users.emailAddress,
      companyId: users.companyId,
      authorities: sql<
        string[]
      >`coalesce(array_agg(distinct ${roleAuthorities.authorityKey}) filter (where ${roleAuthorities.authorityKey} is not null), '{}')`,
    })
    .from(passwordResetKeys)
    .innerJoin(users, eq(users.id, passwordResetKeys.userId))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roleAuthorities, eq(roleAuthorities.roleId, userRoles.roleId))
    .where(
      and(
        eq(passwordResetKeys.keyHash, keyHash),
        isNull(passwordResetKeys.usedAt),
        gt(passwordResetKeys.expiresAt, now),
      ),
    )
    .groupBy(users.id)
    .limit(1);
  return row;
}

export async function consumeResetKey(db: Executor, keyHash: string, now: number) {
  const [row] = await db
    .update(passwordResetKeys)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResetKeys.keyHash, keyHash),
        isNull(passwordResetKeys.usedAt),
        gt(passwordResetKeys.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResetKeys.userId });
  return row;
}

export async function deleteResetKeysOfUser(db: Executor, scope: TenantScope, userId: number) {
  await db.delete(passwordResetKeys).where(ofUserInScope(passwordResetKeys.userId, userId, scope));
}

export async function setPassword(db: Executor, userId: number, passwordHash: string, now: number) {
  await db
    .insert(credentials)
    .values({ userId, passwordHash, passwordChangedAt: now })
    .onConflictDoUpdate({ target: credentials.userId, set: { passwordHash, passwordChangedAt: now } });
}

/** The company (tenant) a user of the scope belongs to; null for the provider's administrators. */
export async function tenantOfUser(db: Executor, scope: TenantScope, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ tenantId: users.tenantId })
    .from(users)
    .where(and(eq(users.id, userId), inScope(users.tenantId, scope)));
  return row?.tenantId ?? null;
}
