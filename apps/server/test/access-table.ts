import { AUTHORITY_KEYS, type Authority } from '@opsdeck/contract/authorities';
import type { TestApp } from './app';
import { createUser, type TestCompany } from './factories';

/** One endpoint of an area, as the authority and tenant tables call it. */
export type Endpoint = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path naming rows of the company under test (its ids). */
  path: string;
  json?: unknown;
  /** The route's `access.anyOf`: a caller holding none of these must get 403. */
  authorities: readonly Authority[];
};

export const endpointName = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;

/** Signs in a fresh user of `company` holding exactly `authorities`. */
export async function tokenFor(t: TestApp, company: TestCompany | null, authorities: readonly Authority[]) {
  const user = await createUser(t.database.db, { company, authorities });
  return t.login(user.email, user.password);
}

/**
 * For each endpoint, a user of the same company who holds every authority except the endpoint's
 * (and ADMIN_ACCESS_LEVEL) calls it. Returns `name → status`, which a test compares with 403s.
 */
export async function statusesWithoutAuthority(t: TestApp, company: TestCompany, endpoints: readonly Endpoint[]) {
  const result: Record<string, number> = {};
  for (const endpoint of endpoints) {
    const held = AUTHORITY_KEYS.filter((key) => key !== 'ADMIN_ACCESS_LEVEL' && !endpoint.authorities.includes(key));
    const token = await tokenFor(t, company, held);
    const { status } = await t.call(endpoint.path, { method: endpoint.method, token, json: endpoint.json });
    result[endpointName(endpoint)] = status;
  }
  return result;
}

/**
 * The endpoints called by `token` (a user of another company holding every authority but
 * ADMIN_ACCESS_LEVEL): plainly, and naming the owner's tenant in X-Tenant-Id. Returns
 * `name → status` and `name (X-Tenant-Id) → status`; a test expects 404 and 403 respectively.
 */
export async function statusesFromOtherTenant(
  t: TestApp,
  token: string,
  ownerTenantId: string,
  endpoints: readonly Endpoint[],
) {
  const result: Record<string, number> = {};
  for (const endpoint of endpoints) {
    const plain = await t.call(endpoint.path, { method: endpoint.method, token, json: endpoint.json });
    result[endpointName(endpoint)] = plain.status;
    const spoofed = await t.call(endpoint.path, {
      method: endpoint.method,
      token,
      json: endpoint.json,
      tenantId: ownerTenantId,
    });
    result[`${endpointName(endpoint)} (X-Tenant-Id)`] = spoofed.status;
  }
  return result;
}

/** Every authority a company user can hold: for the "other company" caller of the tenant table. */
export const COMPANY_AUTHORITIES = AUTHORITY_KEYS.filter((key) => key !== 'ADMIN_ACCESS_LEVEL');

/** `{ name: status }` for every endpoint, for `expect(actual).toEqual(expected(...))`. */
export function expectedStatuses(endpoints: readonly Endpoint[], status: number, spoofedStatus?: number) {
  const result: Record<string, number> = {};
  for (const endpoint of endpoints) {
    result[endpointName(endpoint)] = status;
    if (spoofedStatus !== undefined) result[`${endpointName(endpoint)} (X-Tenant-Id)`] = spoofedStatus;
  }
  return result;
}
