import { type Authority, isAuthority } from '@opsdeck/contract/authorities';
import {
  API_TOKEN_PREFIX,
  type ApiToken,
  apiTokenExpiryProblem,
  type CreateApiToken,
  type CreatedApiToken,
} from '@opsdeck/contract/tokens';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Caller, RequestAuth } from '../../platform/access';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { EVERY_TENANT, oneTenant, type TenantScope } from '../../platform/tenancy';
import { digest, newSecret } from '../../platform/tokens';
import { SessionCache } from '../auth/session-cache';
import * as q from './queries';

/** A token's last use is written at most this often per token (and server instance). */
export const LAST_USE_EVERY_MS = 60_000;

export type TokensService = ReturnType<typeof createTokensService>;

/**
 * Personal API tokens (docs/security.md, API tokens): made, listed and revoked by their user from
 * a session, and resolved to a caller for `Authorization: Bearer odt_…`.
 */
export function createTokensService(deps: { db: Db; events: EventBus; log: FastifyBaseLogger }) {
  const { db, events, log } = deps;
  // Resolved tokens, kept like sessions (5 s, evicted on the same events and on a revoke).
  const cache = new SessionCache(undefined, undefined, () => events.isLive?.() ?? true);
  const statements = q.prepareTokenStatements(db);

  // ----- resolving a bearer token -------------------------------------------------------------

  /** The caller of an API token: at once when cached, else read from the database. */
  function resolveBearer(token: string, address: string): Caller | null | Promise<Caller | null> {
    const tokenHash = digest(token);
    const now = Date.now();
    const cached = cache.get(tokenHash, now);
    if (cached === undefined) return loadCaller(tokenHash, now, address);
    if (cached?.token) noteUse(cached.token.id, address, now);
    return cached;
  }

  async function loadCaller(tokenHash: string, now: number, address: string): Promise<Caller | null> {
    const epoch = cache.epoch;
    const [row] = await statements.callerByTokenHash.execute({ tokenHash, now });
    let caller: Caller | null = null;
    if (row) {
      // What the token may do: its scopes, narrowed to what its user holds now.
      const held = new Set(row.authorities);
      const authorities = new Set(row.scopes.filter((scope) => held.has(scope) && isAuthority(scope)) as Authority[]);
      caller = {
        userId: row.userId,
        sessionId: 0,
        tokenHash,
        expiresAt: row.expiresAt,
        companyId: row.companyId,
        ownTenantId: row.tenantId,
        authorities,
        isAdmin: row.companyId === null || authorities.has('ADMIN_ACCESS_LEVEL'),
        token: { id: row.tokenId, name: row.name },
      };
      noteUse(row.tokenId, address, now);
    }
    cache.set(tokenHash, caller, now, epoch);
    return caller;
  }

  // ----- last use: at most once a minute per token, written off the request path --------------

  const noted = new Map<number, number>();
  const pending = new Map<number, { at: number; address: string }>();
  let scheduled = false;
  let stopped = false;
  let writes: Promise<void> = Promise.resolve();

  function noteUse(tokenId: number, address: string, now: number) {
    const last = noted.get(tokenId);
    if (last !== undefined && now - last < LAST_USE_EVERY_MS) return;
    if (noted.size >= 10_000) noted.clear();
    noted.set(tokenId, now);
    pending.set(tokenId, { at: now, address });
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      writes = writes.then(writeUses);
    });
  }

  async function writeUses() {
    for (const [tokenId, use] of [...pending]) {
      try {
        // The writer serves every company's tokens, after their requests have gone.
        await q.recordUse(db, EVERY_TENANT, tokenId, use.at, use.address);
      } catch (err) {
        log.warn({ err, tokenId }, 'api token last use not recorded');
      }
      if (pending.get(tokenId) === use) pending.delete(tokenId);
    }
  }

  // ----- the user's own tokens ----------------------------------------------------------------

  /** Token management is a session's: a token never mints, lists or revokes tokens. */
  function requireSession(auth: RequestAuth) {
    if (auth.token) throw forbidden('ERROR_API_TOKEN_SESSION_REQUIRED');
  }

  /** A user's own tokens live in the user's own tenant, whatever company an administrator acts on. */
  const ownScope = (auth: RequestAuth): TenantScope =>
    auth.ownTenantId === null ? EVERY_TENANT : oneTenant(auth.ownTenantId);

  function toApiToken(row: q.TokenRow): ApiToken {
    // A use noted here and not yet written is shown already.
    const use = pending.get(row.id);
    return {
      id: row.id,
      name: row.name,
      scopes: row.scopes,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      lastUsedAt: use && (row.lastUsedAt ?? 0) < use.at ? use.at : row.lastUsedAt,
      lastUsedAddress: use && (row.lastUsedAt ?? 0) < use.at ? use.address : row.lastUsedAddress,
    };
  }

  async function list(auth: RequestAuth): Promise<ApiToken[]> {
    requireSession(auth);
    return (await q.listTokensOfUser(db, ownScope(auth), auth.userId)).map(toApiToken);
  }

  async function create(auth: RequestAuth, body: CreateApiToken): Promise<CreatedApiToken> {
    requireSession(auth);
    const expiry = apiTokenExpiryProblem(body.expiresAt, Date.now());
    if (expiry) throw badRequest(expiry, { expiresAt: expiry });
    const scopes = [...new Set(body.scopes)];
    if (scopes.some((scope) => !auth.authorities.has(scope))) {
      throw badRequest('ERROR_API_TOKEN_SCOPE_NOT_HELD', { scopes: 'ERROR_API_TOKEN_SCOPE_NOT_HELD' });
    }
    const token = `${API_TOKEN_PREFIX}${newSecret()}`;
    const row = await q.insertToken(db, {
      userId: auth.userId,
      tenantId: auth.ownTenantId,
      name: body.name,
      tokenHash: digest(token),
      scopes,
      expiresAt: body.expiresAt,
    });
    events.publish({ resource: 'tokens', kind: 'created', ids: [row.id], tenantId: auth.ownTenantId });
    return { ...toApiToken(row), token };
  }

  /** Deletes the row; its cached caller goes at once here and, through the event, everywhere. */
  async function revoke(auth: RequestAuth, id: number): Promise<void> {
    requireSession(auth);
    const deleted = await q.deleteTokenOfUser(db, ownScope(auth), auth.userId, id);
    if (!deleted) throw notFound('ERROR_API_TOKEN_NOT_EXIST');
    cache.evictToken(id);
    noted.delete(id);
    pending.delete(id);
    events.publish({ resource: 'tokens', kind: 'deleted', ids: [id], tenantId: deleted.tenantId });
  }

  // What a cached token may do changes with its user and roles, like a session's.
  const unsubscribe = events.subscribe(
    (event) => {
      if (event.resource === 'users') for (const id of event.ids) cache.evictUser(id);
      else if (event.resource === 'tokens') for (const id of event.ids) cache.evictToken(id);
      else cache.clear();
    },
    { resources: ['users', 'roles', 'companies', 'tokens'] },
  );
  const stopResync = events.onResync?.(() => cache.flush());

  /** Writes the last uses still pending; called as the server closes. */
  async function stop() {
    stopped = true;
    unsubscribe();
    if (typeof stopResync === 'function') stopResync();
    writes = writes.then(writeUses);
    await writes;
  }

  return { resolveBearer, list, create, revoke, stop };
}
