import { AUTHORITY_KEYS, type Authority, BUILT_IN_ROLES } from '@opsdeck/contract/authorities';
import type { AuthorityItem, Role } from '@opsdeck/contract/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createRole, createUser, type TestCompany } from '../../../test/factories';
import { tokenFor, tokenWithEveryAuthority } from '../../../test/sign-in';
import { assignRole, findBuiltInRole } from './queries';

let t: TestApp;
let admin: string;
let north: TestCompany;
let south: TestCompany;
/** The head of north: Company Administrator. */
let head: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  north = await createCompany(t.database.db, { name: 'North' });
  south = await createCompany(t.database.db, { name: 'South' });
  const headUser = await createUser(t.database.db, { company: north, role: 'COMPANY_ADMINISTRATOR' });
  head = await t.login(headUser.email, headUser.password);
  await createUser(t.database.db, { company: south, role: 'COMPANY_ADMINISTRATOR' });
});
afterAll(async () => {
  await t.close();
});

const keysOf = (items: { key: string }[]) => items.map((item) => item.key);
const namesOf = (roles: Role[]) => roles.map((role) => role.name);

async function list(token: string, tenantId?: string) {
  const result = await t.call<Role[]>('/api/usergroup/findAllActive', { token, tenantId });
  expect(result.status).toBe(200);
  return result.body;
}

async function create(token: string, json: unknown, tenantId?: string) {
  return t.call<Role & { key: string; fields?: Record<string, string> }>('/api/usergroup', {
    token,
    json,
    tenantId,
  });
}

async function createOk(token: string, name: string, authorityNames: Authority[], tenantId?: string) {
  const result = await create(token, { name, authorityNames }, tenantId);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body;
}

const update = (token: string, id: number, json: unknown) =>
  t.call<Role & { key: string; fields?: Record<string, string> }>(`/api/usergroup/${id}`, {
    method: 'PUT',
    token,
    json,
  });

const remove = (token: string, id: number) =>
  t.call<{ key?: string }>(`/api/usergroup/archiveRole/${id}`, { method: 'DELETE', token });

describe('GET /api/authority/findAll', () => {
  it('gives admins every authority, in the contract order, id equal to key', async () => {
    const result = await t.call<AuthorityItem[]>('/api/authority/findAll', { token: admin });
    expect(result.status).toBe(200);
    expect(keysOf(result.body)).toEqual(AUTHORITY_KEYS);
    expect(result.body[0]).toEqual({
      id: 'ACCESS_AGENT_REPORT_TAB',
      key: 'ACCESS_AGENT_REPORT_TAB',
      title: expect.any(String),
    });
  });

  it('gives a company user only what they hold, never ADMIN_ACCESS_LEVEL', async () => {
    const result = await t.call<AuthorityItem[]>('/api/authority/findAll', { token: head });
    expect(keysOf(result.body)).toEqual(BUILT_IN_ROLES.COMPANY_ADMINISTRATOR.authorities);
    const narrow = await tokenFor(t, north, ['ACCESS_ROLE_TAB', 'VIEW_USER']);
    expect(keysOf((await t.call<AuthorityItem[]>('/api/authority/findAll', { token: narrow })).body)).toEqual([
      'ACCESS_ROLE_TAB',
      'VIEW_USER',
    ]);
  });
});

describe('GET /api/usergroup/findAllActive', () => {
  it("shows an admin every company's roles and the provider's own; X-Tenant-Id narrows to one company", async () => {
    const all = await list(admin);
    expect(all.find((role) => role.name === 'Provider Administrator')).toMatchObject({
      tenantId: null,
      companyName: null,
      isProtected: true,
    });
    expect(all.filter((role) => role.tenantId === north.tenantId).length).toBeGreaterThan(0);
    expect(all.filter((role) => role.tenantId === south.tenantId).length).toBeGreaterThan(0);
    const onlySouth = await list(admin, south.tenantId);
    expect(onlySouth.length).toBeGreaterThan(0);
    expect(onlySouth.every((role) => role.tenantId === south.tenantId && role.companyName === 'South')).toBe(true);
  });

  it("shows a company user their own company's roles with their authorities", async () => {
    const roles = await list(head);
    expect(roles.every((role) => role.tenantId === north.tenantId)).toBe(true);
    const companyAdmin = roles.find((role) => role.name === 'Company Administrator');
    expect(keysOf(companyAdmin!.authorities)).toEqual(BUILT_IN_ROLES.COMPANY_ADMINISTRATOR.authorities);
  });

  it('answers the user forms (CREATE_USER or EDIT_USER alone)', async () => {
    for (const authority of ['CREATE_USER', 'EDIT_USER', 'VIEW_ROLE', 'ACCESS_ROLE_TAB'] as const) {
      const token = await tokenFor(t, north, [authority]);
      expect((await t.call('/api/usergroup/findAllActive', { token })).status).toBe(200);
    }
  });
});

describe('POST /api/usergroup', () => {
  it('creates a role in the own company with the named authorities', async () => {
    const role = await createOk(head, '  Auditors  ', ['VIEW_USER', 'ACCESS_USER_TAB', 'VIEW_USER']);
    expect(role).toMatchObject({
      name: 'Auditors',
      isProtected: false,
      tenantId: north.tenantId,
      companyName: 'North',
    });
    // Deduplicated, in the contract order.
    expect(keysOf(role.authorities)).toEqual(['ACCESS_USER_TAB', 'VIEW_USER']);
    expect(namesOf(await list(head))).toContain('Auditors');
    const fetched = await t.call<Role>(`/api/usergroup/${role.id}`, { token: head });
    expect(fetched.body).toEqual(role);
  });

  it('creates an admin role in the company named by X-Tenant-Id; without one: ERROR_COMPANY_REQUIRED', async () => {
    const role = await createOk(admin, 'Planners', ['ACCESS_SCHEDULE_TAB'], south.tenantId);
    expect(role.tenantId).toBe(south.tenantId);
    const missing = await create(admin, { name: 'Nowhere', authorityNames: [] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      key: 'ERROR_COMPANY_REQUIRED',
      fields: { company: 'ERROR_COMPANY_REQUIRED' },
    });
  });

  it('requires a name of at most 255 characters', async () => {
    for (const json of [
      { authorityNames: [] },
      { name: '', authorityNames: [] },
      { name: '   ', authorityNames: [] },
    ]) {
      const result = await create(head, json);
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        key: 'ERROR_ROLE_NAME_REQUIRED',
        fields: { name: 'ERROR_ROLE_NAME_REQUIRED' },
      });
    }
    const long = await create(head, { name: 'x'.repeat(256), authorityNames: [] });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ key: 'ERROR_ROLE_NAME_TOO_LONG', fields: { name: 'ERROR_ROLE_NAME_TOO_LONG' } });
    for (const name of ['a/b', 'a\\b', 'a:b', 'a*b', 'a?b', 'a"b', 'a|b', 'a<b', 'a>b']) {
      const invalid = await create(head, { name, authorityNames: [] });
      expect(invalid.status, name).toBe(400);
      expect(invalid.body).toMatchObject({
        key: 'ERROR_ROLE_NAME_INVALID',
        fields: { name: 'ERROR_ROLE_NAME_INVALID' },
      });
    }
    await createOk(head, 'y'.repeat(255), []);
  });

  it('refuses a name the company already uses, whatever its case; another company may use it', async () => {
    await createOk(head, 'Night Shift', []);
    const duplicate = await create(head, { name: 'NIGHT shift', authorityNames: [] });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({
      key: 'ERROR_ROLE_NAME_DUPLICATE',
      fields: { name: 'ERROR_ROLE_NAME_DUPLICATE' },
    });
    const builtIn = await create(head, { name: 'company administrator', authorityNames: [] });
    expect(builtIn.status).toBe(409);
    await createOk(admin, 'Night Shift', [], south.tenantId);
  });

  it('refuses unknown authority keys', async () => {
    const result = await create(head, { name: 'Odd', authorityNames: ['VIEW_USER', 'FLY_TO_THE_MOON'] });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ key: 'ERROR_ROLE_AUTHORITY_INVALID' });
    expect((await create(head, { name: 'Odd', authorityNames: 'VIEW_USER' })).status).toBe(400);
  });

  it('refuses privilege escalation: only held authorities, never ADMIN_ACCESS_LEVEL', async () => {
    const admin_ = await create(head, { name: 'Escalate', authorityNames: ['ADMIN_ACCESS_LEVEL'] });
    expect(admin_.status).toBe(403);
    expect(admin_.body).toMatchObject({ key: 'ERROR_FORBIDDEN' });
    const notHeld = await create(head, { name: 'Escalate', authorityNames: ['CREATE_COMPANY'] });
    expect(notHeld.status).toBe(403);
    const narrow = await tokenFor(t, north, ['CREATE_ROLE', 'VIEW_USER']);
    expect((await create(narrow, { name: 'Escalate', authorityNames: ['EDIT_USER'] })).status).toBe(403);
    expect((await create(narrow, { name: 'Narrow', authorityNames: ['VIEW_USER', 'CREATE_ROLE'] })).status).toBe(200);
    expect(namesOf(await list(head))).not.toContain('Escalate');
    // Admins may grant anything.
    await createOk(admin, 'Full', AUTHORITY_KEYS, north.tenantId);
  });
});

describe('PUT /api/usergroup/{id}', () => {
  it('renames a role and replaces its authorities with newAuthorityName', async () => {
    const role = await createOk(head, 'Editors', ['VIEW_USER', 'EDIT_USER']);
    const result = await update(head, role.id, { name: 'Editors 2', newAuthorityName: ['VIEW_TASK', 'EDIT_TASK'] });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: role.id, name: 'Editors 2' });
    expect(keysOf(result.body.authorities)).toEqual(['VIEW_TASK', 'EDIT_TASK']);
    const cleared = await update(head, role.id, { name: 'Editors 2', newAuthorityName: [] });
    expect(cleared.body.authorities).toEqual([]);
  });

  it('applies the name rules, duplicate excepting itself', async () => {
    const role = await createOk(head, 'Checkers', []);
    await createOk(head, 'Watchers', []);
    expect((await update(head, role.id, { name: '', newAuthorityName: [] })).body).toMatchObject({
      key: 'ERROR_ROLE_NAME_REQUIRED',
    });
    expect((await update(head, role.id, { newAuthorityName: [] })).body).toMatchObject({
      key: 'ERROR_ROLE_NAME_REQUIRED',
    });
    const long = await update(head, role.id, { name: 'x'.repeat(256), newAuthorityName: [] });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ key: 'ERROR_ROLE_NAME_TOO_LONG' });
    expect((await update(head, role.id, { name: 'a/b', newAuthorityName: [] })).body).toMatchObject({
      key: 'ERROR_ROLE_NAME_INVALID',
    });
    const duplicate = await update(head, role.id, { name: 'watchers', newAuthorityName: [] });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({
      key: 'ERROR_ROLE_NAME_DUPLICATE',
      fields: { name: 'ERROR_ROLE_NAME_DUPLICATE' },
    });
    expect((await update(head, role.id, { name: 'CHECKERS', newAuthorityName: [] })).status).toBe(200);
    expect((await update(head, role.id, { name: 'Checkers', newAuthorityName: ['NOPE'] })).body).toMatchObject({
      key: 'ERROR_ROLE_AUTHORITY_INVALID',
    });
  });

  it('refuses to change built-in roles (ERROR_ROLE_PROTECTED), for admins too', async () => {
    const builtIn = (await findBuiltInRole(t.database.db, north.tenantId, 'COMPANY_ADMINISTRATOR'))!;
    for (const token of [head, admin]) {
      const result = await update(token, builtIn, { name: 'Company Administrator', newAuthorityName: [] });
      expect(result.status).toBe(409);
      expect(result.body).toMatchObject({ key: 'ERROR_ROLE_PROTECTED' });
    }
    const after = await t.call<Role>(`/api/usergroup/${builtIn}`, { token: head });
    expect(keysOf(after.body.authorities)).toEqual(BUILT_IN_ROLES.COMPANY_ADMINISTRATOR.authorities);
  });

  it('refuses adding an authority the editor does not hold; keeping or removing one is allowed', async () => {
    const role = await createOk(admin, 'Mixed', ['VIEW_USER', 'CREATE_COMPANY'], north.tenantId);
    const escalate = await update(head, role.id, {
      name: 'Mixed',
      newAuthorityName: ['VIEW_USER', 'CREATE_COMPANY', 'ADMIN_ACCESS_LEVEL'],
    });
    expect(escalate.status).toBe(403);
    expect(escalate.body).toMatchObject({ key: 'ERROR_FORBIDDEN' });
    const escalate2 = await update(head, role.id, {
      name: 'Mixed',
      newAuthorityName: ['VIEW_USER', 'CREATE_COMPANY', 'EDIT_COMPANY'],
    });
    expect(escalate2.status).toBe(403);
    const keep = await update(head, role.id, {
      name: 'Mixed',
      newAuthorityName: ['VIEW_USER', 'CREATE_COMPANY', 'EDIT_USER'],
    });
    expect(keep.status).toBe(200);
    expect(keysOf(keep.body.authorities)).toEqual(['CREATE_COMPANY', 'VIEW_USER', 'EDIT_USER']);
    const drop = await update(head, role.id, { name: 'Mixed', newAuthorityName: ['VIEW_USER'] });
    expect(keysOf(drop.body.authorities)).toEqual(['VIEW_USER']);
    // Once dropped it is not the head's to give back.
    expect(
      (await update(head, role.id, { name: 'Mixed', newAuthorityName: ['VIEW_USER', 'CREATE_COMPANY'] })).status,
    ).toBe(403);
  });

  it("takes effect on the holder's very next request (sessions are evicted)", async () => {
    const role = await createRole(t.database.db, north, ['VIEW_USER']);
    const user = await createUser(t.database.db, { company: north, authorities: [] });
    await assignRole(t.database.db, user.id, role.id);
    const token = await t.login(user.email, user.password);
    expect((await t.call('/api/authority/findAll', { token })).status).toBe(403);
    expect((await update(head, role.id, { name: 'Grows', newAuthorityName: ['VIEW_USER', 'VIEW_ROLE'] })).status).toBe(
      200,
    );
    expect((await t.call('/api/authority/findAll', { token })).status).toBe(200);
    expect((await update(head, role.id, { name: 'Grows', newAuthorityName: ['VIEW_USER'] })).status).toBe(200);
    expect((await t.call('/api/authority/findAll', { token })).status).toBe(403);
  });
});

describe('DELETE /api/usergroup/archiveRole/{id}', () => {
  it('removes a role no one holds', async () => {
    const role = await createOk(head, 'Temporary', ['VIEW_USER']);
    const result = await remove(head, role.id);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ ok: true });
    expect((await t.call(`/api/usergroup/${role.id}`, { token: head })).body).toMatchObject({
      key: 'ERROR_ROLE_NOT_EXIST',
    });
    expect(namesOf(await list(head))).not.toContain('Temporary');
    expect((await remove(head, role.id)).status).toBe(404);
    // The name is free again.
    await createOk(head, 'Temporary', []);
  });

  it('refuses protected roles with ERROR_GENERAL_PROTECTED (409), for admins too', async () => {
    await createUser(t.database.db, { company: north, role: 'EMPLOYEE' });
    const builtIn = (await findBuiltInRole(t.database.db, north.tenantId, 'EMPLOYEE'))!;
    for (const token of [head, admin]) {
      const result = await remove(token, builtIn);
      expect(result.status).toBe(409);
      expect(result.body).toMatchObject({ key: 'ERROR_GENERAL_PROTECTED' });
    }
    const provider = (await findBuiltInRole(t.database.db, null, 'PROVIDER_ADMINISTRATOR'))!;
    expect((await remove(admin, provider)).body).toMatchObject({ key: 'ERROR_GENERAL_PROTECTED' });
  });

  it('says which roles may be changed and deleted: not the built-in or protected ones', async () => {
    const own = await createOk(head, 'Deletable Role', ['VIEW_USER']);
    const roles = await list(head);
    expect(roles.find((role) => role.id === own.id)).toMatchObject({ editable: true, deletable: true });
    const builtIn = (await findBuiltInRole(t.database.db, north.tenantId, 'EMPLOYEE'))!;
    expect(roles.find((role) => role.id === builtIn)).toMatchObject({ editable: false, deletable: false });
  });

  it('refuses a role active users hold (ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER, 409); archived holders do not block', async () => {
    const role = await createOk(head, 'In Use', ['VIEW_USER']);
    const user = await createUser(t.database.db, { company: north, authorities: [] });
    await assignRole(t.database.db, user.id, role.id);
    const refused = await remove(head, role.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ key: 'ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER' });
    expect(namesOf(await list(head))).toContain('In Use');

    const past = await createOk(head, 'Past', ['VIEW_USER']);
    const archived = await createUser(t.database.db, { company: north, authorities: [], archived: true });
    await assignRole(t.database.db, archived.id, past.id);
    expect((await remove(head, past.id)).status).toBe(200);
  });

  it('answers ids that are not numbers with 400, never 500', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      expect((await remove(head, id as unknown as number)).status).toBe(400);
      expect((await t.call(`/api/usergroup/${id}`, { token: head })).status).toBe(400);
    }
    expect((await remove(head, 2_000_000_000)).status).toBe(404);
  });
});

describe('authority and tenant table', () => {
  let role: Role;
  let endpoints: Endpoint[];
  beforeAll(async () => {
    role = await createOk(head, 'Table Role', ['VIEW_USER']);
    endpoints = [
      {
        method: 'GET',
        path: '/api/authority/findAll',
        authorities: ['VIEW_ROLE', 'CREATE_ROLE', 'EDIT_ROLE', 'ACCESS_ROLE_TAB'],
      },
      {
        method: 'GET',
        path: '/api/usergroup/findAllActive',
        authorities: ['VIEW_ROLE', 'ACCESS_ROLE_TAB', 'CREATE_USER', 'EDIT_USER', 'ACCESS_MONITOR_REPORT_TAB'],
      },
      {
        method: 'GET',
        path: `/api/usergroup/${role.id}`,
        authorities: ['VIEW_ROLE', 'ACCESS_ROLE_TAB', 'EDIT_ROLE', 'DELETE_ROLE'],
      },
      {
        method: 'POST',
        path: '/api/usergroup',
        json: { name: 'Sneaky', authorityNames: [] },
        authorities: ['CREATE_ROLE'],
      },
      {
        method: 'PUT',
        path: `/api/usergroup/${role.id}`,
        json: { name: 'Sneaky', newAuthorityName: [] },
        authorities: ['EDIT_ROLE'],
      },
      { method: 'DELETE', path: `/api/usergroup/archiveRole/${role.id}`, authorities: ['DELETE_ROLE'] },
    ];
  });

  it('refuses a caller without the endpoint authority (403)', async () => {
    await expectRefusedWithoutAuthority(t, north, endpoints);
  });

  it("hides a company's roles from another company (404; X-Tenant-Id of it: 403) and leaves them unchanged", async () => {
    const other = await tokenWithEveryAuthority(t, south);
    const addressed = endpoints.filter((endpoint) => endpoint.path.includes(String(role.id)));
    await expectHiddenFromOtherTenant(t, other, north.tenantId, addressed);
    const lists = await list(other);
    expect(lists.some((row) => row.tenantId !== south.tenantId)).toBe(false);
    expect(namesOf(lists)).not.toContain('Table Role');
    const authorities = await t.call<AuthorityItem[]>('/api/authority/findAll', { token: other });
    expect(keysOf(authorities.body)).not.toContain('ADMIN_ACCESS_LEVEL');
    expect((await t.call('/api/usergroup/findAllActive', { token: other, tenantId: north.tenantId })).status).toBe(403);
    const after = await t.call<Role>(`/api/usergroup/${role.id}`, { token: head });
    expect(after.body).toMatchObject({ name: 'Table Role', authorities: [{ key: 'VIEW_USER' }] });
  });

  it('reads a company role as missing when the admin names another company', async () => {
    expect((await t.call(`/api/usergroup/${role.id}`, { token: admin, tenantId: south.tenantId })).status).toBe(404);
    expect((await t.call(`/api/usergroup/${role.id}`, { token: admin, tenantId: north.tenantId })).status).toBe(200);
    expect((await t.call(`/api/usergroup/${role.id}`, { token: admin })).status).toBe(200);
  });
});
