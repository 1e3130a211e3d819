import type { Authority } from '@opsdeck/contract/authorities';
import type { Page } from '@opsdeck/contract/paging';
import type { User } from '@opsdeck/contract/users';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import {
  createCompany,
  createDepartment,
  createRole,
  createUser,
  setCompanyHead,
  type TestCompany,
} from '../../../test/factories';
import { COMPANY_AUTHORITIES, signInCompanyHead, tokenFor } from '../../../test/sign-in';
import { departments, roles, sessions, userRoles, users } from '../../db/schema';
import { oneTenant } from '../../platform/tenancy';
import { ensureBuiltInRole } from '../roles/queries';
import { pageUserIds, resolveUserScope } from './queries';

type ErrorBody = { key: string; message: string; fields?: Record<string, string> };

let t: TestApp;
let admin: string;
let north: TestCompany;
let south: TestCompany;
/** Maria, head of north: Company Administrator. */
let headId: number;
let head: string;
let northDept: { id: number };
let southDept: { id: number };
let northEmployeeRole: number;
let northAdminRole: number;
/** A north role without DEPARTMENT_ACCESS_LEVEL. */
let northPlainRole: number;
let southEmployeeRole: number;
let seq = 0;
const unique = () => {
  seq += 1;
  return `${Date.now().toString(36)}${seq}`;
};

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  admin = await t.login(ADMIN.email, ADMIN.password);
  north = await createCompany(db, { name: 'North Users' });
  south = await createCompany(db, { name: 'South Users' });
  northDept = await createDepartment(db, north, { name: 'North Ops' });
  southDept = await createDepartment(db, south, { name: 'South Ops' });
  const maria = await signInCompanyHead(t, north, northDept.id);
  headId = maria.id;
  head = maria.token;
  northEmployeeRole = await ensureBuiltInRole(db, north.tenantId, 'EMPLOYEE');
  northAdminRole = await ensureBuiltInRole(db, north.tenantId, 'COMPANY_ADMINISTRATOR');
  northPlainRole = (await createRole(db, north, ['VIEW_USER'], 'Viewer')).id;
  southEmployeeRole = await ensureBuiltInRole(db, south.tenantId, 'EMPLOYEE');
  await createUser(db, { company: south, role: 'EMPLOYEE', departmentId: southDept.id });
});
afterAll(async () => {
  await t.close();
});

function body(overrides: Record<string, unknown> = {}) {
  const email = `new-${unique()}@example.test`;
  return {
    firstName: 'New',
    lastName: 'Person',
    emailAddress: email,
    credential: { username: email, newPassword: 'a long password', confirmPassword: 'a long password' },
    departmentId: northDept.id,
    groups: [northEmployeeRole],
    companyId: north.id,
    ...overrides,
  };
}

const register = (token: string, json: unknown, tenantId?: string) =>
  t.call<User & ErrorBody>('/api/user/register', { token, json, tenantId });

async function registerOk(token: string, overrides: Record<string, unknown> = {}) {
  const result = await register(token, body(overrides));
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body;
}

const updateBody = (user: User, overrides: Record<string, unknown> = {}) => ({
  firstName: user.firstName,
  lastName: user.lastName,
  department: user.departmentId,
  groups: user.groups.map((group) => group.id),
  ...overrides,
});

describe('POST /api/user/register validation', () => {
  it('puts each required key on its field', async () => {
    const result = await register(head, {
      firstName: ' ',
      lastName: '',
      emailAddress: '',
      credential: {},
      groups: [],
    });
    expect(result.status).toBe(400);
    expect(result.body.fields).toMatchObject({
      firstName: 'ERROR_USER_FIRST_NAME_REQUIRED',
      lastName: 'ERROR_USER_LAST_NAME_REQUIRED',
      emailAddress: 'ERROR_USER_EMAIL_REQUIRED',
      'credential.newPassword': 'ERROR_USER_PASSWORD_REQUIRED',
      'credential.confirmPassword': 'ERROR_USER_CONFIRM_PASSWORD_REQUIRED',
      groups: 'ERROR_USER_ROLE_REQUIRED',
    });
  });

  it('answers the required keys when fields are missing altogether', async () => {
    const result = await register(head, { credential: {} });
    expect(result.status).toBe(400);
    expect(result.body.fields).toMatchObject({
      firstName: 'ERROR_USER_FIRST_NAME_REQUIRED',
      lastName: 'ERROR_USER_LAST_NAME_REQUIRED',
      emailAddress: 'ERROR_USER_EMAIL_REQUIRED',
      groups: 'ERROR_USER_ROLE_REQUIRED',
    });
  });

  it('limits names and e-mail to 255 characters', async () => {
    const long = 'x'.repeat(256);
    const result = await register(head, body({ firstName: long, lastName: long, emailAddress: `${long}@a.b` }));
    expect(result.status).toBe(400);
    expect(result.body.fields).toMatchObject({
      firstName: 'ERROR_USER_FIRST_NAME_TOO_LONG',
      lastName: 'ERROR_USER_LAST_NAME_TOO_LONG',
      emailAddress: 'ERROR_USER_EMAIL_TOO_LONG',
    });
    const ok = await register(head, body({ firstName: 'y'.repeat(255) }));
    expect(ok.status).toBe(200);
  });

  it.each(['no-at.example.test', 'two@@example.test', 'a@b@c', '@example.test', 'name@', 'sp ace@example.test'])(
    'refuses the e-mail %s',
    async (emailAddress) => {
      const result = await register(head, body({ emailAddress }));
      expect(result.status).toBe(400);
      expect(result.body.fields?.emailAddress).toBe('ERROR_USER_EMAIL_INVALID');
    },
  );

  it('refuses a confirmation that differs', async () => {
    const result = await register(
      head,
      body({ credential: { newPassword: 'one password', confirmPassword: 'another one' } }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      key: 'ERROR_USER_PASSWORD_MISMATCH',
      fields: { 'credential.confirmPassword': 'ERROR_USER_PASSWORD_MISMATCH' },
    });
  });

  it('requires a department when a chosen role holds DEPARTMENT_ACCESS_LEVEL, not otherwise', async () => {
    const refused = await register(head, body({ departmentId: null, groups: [northEmployeeRole] }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      key: 'ERROR_USER_DEPARTMENT_REQUIRED',
      fields: { departmentId: 'ERROR_USER_DEPARTMENT_REQUIRED' },
    });
    const accepted = await register(head, body({ departmentId: null, groups: [northPlainRole] }));
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ departmentId: null, displayDepartment: null, displayGroups: 'Viewer' });
  });

  it('refuses an e-mail already used, whatever its case, with 409 on the field', async () => {
    const first = await registerOk(head);
    const result = await register(head, body({ emailAddress: first.emailAddress.toUpperCase() }));
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({
      key: 'ERROR_USER_EMAIL_ALREADY_USED',
      fields: { emailAddress: 'ERROR_USER_EMAIL_ALREADY_USED' },
    });
  });

  it('requires a company from an admin', async () => {
    const result = await register(admin, body({ companyId: undefined }));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      key: 'ERROR_COMPANY_REQUIRED',
      fields: { companyId: 'ERROR_COMPANY_REQUIRED' },
    });
    const missing = await register(admin, body({ companyId: 999_999 }));
    expect(missing.status).toBe(404);
    expect(missing.body.key).toBe('ERROR_COMPANY_NOT_EXIST');
  });

  it('refuses a department or role of another company', async () => {
    const role = await register(head, body({ groups: [southEmployeeRole] }));
    expect(role.status).toBe(404);
    expect(role.body).toMatchObject({ key: 'ERROR_ROLE_NOT_EXIST', fields: { groups: 'ERROR_ROLE_NOT_EXIST' } });
    const department = await register(head, body({ departmentId: southDept.id }));
    expect(department.status).toBe(404);
    expect(department.body).toMatchObject({
      key: 'ERROR_DEPARTMENT_NOT_EXIST',
      fields: { departmentId: 'ERROR_DEPARTMENT_NOT_EXIST' },
    });
    // An admin creating in north cannot mix in south's rows either.
    const mixed = await register(admin, body({ companyId: north.id, groups: [southEmployeeRole] }));
    expect(mixed.status).toBe(404);
  });

  it('refuses ids that are not numbers without a 500', async () => {
    const result = await register(head, body({ groups: ['abc'], departmentId: 'x' }));
    expect(result.status).toBe(400);
    expect((await t.call('/api/user/abc', { token: head })).status).toBe(400);
    expect((await t.call('/api/user/99999999999', { token: head })).status).toBe(400);
  });

  it('answers a NUL byte, which the database cannot store, with 400 rather than 500', async () => {
    const result = await register(head, body({ firstName: 'Nul\u0000Byte' }));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ key: 'ERROR_GENERAL_INVALID_INPUT' });
    expect((await t.call('/api/user/checkEmailExist/a%00b@x.test', { token: head })).status).toBe(400);
  });
});

describe('POST /api/user/register', () => {
  it('creates a user who signs in with the e-mail as username', async () => {
    const created = await registerOk(head, { firstName: ' Ada ', lastName: 'Lovelace' });
    expect(created).toMatchObject({
      firstName: 'Ada',
      completeName: 'Ada Lovelace',
      companyId: north.id,
      companyName: 'North Users',
      tenantId: north.tenantId,
      departmentId: northDept.id,
      displayDepartment: 'North Ops',
      groups: [{ id: northEmployeeRole, name: 'Employee' }],
      displayGroups: 'Employee',
      archived: false,
    });
    const token = await t.login(created.emailAddress, 'a long password');
    const profile = await t.call<{ auths: string[] }>('/api/user/profile/current-user', { token });
    expect(profile.body.auths).toContain('DEPARTMENT_ACCESS_LEVEL');
  });

  it('always creates a company user in their own company', async () => {
    const created = await registerOk(head, { companyId: south.id });
    expect(created.companyId).toBe(north.id);
  });

  it('lets an admin create in a chosen company', async () => {
    const created = await registerOk(admin, { companyId: north.id });
    expect(created).toMatchObject({ companyId: north.id, tenantId: north.tenantId });
  });

  it('refuses a company user giving a role with authorities they lack (403)', async () => {
    const limited = await tokenFor(t, north, ['CREATE_USER', 'EDIT_USER', 'VIEW_USER', 'DEPARTMENT_ACCESS_LEVEL']);
    const refused = await register(limited, body({ groups: [northAdminRole] }));
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('ERROR_USER_ROLE_NOT_ALLOWED');
    const allowed = await register(limited, body({ groups: [northPlainRole], departmentId: null }));
    expect(allowed.status).toBe(200);
  });
});

describe('GET /api/user/checkEmailExist/{email}', () => {
  it('answers a boolean, case-insensitively', async () => {
    const created = await registerOk(head);
    const upper = encodeURIComponent(created.emailAddress.toUpperCase());
    expect((await t.call(`/api/user/checkEmailExist/${upper}`, { token: head })).body).toBe(true);
    expect((await t.call('/api/user/checkEmailExist/nobody%40example.test', { token: head })).body).toBe(false);
  });
});

describe('PUT /api/user/updateUser/{id}', () => {
  it('changes names, department and roles; e-mail and company stay', async () => {
    const created = await registerOk(head);
    const other = await createDepartment(t.database.db, north, { name: `Second ${unique()}` });
    const result = await t.call<User>(`/api/user/updateUser/${created.id}`, {
      method: 'PUT',
      token: head,
      json: updateBody(created, {
        firstName: 'Renamed',
        department: other.id,
        groups: [northPlainRole],
        emailAddress: 'changed@example.test',
        company_: { id: south.id },
      }),
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({
      firstName: 'Renamed',
      departmentId: other.id,
      displayGroups: 'Viewer',
      emailAddress: created.emailAddress,
      companyId: north.id,
    });
  });

  it('applies the same rules as register, with keys on its fields', async () => {
    const created = await registerOk(head);
    const url = `/api/user/updateUser/${created.id}`;
    const invalid = await t.call<ErrorBody>(url, {
      method: 'PUT',
      token: head,
      json: { firstName: '', lastName: 'x'.repeat(256), groups: [] },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toMatchObject({
      firstName: 'ERROR_USER_FIRST_NAME_REQUIRED',
      lastName: 'ERROR_USER_LAST_NAME_TOO_LONG',
      groups: 'ERROR_USER_ROLE_REQUIRED',
    });
    const noDepartment = await t.call<ErrorBody>(url, {
      method: 'PUT',
      token: head,
      json: updateBody(created, { department: null }),
    });
    expect(noDepartment.status).toBe(400);
    expect(noDepartment.body.fields).toEqual({ department: 'ERROR_USER_DEPARTMENT_REQUIRED' });
    const foreign = await t.call<ErrorBody>(url, {
      method: 'PUT',
      token: head,
      json: updateBody(created, { department: southDept.id }),
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.fields).toEqual({ department: 'ERROR_DEPARTMENT_NOT_EXIST' });
  });

  it("takes effect on the user's session at once when the roles change", async () => {
    const created = await registerOk(head);
    const token = await t.login(created.emailAddress, 'a long password');
    expect((await t.call('/api/user/get-user-list', { token })).status).toBe(403);
    const result = await t.call(`/api/user/updateUser/${created.id}`, {
      method: 'PUT',
      token: head,
      json: updateBody(created, { groups: [northPlainRole] }),
    });
    expect(result.status).toBe(200);
    expect((await t.call('/api/user/get-user-list', { token })).status).toBe(200);
  });

  it('refuses a company user giving or taking away roles above their own', async () => {
    const limited = await tokenFor(t, north, ['EDIT_USER', 'VIEW_USER', 'DEPARTMENT_ACCESS_LEVEL']);
    const created = await registerOk(head, { groups: [northPlainRole], departmentId: null });
    const up = await t.call<ErrorBody>(`/api/user/updateUser/${created.id}`, {
      method: 'PUT',
      token: limited,
      json: updateBody(created, { groups: [northAdminRole] }),
    });
    expect(up.status).toBe(403);
    expect(up.body.key).toBe('ERROR_USER_ROLE_NOT_ALLOWED');
    const boss = await registerOk(head, { groups: [northAdminRole] });
    const down = await t.call<ErrorBody>(`/api/user/updateUser/${boss.id}`, {
      method: 'PUT',
      token: limited,
      json: updateBody(boss, { groups: [northPlainRole] }),
    });
    expect(down.status).toBe(403);
    // Names only, roles unchanged: allowed.
    const rename = await t.call(`/api/user/updateUser/${boss.id}`, {
      method: 'PUT',
      token: limited,
      json: updateBody(boss, { firstName: 'Boss' }),
    });
    expect(rename.status).toBe(200);
  });
});

describe('DELETE /api/user/archive/{id}', () => {
  it('archives: hidden from lists, cannot sign in, and its open session ends at once', async () => {
    const created = await registerOk(head, { groups: [northPlainRole], departmentId: null });
    const token = await t.login(created.emailAddress, 'a long password');
    expect((await t.call('/api/test', { token })).status).toBe(200);
    const result = await t.call(`/api/user/archive/${created.id}`, { method: 'DELETE', token: head });
    expect(result.status).toBe(200);
    expect((await t.call('/api/test', { token })).status).toBe(401);
    expect((await t.call('/api/user/get-user-list', { token })).status).toBe(401);
    const login = await t.call('/api/login', { json: { username: created.emailAddress, password: 'a long password' } });
    expect(login.status).toBe(401);
    const remaining = await t.database.db.select().from(sessions).where(eq(sessions.userId, created.id));
    expect(remaining).toEqual([]);
    const list = await t.call<User[]>('/api/user/get-user-list', { token: head });
    expect(list.body.map((user) => user.id)).not.toContain(created.id);
    expect((await t.call(`/api/user/${created.id}`, { token: head })).status).toBe(404);
    expect((await t.call(`/api/user/archive/${created.id}`, { method: 'DELETE', token: head })).status).toBe(404);
    // The address stays taken.
    const again = await register(head, body({ emailAddress: created.emailAddress }));
    expect(again.status).toBe(409);
  });

  it('refuses a department head (409 ERROR_USER_DEPARTMENT_HEAD)', async () => {
    const created = await registerOk(head);
    await t.database.db.update(departments).set({ headId: created.id }).where(eq(departments.id, northDept.id));
    const result = await t.call<ErrorBody>(`/api/user/archive/${created.id}`, { method: 'DELETE', token: head });
    expect(result.status).toBe(409);
    expect(result.body.key).toBe('ERROR_USER_DEPARTMENT_HEAD');
    await t.database.db.update(departments).set({ headId: null }).where(eq(departments.id, northDept.id));
    const [row] = await t.database.db.select().from(users).where(eq(users.id, created.id));
    expect(row?.archived).toBe(false);
  });

  it('refuses the company head and the caller themself', async () => {
    const company = await t.call<ErrorBody>(`/api/user/archive/${headId}`, { method: 'DELETE', token: admin });
    expect(company.status).toBe(409);
    expect(company.body.key).toBe('ERROR_USER_COMPANY_HEAD');
    const self = await t.call<ErrorBody>(`/api/user/archive/${headId}`, { method: 'DELETE', token: head });
    expect(self.status).toBe(409);
    expect(self.body.key).toBe('ERROR_USER_ARCHIVE_SELF');
  });
});

describe('deletable', () => {
  it('says whether the caller may archive a user: not themself, not a department or company head', async () => {
    const plain = await registerOk(head);
    const deptHead = await registerOk(head);
    await t.database.db.update(departments).set({ headId: deptHead.id }).where(eq(departments.id, northDept.id));
    const seen = async (token: string, id: number) => (await t.call<User>(`/api/user/${id}`, { token })).body.deletable;
    expect(await seen(head, plain.id)).toBe(true);
    expect(await seen(head, deptHead.id)).toBe(false);
    expect(await seen(head, headId)).toBe(false);
    expect(await seen(admin, headId)).toBe(false);
    const list = await t.call<User[]>('/api/user/get-user-list', { token: head });
    expect(list.body.find((user) => user.id === plain.id)?.deletable).toBe(true);
    expect(list.body.find((user) => user.id === deptHead.id)?.deletable).toBe(false);
    // What it says is what the archive call does.
    expect((await t.call(`/api/user/archive/${deptHead.id}`, { method: 'DELETE', token: head })).status).toBe(409);
    await t.database.db.update(departments).set({ headId: null }).where(eq(departments.id, northDept.id));
    expect(await seen(head, deptHead.id)).toBe(true);
  });
});

describe('GET /api/user/get-user-list', () => {
  let company: TestCompany;
  let token: string;
  let roleZ: number;
  beforeAll(async () => {
    const db = t.database.db;
    company = await createCompany(db, { name: 'Paging Co' });
    const alpha = await createDepartment(db, company, { name: 'Alpha Dept' });
    const zulu = await createDepartment(db, company, { name: 'Zulu Dept' });
    const roleA = (await createRole(db, company, ['VIEW_USER'], 'Auditor')).id;
    roleZ = (await createRole(db, company, ['VIEW_USER'], 'Zookeeper')).id;
    const boss = await createUser(db, { company, role: 'COMPANY_ADMINISTRATOR', email: 'boss@paging.test' });
    token = await t.login(boss.email, boss.password);
    for (let i = 0; i < 12; i += 1) {
      const result = await register(
        token,
        body({
          firstName: `Person${String(i).padStart(2, '0')}`,
          lastName: i % 2 ? 'Odd' : 'Even',
          emailAddress: `p${String(i).padStart(2, '0')}@paging.test`,
          departmentId: i < 3 ? zulu.id : alpha.id,
          groups: [i === 5 ? roleZ : roleA],
          companyId: undefined,
        }),
      );
      expect(result.status).toBe(200);
    }
  });

  const page = (query: string, as = token) =>
    t.call<Page<User>>(`/api/user/get-user-list?${query}`, { token: as }).then((result) => {
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      return result.body;
    });

  it('answers the plain array without page', async () => {
    const result = await t.call<User[]>('/api/user/get-user-list', { token });
    expect(Array.isArray(result.body)).toBe(true);
    expect(result.body).toHaveLength(13);
    expect(result.body.every((user) => user.companyName === 'Paging Co')).toBe(true);
  });

  it('pages 10 at a time sorted by full name, with the total', async () => {
    const first = await page('page=1');
    expect(first).toMatchObject({ total: 13, page: 1, size: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.items[0]!.firstName).toBe('Person00');
    const second = await page('page=2');
    expect(second.items.map((user) => user.firstName)).toEqual(['Person10', 'Person11', 'Test']);
    expect((await page('page=3')).items).toEqual([]);
  });

  it('sorts by every column both ways, ties by name, then id', async () => {
    expect((await page('page=1&sort=email,desc')).items[0]!.emailAddress).toBe('p11@paging.test');
    expect((await page('page=1&sort=email,asc')).items[0]!.emailAddress).toBe('boss@paging.test');
    const byDepartment = await page('page=1&size=13&sort=department,desc');
    expect(byDepartment.items.slice(0, 3).map((user) => user.displayDepartment)).toEqual([
      'Zulu Dept',
      'Zulu Dept',
      'Zulu Dept',
    ]);
    // One department's users in the order of their names, whichever way the departments go.
    expect(byDepartment.items.slice(0, 3).map((user) => user.firstName)).toEqual(['Person00', 'Person01', 'Person02']);
    expect((await page('page=1&sort=role,desc')).items[0]!.displayGroups).toBe('Zookeeper');
    expect((await page('page=1&sort=role')).items[0]!.displayGroups).toBe('Auditor');
    // Inside one company, sorting by company leaves the users in the order of their names.
    const byCompany = await page('page=1&size=13&sort=company,desc');
    expect(byCompany.items.map((user) => user.firstName)).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `Person${String(i).padStart(2, '0')}`),
      'Test',
    ]);
    expect((await page('page=1&sort=fullName,desc')).items[0]!.firstName).toBe('Test');
  });

  it('searches full name, department, role, company and e-mail, case-insensitively', async () => {
    expect((await page('page=1&search=person03%20odd')).items.map((user) => user.firstName)).toEqual(['Person03']);
    expect((await page('page=1&search=zulu')).total).toBe(3);
    expect((await page('page=1&search=ZOOKEEPER')).items.map((user) => user.firstName)).toEqual(['Person05']);
    expect((await page('page=1&search=paging%20co')).total).toBe(13);
    expect((await page('page=1&search=P07@')).items.map((user) => user.firstName)).toEqual(['Person07']);
    expect((await page('page=1&search=%25')).total).toBe(0);
    expect((await page('page=1&search=_')).total).toBe(0);
    // Search also narrows the plain array.
    const plain = await t.call<User[]>('/api/user/get-user-list?search=zulu', { token });
    expect(plain.body).toHaveLength(3);
  });

  it('gives the same pages whether the matches are collected first or the sort index is walked', async () => {
    const db = t.database.db;
    for (const search of [undefined, 'person', 'dept', 'odd']) {
      const scope = await resolveUserScope(db, oneTenant(company.tenantId), search);
      for (const field of ['fullName', 'email', 'department', 'role', 'company'] as const) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const offset of [0, 4]) {
            const walked = await pageUserIds(db, scope, { field, direction }, 5, offset, false);
            const collected = await pageUserIds(db, scope, { field, direction }, 5, offset, true);
            expect(collected, `${search} ${field} ${direction} ${offset}`).toEqual(walked);
            expect(walked.length).toBeGreaterThan(0);
          }
        }
      }
    }
  });

  it('keeps the role order as roles are renamed, given and taken away (users.role_key)', async () => {
    const db = t.database.db;
    // The roles and grants change behind the services' backs (the triggers are what is tested), so
    // the page is read by its query: the API's kept pages follow announced changes only.
    const scope = await resolveUserScope(db, oneTenant(company.tenantId), undefined);
    const names = new Map((await page('page=1&size=13')).items.map((user) => [user.id, user.firstName]));
    const byRole = async (direction: 'asc' | 'desc') =>
      (await pageUserIds(db, scope, { field: 'role', direction }, 13, 0)).map((id) => names.get(id));
    const firstByRole = () => byRole('asc');
    await db.update(roles).set({ name: 'Aardvark' }).where(eq(roles.id, roleZ));
    expect((await firstByRole())[0]).toBe('Person05');
    await db.update(roles).set({ name: 'Zookeeper' }).where(eq(roles.id, roleZ));
    expect((await firstByRole())[0]).not.toBe('Person05');
    const person05 = (await page('page=1&search=person05')).items[0]!;
    await db.delete(userRoles).where(eq(userRoles.userId, person05.id));
    expect((await firstByRole()).at(-1)).toBe('Person05');
    await db.insert(userRoles).values({ userId: person05.id, roleId: roleZ });
    expect((await byRole('desc'))[0]).toBe('Person05');
  });

  it('refuses an unknown sort field', async () => {
    expect((await t.call('/api/user/get-user-list?page=1&sort=password', { token })).status).toBe(400);
  });

  it("shows an admin every company's users, or one company's with X-Tenant-Id", async () => {
    const all = await t.call<User[]>('/api/user/get-user-list', { token: admin });
    const companies = new Set(all.body.map((user) => user.companyName));
    expect([...companies]).toEqual(expect.arrayContaining(['Paging Co', 'North Users', 'South Users']));
    const one = await t.call<User[]>('/api/user/get-user-list', { token: admin, tenantId: company.tenantId });
    expect(one.body).toHaveLength(13);
    const paged = await t.call<Page<User>>('/api/user/get-user-list?page=1&search=paging', { token: admin });
    expect(paged.body.total).toBe(13);
  });
});

describe('other lists', () => {
  it('getActiveUsers: true = signed in now, false = every active user', async () => {
    const company = await createCompany(t.database.db);
    const boss = await createUser(t.database.db, { company, role: 'COMPANY_ADMINISTRATOR' });
    const idle = await createUser(t.database.db, { company, role: 'EMPLOYEE' });
    const token = await t.login(boss.email, boss.password);
    const signedIn = await t.call<User[]>('/api/user/getActiveUsers/true', { token });
    expect(signedIn.body.map((user) => user.id)).toEqual([boss.id]);
    const every = await t.call<User[]>('/api/user/getActiveUsers/false', { token });
    expect(every.body.map((user) => user.id).sort()).toEqual([boss.id, idle.id].sort());
    expect((await t.call('/api/user/getActiveUsers/maybe', { token })).status).toBe(400);
  });

  it('getSubordinates: users of the departments the caller heads and below', async () => {
    const db = t.database.db;
    const company = await createCompany(db);
    const top = await createDepartment(db, company, { name: 'Top' });
    const child = await createDepartment(db, company, { name: 'Child', parentId: top.id });
    const side = await createDepartment(db, company, { name: 'Side' });
    const lead = await createUser(db, { company, role: 'DEPARTMENT_HEAD', departmentId: top.id });
    await db.update(departments).set({ headId: lead.id }).where(eq(departments.id, top.id));
    const inTop = await createUser(db, { company, departmentId: top.id });
    const inChild = await createUser(db, { company, departmentId: child.id });
    await createUser(db, { company, departmentId: side.id });
    const boss = await signInCompanyHead(t, company);
    const token = await t.login(lead.email, lead.password);
    const result = await t.call<User[]>('/api/user/getSubordinates', { token });
    expect(result.body.map((user) => user.id).sort()).toEqual([inTop.id, inChild.id].sort());
    const all = await t.call<User[]>('/api/user/getSubordinates', { token: boss.token });
    expect(all.body).toHaveLength(4);
  });

  it('find-by-company: admins any company, company users only their own', async () => {
    const mine = await t.call<User[]>(`/api/user/find-by-company/${north.id}`, { token: head });
    expect(mine.status).toBe(200);
    expect(mine.body.every((user) => user.companyId === north.id)).toBe(true);
    expect(mine.body.map((user) => user.id)).toContain(headId);
    const theirs = await t.call<ErrorBody>(`/api/user/find-by-company/${south.id}`, { token: head });
    expect(theirs.status).toBe(404);
    expect(theirs.body.key).toBe('ERROR_COMPANY_NOT_EXIST');
    const byAdmin = await t.call<User[]>(`/api/user/find-by-company/${south.id}`, { token: admin });
    expect(byAdmin.status).toBe(200);
    expect((await t.call(`/api/user/find-by-company/999999`, { token: admin })).status).toBe(404);
  });

  it('GET /api/user/{id} reads one user in scope', async () => {
    const result = await t.call<User>(`/api/user/${headId}`, { token: head });
    expect(result.body).toMatchObject({ id: headId, displayGroups: 'Company Administrator' });
  });
});

describe('authority and tenant table', () => {
  let victim: User;
  let endpoints: Endpoint[];
  beforeAll(async () => {
    victim = await registerOk(head, { firstName: 'Victim' });
    /** Who may read the user lists of the schedule and monitor screens. */
    const listReaders: Authority[] = ['VIEW_USER', 'ACCESS_USER_TAB', 'ACCESS_MONITOR_REPORT_TAB', 'VIEW_SCHEDULE'];
    endpoints = [
      { method: 'GET', path: '/api/user/get-user-list', authorities: ['VIEW_USER', 'ACCESS_USER_TAB'] },
      { method: 'GET', path: `/api/user/${victim.id}`, authorities: ['VIEW_USER', 'EDIT_USER'] },
      { method: 'POST', path: '/api/user/register', json: body(), authorities: ['CREATE_USER'] },
      {
        method: 'PUT',
        path: `/api/user/updateUser/${victim.id}`,
        json: updateBody(victim, { firstName: 'Hacked' }),
        authorities: ['EDIT_USER'],
      },
      { method: 'DELETE', path: `/api/user/archive/${victim.id}`, authorities: ['DELETE_USER'] },
      { method: 'GET', path: '/api/user/checkEmailExist/a%40b.c', authorities: ['CREATE_USER', 'VIEW_USER'] },
      { method: 'GET', path: '/api/user/getActiveUsers/false', authorities: listReaders },
      { method: 'GET', path: '/api/user/getSubordinates', authorities: listReaders },
      { method: 'GET', path: `/api/user/find-by-company/${north.id}`, authorities: ['VIEW_USER', 'ACCESS_USER_TAB'] },
    ];
  });

  it('answers 403 without the authority', async () => {
    await expectRefusedWithoutAuthority(t, north, endpoints);
  });

  it("answers 404 for another company's rows (403 with its X-Tenant-Id) and leaves them unchanged", async () => {
    // South's head holding every company authority: its getSubordinates lists all of south.
    const southHead = await createUser(t.database.db, { company: south, authorities: COMPANY_AUTHORITIES });
    await setCompanyHead(t.database.db, south, southHead.id);
    const outsider = await t.login(southHead.email, southHead.password);
    const addressed = endpoints.filter((endpoint) =>
      [`/${victim.id}`, `/${north.id}`].some((suffix) => endpoint.path.endsWith(suffix)),
    );
    expect(addressed).toHaveLength(4);
    await expectHiddenFromOtherTenant(t, outsider, north.tenantId, addressed);
    // Registering with north's department and role from south: they do not exist there.
    const register = await t.call('/api/user/register', { token: outsider, json: body() });
    expect(register.status).toBe(404);
    for (const path of ['/api/user/get-user-list', '/api/user/getActiveUsers/false', '/api/user/getSubordinates']) {
      const list = await t.call<User[]>(path, { token: outsider });
      expect(list.status).toBe(200);
      expect(list.body.length).toBeGreaterThan(0);
      expect(list.body.every((user) => user.companyId === south.id)).toBe(true);
    }
    const paged = await t.call<Page<User>>('/api/user/get-user-list?page=1&search=victim', { token: outsider });
    expect(paged.body.total).toBe(0);
    const after = await t.call<User>(`/api/user/${victim.id}`, { token: head });
    expect(after.body).toMatchObject({ firstName: 'Victim', archived: false });
  });
});
