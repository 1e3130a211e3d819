import { eq, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { RequestAuth } from './access';
import { badRequest } from './errors';

/**
 * Which tenant(s) a call may touch (CONVENTIONS.md 13: one scope, spelt once). `every`: an admin
 * who picked no company reads every company's rows; `one`: the request's company (X-Tenant-Id for
 * admins, the caller's own otherwise). A row outside the scope answers 404 as if it did not exist.
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
