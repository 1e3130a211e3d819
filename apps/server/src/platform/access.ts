import type { Authority } from '@opsdeck/contract/authorities';
import { HEADERS } from '@opsdeck/contract/http';
import { API_TOKEN_PREFIX } from '@opsdeck/contract/tokens';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, notFound, unauthorized } from './errors';

/**
 * What a route needs, declared on every route under /api (docs/architecture.md, "Security"): a
 * route with no declaration is refused at start-up, so nothing is ever open by omission.
 */
export type Access =
  | { readonly kind: 'public' }
  | { readonly kind: 'session' }
  | { readonly kind: 'authorities'; readonly anyOf: readonly Authority[] };

export const access = {
  /** No session needed (sign-in, password reset). The app key is still required. */
  public: { kind: 'public' } as Access,
  /** Any signed-in user, whatever their authorities (logout, session check, own profile). */
  session: { kind: 'session' } as Access,
  /** A signed-in user holding at least one of these authorities. */
  anyOf: (...anyOf: Authority[]): Access => ({ kind: 'authorities', anyOf }),
};

/** Who is calling, resolved once per request from the session token or the API token. */
export type Caller = {
  userId: number;
  /** The session's id; 0 for an API token. */
  sessionId: number;
  /** The digest of the session token or of the API token. */
  tokenHash: string;
  expiresAt: number;
  /** The caller's own company and tenant; null for provider administrators. */
  companyId: number | null;
  ownTenantId: string | null;
  authorities: ReadonlySet<Authority>;
  /** ADMIN_ACCESS_LEVEL, or no company at all (spec section 6). */
  isAdmin: boolean;
  /**
   * The API token the call came with (`Authorization: Bearer odt_…`), null for a session. Its
   * `authorities` are already its scopes narrowed to what its user holds now.
   */
  token: { id: number; name: string } | null;
};

/** The caller plus the tenant this request acts on: X-Tenant-Id for admins, else their own. */
export type RequestAuth = Caller & { tenantId: string | null; tenantCompanyId: number | null };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Health and API docs answer without an app key (probes and browsers have none). */
    skipAppKey?: boolean;
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
}

export type AccessControlOptions = {
  appKeys: ReadonlySet<string>;
  resolveCaller: (token: string) => Caller | null | Promise<Caller | null>;
  /**
   * The caller of an API token (`Authorization: Bearer odt_…`), given the request's address for
   * its last use; absent, bearer tokens are refused. Sessions only on the live channel.
   */
  resolveBearer?: (token: string, address: string) => Caller | null | Promise<Caller | null>;
  /** The company id of a tenant, or null when no company has that tenant id. */
  resolveTenant: (tenantId: string) => number | null | Promise<number | null>;
  /** Paths a browser opens without headers (the API docs page and its assets). */
  openPrefixes: readonly string[];
};

type TenantOptions = Pick<AccessControlOptions, 'resolveTenant'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A request header's first value; `name` in lower case, as Node keeps them. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The authenticated caller of a route that declared a session or authorities. */
/**
 * The provider's business (companies, licences, the activity catalogue; docs/roles.md): refused
 * to anyone of a company, whatever authorities a company role was given.
 */
export function requireProvider(auth: RequestAuth): void {
  if (!auth.isAdmin) throw forbidden();
}

export function requireAuth(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** Declares `request.auth`, refuses undeclared API routes at start-up; answers the per-request check. */
export function registerAccessControl(app: FastifyInstance, options: AccessControlOptions) {
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    if (options.openPrefixes.some((prefix) => route.url.startsWith(prefix))) {
      route.config = { ...route.config, skipAppKey: true };
    }
    if (!route.url.startsWith('/api') || route.config?.skipAppKey) return;
    if (!route.config?.access) {
      throw new Error(`${route.method} ${route.url} declares no access: every API route must say who may call it`);
    }
  });

  return createAccessCheck(options);
}

/**
 * The app key and the route's access declaration, checked for every request by the one
 * onRequest hook (platform/on-request.ts). Settled without a promise where nothing is awaited
 * (paths outside /api, open and public routes, refusals before the session lookup).
 */
export function createAccessCheck(options: AccessControlOptions) {
  return (request: FastifyRequest): Promise<void> | void => {
    const config = request.routeOptions.config;
    if (config.skipAppKey || !request.url.startsWith('/api')) return;
    const appKey = header(request, HEADERS.appKey);
    if (!appKey || !options.appKeys.has(appKey)) throw unauthorized('ERROR_APP_KEY_INVALID');

    const routeAccess = config.access;
    // Unknown /api paths have no route config: answer them as not found, after the app key.
    if (!routeAccess || routeAccess.kind === 'public') return;

    const token = header(request, HEADERS.authToken);
    if (token) return authenticate(request, options.resolveCaller(token), routeAccess, options);
    // No session token: an API token, when one is sent (X-Auth-Token wins when both are).
    const bearer = bearerToken(header(request, HEADERS.authorization));
    if (bearer === null || !options.resolveBearer) throw unauthorized();
    return authenticate(request, options.resolveBearer(bearer, request.ip), routeAccess, options);
  };
}

const BEARER = 'bearer ';

/** The token of `Authorization: Bearer odt_…`, or null (another scheme, or not an API token). */
function bearerToken(value: string | undefined): string | null {
  if (value === undefined || value.length <= BEARER.length + API_TOKEN_PREFIX.length) return null;
  if (value.slice(0, BEARER.length).toLowerCase() !== BEARER) return null;
  const token = value.slice(BEARER.length).trim();
  return token.startsWith(API_TOKEN_PREFIX) ? token : null;
}

/** `next(value)` now when `value` is at hand, else once it resolves: cached lookups cost no promise. */
function chain<T, R>(value: T | Promise<T>, next: (resolved: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** Settles without a promise when the session and the tenant are cached (nearly every request). */
function authenticate(
  request: FastifyRequest,
  resolved: Caller | null | Promise<Caller | null>,
  routeAccess: Access,
  options: AccessControlOptions,
): Promise<void> | void {
  return chain(resolved, (caller) => {
    if (!caller) throw unauthorized();
    return chain(withTenant(request, caller, options), (auth) => {
      request.auth = auth;
      if (routeAccess.kind === 'authorities' && !routeAccess.anyOf.some((key) => caller.authorities.has(key))) {
        throw forbidden();
      }
    });
  });
}

/**
 * The caller acting on a tenant, written out field by field: V8 copies `{ ...caller, tenantId }`
 * about two hundred times slower (2 µs a request, a tenth of a cached session check).
 */
function actingOn(caller: Caller, tenantId: string | null, tenantCompanyId: number | null): RequestAuth {
  return {
    userId: caller.userId,
    sessionId: caller.sessionId,
    tokenHash: caller.tokenHash,
    expiresAt: caller.expiresAt,
    companyId: caller.companyId,
    ownTenantId: caller.ownTenantId,
    authorities: caller.authorities,
    isAdmin: caller.isAdmin,
    token: caller.token,
    tenantId,
    tenantCompanyId,
  };
}

function withTenant(request: FastifyRequest, caller: Caller, options: TenantOptions) {
  return actingOnRequested(header(request, HEADERS.tenantId), caller, options);
}

function actingOnRequested(requestedHeader: string | undefined, caller: Caller, options: TenantOptions) {
  const requested = requestedHeader?.trim();
  if (!requested || requested === caller.ownTenantId) {
    return actingOn(caller, caller.ownTenantId, caller.companyId);
  }
  // X-Tenant-Id is honoured only for ADMIN_ACCESS_LEVEL; anyone else asking for another
  // company is refused rather than silently served their own.
  if (!caller.isAdmin) throw forbidden('ERROR_TENANT_FORBIDDEN');
  if (!UUID.test(requested)) throw notFound('ERROR_COMPANY_NOT_EXIST');
  return chain(options.resolveTenant(requested), (companyId) => {
    if (companyId === null) throw notFound('ERROR_COMPANY_NOT_EXIST');
    return actingOn(caller, requested, companyId);
  });
}

/**
 * The same checks as a request's, for a caller that is not an HTTP request (the live channel's
 * CONNECT frame): app key, session token, tenant header. Throws the same AppErrors.
 */
export async function authenticateHeaders(
  options: Pick<AccessControlOptions, 'appKeys' | 'resolveCaller' | 'resolveTenant'>,
  headers: { appKey: string | undefined; token: string | undefined; tenantId: string | undefined },
): Promise<RequestAuth> {
  if (!headers.appKey || !options.appKeys.has(headers.appKey)) throw unauthorized('ERROR_APP_KEY_INVALID');
  if (!headers.token) throw unauthorized();
  const caller = await options.resolveCaller(headers.token);
  if (!caller) throw unauthorized();
  return actingOnRequested(headers.tenantId, caller, options);
}
