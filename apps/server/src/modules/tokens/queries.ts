import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { apiTokens, roleAuthorities, userRoles, users } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';
import { heldAuthorities } from '../auth/queries';

/** What a token's owner lists: never the digest. */
const listed = {
  id: apiTokens.id,
  name: apiTokens.name,
  scopes: apiTokens.scopes,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
  lastUsedAddress: apiTokens.lastUsedAddress,
};
export type TokenRow = {
  id: number;
  name: string;
  scopes: string[];
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number | null;
  lastUsedAddress: string | null;
};

/** A user's tokens; `scope` is the user's own (a provider administrator's: every tenant). */
export async function listTokensOfUser(db: Executor, scope: TenantScope, userId: number): Promise<TokenRow[]> {
  return db
    .select(listed)
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), inScope(apiTokens.tenantId, scope)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

export async function insertToken(
  db: Executor,
  values: {
    userId: number;
    tenantId: string | null;
    name: string;
    tokenHash: string;
    scopes: string[];
    expiresAt: number;
  },
): Promise<TokenRow> {
  const [row] = await db.insert(apiTokens).values(values).returning(listed);
  if (!row) throw new Error('api token not inserted');
  return row;
}

/** Revoking deletes: only the user's own token, else nothing (404 to the caller). */
export async function deleteTokenOfUser(db: Executor, scope: TenantScope, userId: number, id: number) {
  const [row] = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), inScope(apiTokens.tenantId, scope)))
    .returning({ id: apiTokens.id, tenantId: apiTokens.tenantId });
  return row;
}

/** A token's last use; an older one (another instance's, written late) never overwrites a newer. */
export async function recordUse(db: Executor, scope: TenantScope, id: number, at: number, address: string) {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: at, lastUsedAddress: address })
    .where(
      and(
        eq(apiTokens.id, id),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, at)),
        inScope(apiTokens.tenantId, scope),
      ),
    );
}

/**
 * The statement a request with an uncached API token runs, prepared once per connection on
 * PostgreSQL like the session's (modules/auth/queries.ts, prepareRequestStatements): the token,
 * its user (not archived) and every authority the user's roles hold now, in one round trip.
 */
export function prepareTokenStatements(db: Db) {
  return {
    callerByTokenHash: db
      .select({
        tokenId: apiTokens.id,
        name: apiTokens.name,
        scopes: apiTokens.scopes,
        expiresAt: apiTokens.expiresAt,
        userId: users.id,
        companyId: users.companyId,
        tenantId: users.tenantId,
        authorities: heldAuthorities,
      })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .leftJoin(userRoles, eq(userRoles.userId, users.id))
      .leftJoin(roleAuthorities, eq(roleAuthorities.roleId, userRoles.roleId))
      .where(
        and(
          eq(apiTokens.tokenHash, sql.placeholder('tokenHash')),
          gt(apiTokens.expiresAt, sql.placeholder('now')),
          eq(users.archived, false),
        ),
      )
      .groupBy(apiTokens.id, users.id)
      .prepare('opsdeck_caller_by_api_token_v1'),
  };
}
