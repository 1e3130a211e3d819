import { type Authority, isAuthority } from '@opsdeck/contract/authorities';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Caller } from '../../platform/access';
import { currentAudit } from '../../platform/audit';
import { AppError, badRequest } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Mailer } from '../../platform/mail';
import {
  hashPassword,
  requireAcceptablePassword,
  verifyAgainstNothing,
  verifyPassword,
} from '../../platform/passwords';
import { EVERY_TENANT, oneTenant } from '../../platform/tenancy';
import { Throttle } from '../../platform/throttle';
import { digest, newSecret } from '../../platform/tokens';
import * as q from './queries';
import { resetPasswordMail } from './reset-mail';
import { SessionCache } from './session-cache';

const FIFTEEN_MINUTES = 15 * 60_000;

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  db: Db;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  events: EventBus;
}) {
  const { db, config, mailer, log, events } = deps;
  // While other instances' events may not reach this one, the cache does not serve (session-cache.ts).
  const cache = new SessionCache(undefined, undefined, () => events.isLive?.() ?? true);
  // Five wrong passwords lock an account for the rest of its window; an address gets more room,
  // since many people can sit behind one.
  const accountFailures = new Throttle(5, FIFTEEN_MINUTES);
  const addressFailures = new Throttle(30, FIFTEEN_MINUTES);
  const resetRequests = new Throttle(10, FIFTEEN_MINUTES);
  // Keys are 256 random bits, so guessing is hopeless; an address that keeps asking about keys
  // that do not work is still stopped, like a sign-in that keeps failing.
  const resetKeyFailures = new Throttle(30, FIFTEEN_MINUTES);
  const statements = q.prepareRequestStatements(db);

  async function login(username: string, password: string, address: string): Promise<{ token: string }> {
    const account = username.trim().toLowerCase();
    accountFailures.check(account);
    addressFailures.check(address);

    const found = await q.findLoginByEmail(db, account);
    // A stored hash that cannot be read is the installation's fault, not the person's: logged as
    // such (the user, never the hash), and answered as any wrong password (docs/security.md).
    const corrupt = (reason: string) =>
      log.error(
        { userId: found?.userId, reason },
        'stored password hash is corrupt: sign-in refused as bad credentials until a new password is set (password reset)',
      );
    const valid =
      found && !found.archived
        ? await verifyPassword(found.passwordHash, password, corrupt)
        : await verifyAgainstNothing(password);
    if (!found || !valid) {
      accountFailures.hit(account);
      addressFailures.hit(address);
      throw new AppError(401, 'ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS');
    }
    accountFailures.reset(account);
    // The record of the sign-in names who it was (docs/audit.md); the route has no caller yet.
    const trail = currentAudit();
    trail?.actAs({ type: 'user', id: found.userId });
    trail?.describe({ entityId: found.userId, entityName: account, tenantId: found.tenantId });

    const token = newSecret();
    await q.insertSession(db, {
      userId: found.userId,
      tokenHash: digest(token),
      expiresAt: Date.now() + config.sessionTtlMs,
    });
    return { token };
  }

  async function logout(tokenHash: string) {
    const deleted = await q.deleteSession(db, tokenHash);
    cache.evict(tokenHash);
    publishSessionsDeleted(deleted);
  }

  /** Other instances' caches (and the live channel's consoles) learn of ended sessions through the bus. */
  function publishSessionsDeleted(deleted: readonly { id: number; tenantId: string | null }[]) {
    const [first] = deleted;
    if (!first) return;
    events.publish({
      resource: 'sessions',
      kind: 'deleted',
      ids: deleted.map((row) => row.id),
      tenantId: first.tenantId,
    });
  }

  /** The caller of a session token: at once when cached, else read from the database. */
  function resolveCaller(token: string): Caller | null | Promise<Caller | null> {
    const tokenHash = digest(token);
    const now = Date.now();
    const cached = cache.get(tokenHash, now);
    return cached !== undefined ? cached : loadCaller(tokenHash, now);
  }

  async function loadCaller(tokenHash: string, now: number): Promise<Caller | null> {
    const epoch = cache.epoch;
    const [row] = await statements.callerBySessionHash.execute({ tokenHash, now });
    const caller: Caller | null = row
      ? {
          userId: row.userId,
          sessionId: row.sessionId,
          tokenHash,
          expiresAt: row.expiresAt,
          companyId: row.companyId,
          ownTenantId: row.tenantId,
          authorities: new Set(row.authorities.filter(isAuthority) as Authority[]),
          isAdmin: row.companyId === null || row.authorities.includes('ADMIN_ACCESS_LEVEL'),
          token: null,
        }
      : null;
    cache.set(tokenHash, caller, now, epoch);
    return caller;
  }

  // Tenant ids never change owner; a company's deletion is seen within the cache's lifetime.
  const tenants = new Map<string, { companyId: number | null; until: number }>();
  function resolveTenant(tenantId: string): number | null | Promise<number | null> {
    const now = Date.now();
    const cached = tenants.get(tenantId);
    return cached && cached.until > now ? cached.companyId : loadTenant(tenantId, now);
  }

  async function loadTenant(tenantId: string, now: number): Promise<number | null> {
    const companyId = (await statements.companyByTenant.execute({ tenantId }))[0]?.id ?? null;
    if (tenants.size > 10_000) tenants.clear();
    tenants.set(tenantId, { companyId, until: now + 5_000 });
    return companyId;
  }

  /**
   * Always answers the same way: whether the e-mail exists is not told (docs/architecture.md,
   * "Security"). The mail goes out after the answer so that the time taken does not tell it either.
   */
  function requestPasswordReset(email: string, address: string) {
    resetRequests.check(address);
    resetRequests.hit(address);
    void (async () => {
      const user = await q.findActiveUserByEmail(db, email);
      if (!user) return;
      const key = newSecret();
      await q.insertResetKey(db, {
        userId: user.id,
        keyHash: digest(key),
        expiresAt: Date.now() + config.resetKeyTtlMs,
      });
      const link = `${config.publicUrl}/login?resetPasswordKey=${encodeURIComponent(key)}`;
      await mailer.send({ to: user.emailAddress, ...resetPasswordMail(user.firstName, link, config.resetKeyTtlMs) });
    })().catch((err: unknown) => log.error({ err }, 'password reset mail failed'));
  }

  /** Whether the reset link's key still works; asking does not use it up. */
  async function checkResetKey(resetPasswordKey: string, address: string): Promise<boolean> {
    resetKeyFailures.check(address);
    const usable = await q.findUsableResetKey(db, digest(resetPasswordKey), Date.now());
    if (!usable) resetKeyFailures.hit(address);
    return usable !== undefined;
  }

  /** A reset key works once; the new password ends every session opened before it. */
  async function resetPassword(resetPasswordKey: string, newPassword: string) {
    // The password rule (docs/security.md) for the key's user, before the key is used up: a
    // refused password leaves the link working for a better one.
    const holder = await q.findResetKeyHolder(db, digest(resetPasswordKey), Date.now());
    if (!holder) throw badRequest('ERROR_RESET_PASSWORD_FORM_INVALID');
    await requireAcceptablePassword(newPassword, {
      admin: holder.companyId === null || holder.authorities.includes('ADMIN_ACCESS_LEVEL'),
      person: holder,
      field: 'newPassword',
    });
    const passwordHash = await hashPassword(newPassword);
    const reset = await db.transaction(async (tx) => {
      const now = Date.now();
      const consumed = await q.consumeResetKey(tx, digest(resetPasswordKey), now);
      if (!consumed) return null;
      await q.setPassword(tx, consumed.userId, passwordHash, now);
      // The reset key names its user before any tenant is known: the user's tenant is read first.
      const tenantId = await q.tenantOfUser(tx, EVERY_TENANT, consumed.userId);
      const own = tenantId === null ? EVERY_TENANT : oneTenant(tenantId);
      const deleted = await q.deleteSessionsOfUser(tx, own, consumed.userId);
      await q.deleteResetKeysOfUser(tx, own, consumed.userId);
      return { userId: consumed.userId, tenantId, deleted };
    });
    if (reset === null) throw badRequest('ERROR_RESET_PASSWORD_FORM_INVALID');
    const trail = currentAudit();
    trail?.actAs({ type: 'user', id: reset.userId });
    trail?.describe({
      entityId: reset.userId,
      tenantId: reset.tenantId,
      changes: [{ field: 'password', before: null, after: null }],
    });
    cache.evictUser(reset.userId);
    publishSessionsDeleted(reset.deleted);
  }

  // What a cached session may do changes with its user and roles; a company that goes takes its
  // tenant with it. Evicting on the domain events keeps the caches exact on this instance.
  events.subscribe(
    (event) => {
      if (event.resource === 'users') for (const id of event.ids) cache.evictUser(id);
      else if (event.resource === 'sessions') for (const id of event.ids) cache.evictSession(id);
      else if (event.resource === 'roles') cache.clear();
      else if (event.resource === 'companies') {
        cache.clear();
        tenants.clear();
      }
    },
    { resources: ['users', 'sessions', 'roles', 'companies'] },
  );
  // Events may have been missed while the bus's subscription was down: drop what they kept exact.
  events.onResync?.(() => {
    cache.flush();
    tenants.clear();
  });

  return {
    login,
    logout,
    resolveCaller,
    requestPasswordReset,
    checkResetKey,
    resetPassword,
    resolveTenant,
    pruneExpiredSessions: () => q.deleteExpiredSessions(db, Date.now()),
  };
}
