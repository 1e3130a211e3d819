import { AsyncLocalStorage } from 'node:async_hooks';
import { eq, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { RequestAuth } from './access';
import { badRequest } from './errors';

/**
 * Which tenant(s) a call may touch (docs/conventions.md, "13. One scope, spelt once"). `every`: an
 * admin who picked no company reads every company's rows; `one`: the request's company (X-Tenant-Id
 * for admins, the caller's own otherwise). A row outside the scope answers 404 as if it did not
 * exist.
 */
export type TenantScope = { readonly kind: 'every' } | { readonly kind: 'one'; readonly tenantId: string };

export const EVERY_TENANT: TenantScope = { kind: 'every' };
export const oneTenant = (tenantId: string): TenantScope => ({ kind: 'one', tenantId });

/** The scope of a request's reads (and of writes to rows that already exist). */
export function scopeOf(auth: Pick<RequestAuth, 'tenantId'>): TenantScope {
  return auth.tenantId === null ? EVERY_TENANT : oneTenant(auth.tenantId);
}

/** The one tenant of a scope, or null for every tenant. */
export const scopedTenant = (scope: TenantScope): string | null => (scope.kind === 'one' ? scope.tenantId : null);

/**
 * The WHERE condition that keeps a table's rows inside the scope: every query of tenant-owned rows,
 * UPDATE and DELETE included, goes through this (undefined adds no condition, for `every`).
 */
export function inScope(tenantColumn: PgColumn, scope: TenantScope): SQL | undefined {
  return scope.kind === 'one' ? eq(tenantColumn, scope.tenantId) : undefined;
}

/**
 * Rows owned by one tenant, where a null owner is the provider's own (its roles and its
 * administrators have no company). Not a scope: a lookup of the rows a given owner has.
 */
export function ownedBy(tenantColumn: PgColumn, owner: string | null): SQL {
  return owner === null ? isNull(tenantColumn) : eq(tenantColumn, owner);
}

/**
 * The tenant a new row lands in. Company users always write in their own; an admin names the
 * company (X-Tenant-Id) or is refused with ERROR_COMPANY_REQUIRED (spec section 5: "Company
 * required for admins").
 */
export function writeTenant(auth: Pick<RequestAuth, 'tenantId'>): string {
  if (auth.tenantId === null) throw badRequest('ERROR_COMPANY_REQUIRED', { company: 'ERROR_COMPANY_REQUIRED' });
  return auth.tenantId;
}

/**
 * Whose rows the database itself lets the current work see (docs/tenancy.md, "The wall in the
 * database"). Every query runs as the role `opsdeck_app`, under row-level security, with the scope
 * of the work it serves: a company user's request sees its tenant's rows only, whatever its
 * queries forget to say. `provider` is the provider's own work: its administrators' requests,
 * sign-in and the agents' channel (which look callers up before a tenant is known), start-up and
 * the timers that serve every company. `owner` (migrations, partitions' DDL) runs as the login
 * itself, outside the wall.
 */
export type DatabaseScope =
  | { readonly kind: 'tenant'; readonly tenantId: string }
  | { readonly kind: 'provider' }
  | { readonly kind: 'owner' };

const PROVIDER: DatabaseScope = { kind: 'provider' };
const OWNER: DatabaseScope = { kind: 'owner' };
const databaseScopes = new AsyncLocalStorage<DatabaseScope>();

/**
 * The scope of the work running now. Work that no request started (start-up, timers, the agents'
 * channel) is the provider's: the one default, and the one place it is decided.
 */
export const currentDatabaseScope = (): DatabaseScope => databaseScopes.getStore() ?? PROVIDER;

/**
 * Runs `work` (and everything it starts) seeing one tenant's rows only. The work is awaited inside
 * the scope: a query builder handed back un-awaited would otherwise run outside it.
 */
export const inTenant = <T>(tenantId: string, work: () => PromiseLike<T> | T): Promise<T> =>
  inDatabaseScope({ kind: 'tenant', tenantId }, work);

/** Runs `work` as the provider: every company's rows, for work that serves them all. */
export const asProvider = <T>(work: () => PromiseLike<T> | T): Promise<T> => inDatabaseScope(PROVIDER, work);

/** Runs `work` as the database's owner (schema changes only: migrations, partitions). */
export const asOwner = <T>(work: () => PromiseLike<T> | T): Promise<T> => inDatabaseScope(OWNER, work);

export const inDatabaseScope = <T>(scope: DatabaseScope, work: () => PromiseLike<T> | T): Promise<T> =>
  databaseScopes.run(scope, async () => await work());

/** Calls `next` (a request's handler, and all it starts) in `scope`. */
export const continueInDatabaseScope = (scope: DatabaseScope, next: () => void) => databaseScopes.run(scope, next);

/**
 * The database scope of a request: a company user's own tenant; the provider's for its staff (who
 * have no company), whichever company they act on.
 */
export const databaseScopeOf = (auth: Pick<RequestAuth, 'ownTenantId'>): DatabaseScope =>
  auth.ownTenantId === null ? PROVIDER : { kind: 'tenant', tenantId: auth.ownTenantId };

/**
 * Makes the rest of a one-off script's top level run as the owner (the benchmarks' seed scripts:
 * every company's rows in bulk, temporary tables, VACUUM). Never for the server.
 */
export const runScriptAsOwner = () => databaseScopes.enterWith(OWNER);
