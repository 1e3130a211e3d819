import { AUTHORITY_KEYS, type Authority } from '@opsdeck/contract/authorities';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import type { ApiToken, CreatedApiToken } from '@opsdeck/contract/tokens';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, createUser, type TestCompany, type TestUser } from '../../../test/factories';
import { COMPANY_AUTHORITIES, signInCompanyHead, tokenFor } from '../../../test/sign-in';
import { apiTokens, userRoles } from '../../db/schema';
import { digest } from '../../platform/tokens';

type ErrorBody = { key: string; fields?: Record<string, string> };
type OpenApi = {
  paths: Record<string, Record<string, { 'x-authorities'?: Authority[] }>>;
  components: { securitySchemes: Record<string, unknown> };
  security: unknown[];
};

const DAY = 86_400_000;
/** An id no row has: a call that passes the access check finds nothing and changes nothing. */
const NO_ROW = 2_147_483_000;

let t: TestApp;
let north: TestCompany;
let south: TestCompany;
/** A user of north holding every company authority, and their session. */
let full: TestUser;
let fullSession: string;

/** POST /api/token as `session`; the answer (201 with the token, or the failure). */
function createToken(session: string, body: { name?: unknown; expiresAt?: unknown; scopes?: unknown }) {
  return t.call<CreatedApiToken & ErrorBody>('/api/token', {
    token: session,
    json: { name: 'CI', expiresAt: Date.now() + 30 * DAY, scopes: ['VIEW_TASK'], ...body },
  });
}

async function mint(session: string, scopes: readonly Authority[], expiresAt = Date.now() + 30 * DAY) {
  const created = await createToken(session, { scopes, expiresAt });
  if (created.status !== 201) throw new Error(`token not made: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

beforeAll(async () => {
  t = await startTestApp();
  north = await createCompany(t.database.db, { name: 'North Co' });
  south = await createCompany(t.database.db, { name: 'South Co' });
  full = await createUser(t.database.db, { company: north, authorities: COMPANY_AUTHORITIES });
  fullSession = await t.login(full.email, full.password);
});

afterAll(async () => {
  await t?.close();
});

describe('making, listing and revoking', () => {
  it('shows the token once, with its prefix, and lists it without the token', async () => {
    const expiresAt = Date.now() + 10 * DAY;
    const created = await createToken(fullSession, { name: ' Deploy bot ', expiresAt, scopes: ['VIEW_TASK'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Deploy bot',
      scopes: ['VIEW_TASK'],
      expiresAt,
      lastUsedAt: null,
      lastUsedAddress: null,
    });
    expect(created.body.token).toMatch(/^odt_[A-Za-z0-9_-]{43}$/);

    const list = await t.call<ApiToken[]>('/api/token', { token: fullSession });
    expect(list.status).toBe(200);
    const listed = list.body.find((token) => token.id === created.body.id);
    expect(listed).toEqual({ ...created.body, token: undefined, createdAt: created.body.createdAt });
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
  });

  it('works as Authorization: Bearer, and records its last use', async () => {
    const { id, token, expiresAt } = await mint(fullSession, ['VIEW_TASK']);
    const check = await t.call('/api/test', { token });
    expect(check).toMatchObject({ status: 200, body: { userId: full.id, tenantId: north.tenantId, expiresAt } });
    expect((await t.call('/api/task', { token })).status).toBe(200);
    // The scheme is case-insensitive; the app key is still required.
    const lower = await fetch(`${t.baseUrl}/api/test`, {
      headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, authorization: `bearer ${token}` },
    });
    expect(lower.status).toBe(200);
    const noKey = await t.call('/api/test', { token, appKey: null });
    expect(noKey).toMatchObject({ status: 401, body: { key: 'ERROR_APP_KEY_INVALID' } });

    const listed = (await t.call<ApiToken[]>('/api/token', { token: fullSession })).body.find((row) => row.id === id);
    expect(listed?.lastUsedAddress).toBe('127.0.0.1');
    expect(listed?.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);
    // Written off the request path, once (not once per request).
    await expect
      .poll(async () => (await rowOf(id))?.lastUsedAt ?? null, { timeout: 5_000 })
      .toBe(listed?.lastUsedAt ?? -1);
  });

  it('refuses a bearer value that is not an API token, and an unknown one', async () => {
    for (const authorization of ['Bearer ', `Bearer ${'x'.repeat(40)}`, 'Basic b2RzOmRlY2s=', 'Bearer odt_unknown']) {
      const answer = await t.call('/api/test', { headers: { authorization } });
      expect(answer, authorization).toMatchObject({ status: 401, body: { key: 'ERROR_UNAUTHORIZED' } });
    }
  });

  it('stores only the digest: the token is nowhere in the table', async () => {
    const { id, token } = await mint(fullSession, ['VIEW_TASK']);
    const row = await rowOf(id);
    expect(row?.tokenHash).toBe(digest(token));
    // Every column of every row, as the database holds them.
    const text = JSON.stringify(await t.database.db.select().from(apiTokens));
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(4));
  });

  it('validates the name, the expiry and the scopes', async () => {
    const cases: [Parameters<typeof createToken>[1], string, string][] = [
      [{ name: '' }, 'name', 'ERROR_API_TOKEN_NAME_REQUIRED'],
      [{ name: 'x'.repeat(256) }, 'name', 'ERROR_API_TOKEN_NAME_TOO_LONG'],
      [{ expiresAt: undefined }, 'expiresAt', 'ERROR_API_TOKEN_EXPIRY_REQUIRED'],
      [{ expiresAt: Date.now() - 1_000 }, 'expiresAt', 'ERROR_API_TOKEN_EXPIRY_PAST'],
      [{ expiresAt: Date.now() + 366 * DAY }, 'expiresAt', 'ERROR_API_TOKEN_EXPIRY_TOO_FAR'],
      [{ scopes: [] }, 'scopes', 'ERROR_API_TOKEN_SCOPES_REQUIRED'],
      [{ scopes: ['NOT_AN_AUTHORITY'] }, 'scopes.0', 'ERROR_API_TOKEN_SCOPE_INVALID'],
    ];
    for (const [body, field, key] of cases) {
      const answer = await createToken(fullSession, body);
      expect(answer.status, key).toBe(400);
      expect(answer.body.fields?.[field] ?? answer.body.key, key).toBe(key);
    }
    expect((await createToken(fullSession, { expiresAt: Date.now() + 365 * DAY - 60_000 })).status).toBe(201);
  });

  it('carries only authorities its user holds', async () => {
    const employee = await createUser(t.database.db, { company: north, authorities: ['VIEW_TASK'] });
    const session = await t.login(employee.email, employee.password);
    const answer = await createToken(session, { scopes: ['VIEW_TASK', 'DELETE_TASK'] });
    expect(answer).toMatchObject({
      status: 400,
      body: { key: 'ERROR_API_TOKEN_SCOPE_NOT_HELD', fields: { scopes: 'ERROR_API_TOKEN_SCOPE_NOT_HELD' } },
    });
    expect((await createToken(session, { scopes: ['VIEW_TASK'] })).status).toBe(201);
  });

  it('is refused at once when revoked; another user cannot see or revoke it (404)', async () => {
    const { id, token } = await mint(fullSession, ['VIEW_TASK']);
    expect((await t.call('/api/task', { token })).status).toBe(200);

    const other = await createUser(t.database.db, { company: north, authorities: COMPANY_AUTHORITIES });
    const otherSession = await t.login(other.email, other.password);
    const list = await t.call<ApiToken[]>('/api/token', { token: otherSession });
    expect(list.body.some((row) => row.id === id)).toBe(false);
    const stolen = await t.call(`/api/token/${id}`, { method: 'DELETE', token: otherSession });
    expect(stolen).toMatchObject({ status: 404, body: { key: 'ERROR_API_TOKEN_NOT_EXIST' } });
    const admin = await t.login(ADMIN.email, ADMIN.password);
    expect((await t.call(`/api/token/${id}`, { method: 'DELETE', token: admin })).status).toBe(404);
    expect((await t.call('/api/task', { token })).status).toBe(200);

    const revoked = await t.call(`/api/token/${id}`, { method: 'DELETE', token: fullSession });
    expect(revoked).toMatchObject({ status: 200, body: { ok: true } });
    expect(await t.call('/api/task', { token })).toMatchObject({ status: 401, body: { key: 'ERROR_UNAUTHORIZED' } });
    expect(await rowOf(id)).toBeUndefined();
    expect((await t.call(`/api/token/${id}`, { method: 'DELETE', token: fullSession })).status).toBe(404);
  });

  it('stops when it expires', async () => {
    const { token } = await mint(fullSession, ['VIEW_TASK'], Date.now() + 1_500);
    expect((await t.call('/api/task', { token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await t.call('/api/task', { token })).toMatchObject({ status: 401, body: { key: 'ERROR_UNAUTHORIZED' } });
  });

  it('never manages tokens itself (403): a token cannot mint, list or revoke tokens', async () => {
    const { id, token } = await mint(fullSession, ['VIEW_TASK']);
    const refused = { status: 403, body: { key: 'ERROR_API_TOKEN_SESSION_REQUIRED' } };
    expect(await createToken(token, {})).toMatchObject(refused);
    expect(await t.call('/api/token', { token })).toMatchObject(refused);
    expect(await t.call(`/api/token/${id}`, { method: 'DELETE', token })).toMatchObject(refused);
    expect(await rowOf(id)).toBeDefined();
  });
});

describe('never more than its user can do now', () => {
  it('narrows a live token at once when its user’s role loses an authority', async () => {
    const user = await createUser(t.database.db, { company: north, authorities: ['VIEW_TASK', 'VIEW_STATUS'] });
    const session = await t.login(user.email, user.password);
    const { token } = await mint(session, ['VIEW_TASK', 'VIEW_STATUS']);
    expect((await t.call('/api/task', { token })).status).toBe(200);
    expect((await t.call('/api/status', { token })).status).toBe(200);

    const [membership] = await t.database.db
      .select({ roleId: userRoles.roleId })
      .from(userRoles)
      .where(eq(userRoles.userId, user.id));
    const head = await signInCompanyHead(t, north);
    const edited = await t.call(`/api/usergroup/${membership?.roleId}`, {
      method: 'PUT',
      token: head.token,
      json: { name: 'Narrowed', newAuthorityName: ['VIEW_STATUS'] },
    });
    expect(edited.status).toBe(200);
    expect(await t.call('/api/task', { token })).toMatchObject({ status: 403, body: { key: 'ERROR_FORBIDDEN' } });
    expect((await t.call('/api/status', { token })).status).toBe(200);
    // And the authority given back is not a scope the token never had.
    await t.call(`/api/usergroup/${membership?.roleId}`, {
      method: 'PUT',
      token: head.token,
      json: { name: 'Narrowed', newAuthorityName: ['VIEW_STATUS', 'VIEW_TASK', 'VIEW_DEPARTMENT'] },
    });
    expect((await t.call('/api/task', { token })).status).toBe(200);
    expect((await t.call('/api/department', { token })).status).toBe(403);
  });

  it('stops at once when its user is archived', async () => {
    const user = await createUser(t.database.db, { company: north, authorities: ['VIEW_TASK'] });
    const session = await t.login(user.email, user.password);
    const { token } = await mint(session, ['VIEW_TASK']);
    expect((await t.call('/api/task', { token })).status).toBe(200);
    const archived = await t.call(`/api/user/archive/${user.id}`, { method: 'DELETE', token: fullSession });
    expect(archived.status).toBe(200);
    expect(await t.call('/api/task', { token })).toMatchObject({ status: 401, body: { key: 'ERROR_UNAUTHORIZED' } });
  });
});

describe('scopes on every route', () => {
  let doc: OpenApi;
  /** Every operation that names authorities, its path's parameters filled with an id no row has. */
  let endpoints: Endpoint[];

  beforeAll(async () => {
    doc = (await t.call<OpenApi>('/api/openapi.json')).body;
    endpoints = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        operation['x-authorities']
          ? [
              {
                method: method.toUpperCase() as Endpoint['method'],
                path: path.replace(/\{[^}]+\}/g, String(NO_ROW)),
                authorities: operation['x-authorities'],
              },
            ]
          : [],
      ),
    );
  });

  it('describes the bearer scheme and each operation’s authorities in the OpenAPI document', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toContainEqual({ appKey: [], bearerAuth: [] });
    expect(endpoints.length).toBeGreaterThan(50);
    expect(endpoints).toContainEqual({ method: 'DELETE', path: `/api/task/${NO_ROW}`, authorities: ['DELETE_TASK'] });
  });

  it('refuses a token whose scopes lack the route’s authority, though its user holds it (the authority table)', async () => {
    await expectRefusedWithoutAuthority(
      t,
      north,
      endpoints,
      async (_t, _company, held) => (await mint(fullSession, held)).token,
    );
  });

  it('lets a token of each scope do what a session holding only that authority does, on every route', async () => {
    const failures: string[] = [];
    const call = (endpoint: Endpoint, headers: Record<string, string>) =>
      t.app.inject({
        method: endpoint.method,
        url: endpoint.path,
        headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, ...headers },
      });
    for (const scope of COMPANY_AUTHORITIES) {
      const { token } = await mint(fullSession, [scope]);
      let session: string | undefined;
      for (const endpoint of endpoints) {
        const answer = await call(endpoint, { authorization: `Bearer ${token}` });
        const name = `${scope}: ${endpoint.method} ${endpoint.path}`;
        if (!endpoint.authorities.includes(scope)) {
          if (answer.statusCode !== 403 || answer.json().key !== 'ERROR_FORBIDDEN') {
            failures.push(`${name} answered ${answer.statusCode}, not 403`);
          }
          continue;
        }
        session ??= await tokenFor(t, north, [scope]);
        const expected = await call(endpoint, { [HEADERS.authToken]: session });
        if (answer.statusCode !== expected.statusCode) {
          failures.push(`${name} answered ${answer.statusCode}; a session holding only it: ${expected.statusCode}`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  }, 180_000);

  it('never reaches another company (the tenant table)', async () => {
    const department = await createDepartment(t.database.db, south, { name: 'South Desk' });
    const { token } = await mint(fullSession, COMPANY_AUTHORITIES);
    const json = { name: 'Hijacked', parentId: null, headId: full.id };
    await expectHiddenFromOtherTenant(t, token, south.tenantId, [
      { method: 'GET', path: `/api/department/${department.id}`, authorities: ['VIEW_DEPARTMENT'] },
      { method: 'PUT', path: `/api/department/${department.id}`, json, authorities: ['EDIT_DEPARTMENT'] },
      { method: 'DELETE', path: `/api/department/${department.id}`, authorities: ['DELETE_DEPARTMENT'] },
    ]);
    const list = await t.call<{ tenantId: string }[]>('/api/department', { token });
    expect(list.status).toBe(200);
    expect(list.body.some((row) => row.tenantId === south.tenantId)).toBe(false);
  });

  it('acts for a provider administrator’s company only when its scopes still make it an admin', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const { token } = await mint(admin, ['VIEW_DEPARTMENT', 'ACCESS_DEPARTMENT_TAB']);
    // No company: an admin whatever the scopes (spec section 6), so X-Tenant-Id is honoured.
    expect((await t.call('/api/test', { token, tenantId: south.tenantId })).body).toMatchObject({
      tenantId: south.tenantId,
    });
    const companyAdmin = await createUser(t.database.db, {
      company: north,
      authorities: ['ADMIN_ACCESS_LEVEL', 'VIEW_DEPARTMENT'],
    });
    const session = await t.login(companyAdmin.email, companyAdmin.password);
    const narrow = await mint(session, ['VIEW_DEPARTMENT']);
    expect(await t.call('/api/test', { token: narrow.token, tenantId: south.tenantId })).toMatchObject({
      status: 403,
      body: { key: 'ERROR_TENANT_FORBIDDEN' },
    });
    expect(AUTHORITY_KEYS).toContain('ADMIN_ACCESS_LEVEL');
  });
});

async function rowOf(id: number) {
  const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
  return row;
}
