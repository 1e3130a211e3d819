import { AUTHORITY_KEYS, type Authority } from '@opsdeck/contract/authorities';
import { expect } from 'vitest';
import type { TestApp } from './app';
import type { TestCompany } from './factories';
import { tokenFor } from './sign-in';

/** One endpoint of an area, as the authority and tenant tables call it. */
export type Endpoint = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path naming rows of the company under test (its ids). */
  path: string;
  json?: unknown;
  /** The route's `access.anyOf`: a caller holding none of these must get 403. */
  authorities: readonly Authority[];
};

const endpointName = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;

/**
 * For each endpoint, a user of the same company who holds every authority except the endpoint's
 * (and ADMIN_ACCESS_LEVEL) calls it. Returns `name → status`.
 */
async function statusesWithoutAuthority(
  t: TestApp,
  company: TestCompany,
  endpoints: readonly Endpoint[],
  makeToken: TokenMaker,
) {
  const result: Record<string, number> = {};
  for (const endpoint of endpoints) {
    const held = AUTHORITY_KEYS.filter((key) => key !== 'ADMIN_ACCESS_LEVEL' && !endpoint.authorities.includes(key));
    const token = await makeToken(t, company, held);
    const { status } = await t.call(endpoint.path, { method: endpoint.method, token, json: endpoint.json });
    result[endpointName(endpoint)] = status;
  }
  return result;
}

/**
 * The endpoints called by `token` (a user of another company holding every authority but
 * ADMIN_ACCESS_LEVEL): plainly, and naming the owner's tenant in X-Tenant-Id. Returns
 * `name → status` and `name (X-Tenant-Id) → status`.
 */
async function statusesFromOtherTenant(
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

/** `{ name: status }` for every endpoint (and `name (X-Tenant-Id)` with `spoofedStatus`), as the two above answer. */
function expectedStatuses(endpoints: readonly Endpoint[], status: number, spoofedStatus?: number) {
  const result: Record<string, number> = {};
  for (const endpoint of endpoints) {
    result[endpointName(endpoint)] = status;
    if (spoofedStatus !== undefined) result[`${endpointName(endpoint)} (X-Tenant-Id)`] = spoofedStatus;
  }
  return result;
}

/** A token of a caller of `company` who may do exactly `authorities` (a session, or an API token's scopes). */
export type TokenMaker = (t: TestApp, company: TestCompany, authorities: readonly Authority[]) => Promise<string>;

/**
 * Expects every endpoint to answer 403 to a user of `company` who lacks the endpoint's authorities
 * (`makeToken`: by default a session; the API tokens' test passes a token whose scopes lack them).
 */
export async function expectRefusedWithoutAuthority(
  t: TestApp,
  company: TestCompany,
  endpoints: readonly Endpoint[],
  makeToken: TokenMaker = tokenFor,
) {
  expect(await statusesWithoutAuthority(t, company, endpoints, makeToken)).toEqual(expectedStatuses(endpoints, 403));
}

/** Expects every endpoint to answer 404 to `token` of another company, and 403 when it names `ownerTenantId`. */
export async function expectHiddenFromOtherTenant(
  t: TestApp,
  token: string,
  ownerTenantId: string,
  endpoints: readonly Endpoint[],
) {
  expect(await statusesFromOtherTenant(t, token, ownerTenantId, endpoints)).toEqual(
    expectedStatuses(endpoints, 404, 403),
  );
}
