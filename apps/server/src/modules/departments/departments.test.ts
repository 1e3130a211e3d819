import type { Department, DepartmentHeadCandidate, DepartmentNode } from '@opsdeck/contract/departments';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, type CallResult, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, createUser, type TestCompany } from '../../../test/factories';
import { signInCompanyHead, tokenFor, tokenWithEveryAuthority } from '../../../test/sign-in';
import { departments, statuses, users } from '../../db/schema';
import { ACCESSIBLE_READERS, DEPARTMENT_READERS } from './routes';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let adminToken: string;
/** Company A's head (the company's main admin). */
let headToken: string;
let companyHeadId: number;
/** A department head of A, heading `sales` (and so `salesEast` below it). */
let deptHeadId: number;
let deptHeadToken: string;
let employeeId: number;
let sales: number;
let salesEast: number;
let support: number;
let bDepartment: number;

const db = () => t.database.db;
const setHead = (id: number, headId: number) => db().update(departments).set({ headId }).where(eq(departments.id, id));

beforeAll(async () => {
  t = await startTestApp();
  a = await createCompany(db(), { name: 'Alpha Freight' });
  b = await createCompany(db(), { name: 'Beta Mills' });
  sales = (await createDepartment(db(), a, { name: 'Sales' })).id;
  salesEast = (await createDepartment(db(), a, { name: 'Sales East', parentId: sales })).id;
  support = (await createDepartment(db(), a, { name: 'Support' })).id;
  bDepartment = (await createDepartment(db(), b, { name: 'Sales' })).id;

  const companyHead = await signInCompanyHead(t, a);
  companyHeadId = companyHead.id;
  const deptHead = await createUser(db(), { company: a, role: 'DEPARTMENT_HEAD', departmentId: sales });
  deptHeadId = deptHead.id;
  await setHead(sales, deptHead.id);
  employeeId = (await createUser(db(), { company: a, role: 'EMPLOYEE', departmentId: support })).id;

  adminToken = await t.login(ADMIN.email, ADMIN.password);
  headToken = companyHead.token;
  deptHeadToken = await t.login(deptHead.email, deptHead.password);
});
afterAll(async () => {
  await t.close();
});

const names = (list: { name: string }[]) => list.map((department) => department.name);

/** Expects `call` to answer ERROR_DEPARTMENT_NOT_EXIST (404) for an unknown department id, and 400 for a malformed one. */
async function expectUnknownAndMalformedId(call: (id: number | string) => Promise<CallResult>) {
  const missing = await call(999999);
  expect(missing.status).toBe(404);
  expect(missing.body).toMatchObject({ key: 'ERROR_DEPARTMENT_NOT_EXIST' });
  expect((await call('abc')).status).toBe(400);
}

describe('GET /api/department', () => {
  it('lists the own company’s departments with head and parent, by name', async () => {
    const result = await t.call<Department[]>('/api/department', { token: headToken });
    expect(result.status).toBe(200);
    expect(names(result.body)).toEqual(['Sales', 'Sales East', 'Support']);
    const east = result.body.find((department) => department.id === salesEast);
    expect(east).toMatchObject({
      parent: { id: sales, name: 'Sales' },
      parentId: sales,
      head: null,
      tenantId: a.tenantId,
      companyName: 'Alpha Freight',
      archived: false,
    });
    expect(result.body.find((department) => department.id === sales)?.head).toEqual({
      id: deptHeadId,
      completeName: expect.stringMatching(/^Test User/),
    });
  });

  it('hides archived departments', async () => {
    const archived = await createDepartment(db(), a, { name: 'Old Desk' });
    await db().update(departments).set({ archived: true }).where(eq(departments.id, archived.id));
    const result = await t.call<Department[]>('/api/department', { token: headToken });
    expect(names(result.body)).not.toContain('Old Desk');
    expect((await t.call(`/api/department/${archived.id}`, { token: headToken })).status).toBe(404);
  });

  it('gives an admin with no company every company’s departments, and one company’s with X-Tenant-Id', async () => {
    const all = await t.call<Department[]>('/api/department', { token: adminToken });
    expect(all.body.map((department) => department.companyName)).toEqual(
      expect.arrayContaining(['Alpha Freight', 'Beta Mills']),
    );
    const one = await t.call<Department[]>('/api/department', { token: adminToken, tenantId: b.tenantId });
    expect(one.body.map((department) => department.id)).toEqual([bDepartment]);
  });

  it('is open to the user forms (CREATE_USER, EDIT_USER)', async () => {
    for (const authority of ['CREATE_USER', 'EDIT_USER'] as const) {
      const token = await tokenFor(t, a, [authority]);
      expect((await t.call('/api/department', { token })).status).toBe(200);
    }
  });
});

describe('GET /api/department/{id}', () => {
  it('answers one department', async () => {
    const result = await t.call<Department>(`/api/department/${salesEast}`, { token: headToken });
    expect(result.body).toMatchObject({ id: salesEast, name: 'Sales East', parentId: sales });
  });

  it('answers ERROR_DEPARTMENT_NOT_EXIST for an unknown id and a bad one', async () => {
    await expectUnknownAndMalformedId((id) => t.call(`/api/department/${id}`, { token: headToken }));
  });
});

describe('POST /api/department', () => {
  const create = (json: unknown, token = headToken, tenantId?: string) =>
    t.call<Department & { key?: string; fields?: Record<string, string> }>('/api/department', {
      token,
      json,
      ...(tenantId ? { tenantId } : {}),
    });

  it('creates a department with a head and a parent', async () => {
    const result = await create({ name: '  Billing  ', headId: deptHeadId, parentId: support });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      name: 'Billing',
      headId: deptHeadId,
      parentId: support,
      parent: { id: support, name: 'Support' },
      tenantId: a.tenantId,
    });
  });

  it('needs a company for admins (ERROR_COMPANY_REQUIRED) and uses X-Tenant-Id', async () => {
    const refused = await create({ name: 'Admin Made', headId: deptHeadId }, adminToken);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ key: 'ERROR_COMPANY_REQUIRED' });
    const made = await create({ name: 'Admin Made', headId: deptHeadId }, adminToken, a.tenantId);
    expect(made.status).toBe(201);
    expect(made.body.tenantId).toBe(a.tenantId);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ headId: 1 }, 'ERROR_DEPARTMENT_NAME_REQUIRED'],
    [{ name: '', headId: 1 }, 'ERROR_DEPARTMENT_NAME_REQUIRED'],
    [{ name: '   ', headId: 1 }, 'ERROR_DEPARTMENT_NAME_REQUIRED'],
    [{ name: 'x'.repeat(256), headId: 1 }, 'ERROR_DEPARTMENT_NAME_TOO_LONG'],
    ...['\\', '/', ':', '*', '?', '"', '|', '<', '>'].map((char): [Record<string, unknown>, string] => [
      { name: `Bad${char}Name`, headId: 1 },
      'ERROR_DEPARTMENT_NAME_INVALID',
    ]),
  ])('refuses the name of %j with %s', async (json, key) => {
    const result = await create(json);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ key, fields: { name: key } });
  });

  it('accepts a name of exactly 255 characters', async () => {
    expect((await create({ name: 'n'.repeat(255), headId: deptHeadId })).status).toBe(201);
  });

  it('refuses a duplicate name in the company, case-insensitively, but not in another company', async () => {
    const result = await create({ name: 'sUPPORT', headId: deptHeadId });
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({
      key: 'ERROR_DEPARTMENT_NAME_DUPLICATE',
      fields: { name: 'ERROR_DEPARTMENT_NAME_DUPLICATE' },
    });
    const bHead = await createUser(db(), { company: b, role: 'DEPARTMENT_HEAD' });
    expect((await create({ name: 'Support', headId: bHead.id }, adminToken, b.tenantId)).status).toBe(201);
  });

  it.each([[{ name: 'No Head' }], [{ name: 'No Head', headId: null }]])(
    'needs a head (%j): ERROR_DEPARTMENT_HEAD_REQUIRED',
    async (json) => {
      const result = await create(json);
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        key: 'ERROR_DEPARTMENT_HEAD_REQUIRED',
        fields: { headId: 'ERROR_DEPARTMENT_HEAD_REQUIRED' },
      });
    },
  );

  it('takes the head only from the head list: ERROR_DEPARTMENT_HEAD_NOT_SELECTED', async () => {
    const noLevel = await createUser(db(), { company: a, authorities: ['VIEW_USER'] });
    const archived = await createUser(db(), { company: a, role: 'DEPARTMENT_HEAD', archived: true });
    const foreign = await createUser(db(), { company: b, role: 'DEPARTMENT_HEAD' });
    for (const headId of [noLevel.id, archived.id, foreign.id, 999999]) {
      const result = await create({ name: 'Picked Head', headId });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        key: 'ERROR_DEPARTMENT_HEAD_NOT_SELECTED',
        fields: { headId: 'ERROR_DEPARTMENT_HEAD_NOT_SELECTED' },
      });
    }
    // Employees hold DEPARTMENT_ACCESS_LEVEL and qualify; so does the company head.
    expect((await create({ name: 'Employee Headed', headId: employeeId })).status).toBe(201);
    expect((await create({ name: 'Company Headed', headId: companyHeadId })).status).toBe(201);
  });

  it('refuses a parent that does not exist or belongs to another company', async () => {
    for (const parentId of [999999, bDepartment]) {
      const result = await create({ name: 'Orphan', headId: deptHeadId, parentId });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        key: 'ERROR_DEPARTMENT_PARENT_INVALID',
        fields: { parentId: 'ERROR_DEPARTMENT_PARENT_INVALID' },
      });
    }
    const bad = await create({ name: 'Orphan', headId: deptHeadId, parentId: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ key: 'ERROR_DEPARTMENT_PARENT_INVALID' });
  });
});

describe('PUT /api/department/{id}', () => {
  const update = (id: number | string, json: unknown, token = headToken) =>
    t.call<Department & { key?: string; fields?: Record<string, string> }>(`/api/department/${id}`, {
      method: 'PUT',
      token,
      json,
    });

  it('changes name, head and parent, and keeps its own name acceptable', async () => {
    const { id } = await createDepartment(db(), a, { name: 'Moving Desk' });
    const moved = await update(id, { name: 'MOVING desk', headId: employeeId, parentId: salesEast });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ name: 'MOVING desk', headId: employeeId, parentId: salesEast });
    const root = await update(id, { name: 'Moving Desk', headId: employeeId, parentId: null });
    expect(root.body.parentId).toBeNull();
  });

  it('refuses itself or a descendant as parent: ERROR_DEPARTMENT_PARENT_INVALID', async () => {
    const top = (await createDepartment(db(), a, { name: 'Cycle Top' })).id;
    const middle = (await createDepartment(db(), a, { name: 'Cycle Middle', parentId: top })).id;
    const bottom = (await createDepartment(db(), a, { name: 'Cycle Bottom', parentId: middle })).id;
    for (const parentId of [top, middle, bottom]) {
      const result = await update(top, { name: 'Cycle Top', headId: deptHeadId, parentId });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ key: 'ERROR_DEPARTMENT_PARENT_INVALID' });
    }
    const [row] = await db().select().from(departments).where(eq(departments.id, top));
    expect(row?.parentId).toBeNull();
  });

  it('applies the name and head rules', async () => {
    expect((await update(support, { name: 'Sales', headId: deptHeadId })).body).toMatchObject({
      key: 'ERROR_DEPARTMENT_NAME_DUPLICATE',
    });
    expect((await update(support, { name: 'a:b', headId: deptHeadId })).body).toMatchObject({
      key: 'ERROR_DEPARTMENT_NAME_INVALID',
    });
    expect((await update(support, { name: 'Support' })).body).toMatchObject({ key: 'ERROR_DEPARTMENT_HEAD_REQUIRED' });
  });

  it('keeps a current head that no longer qualifies', async () => {
    const former = await createUser(db(), { company: a, authorities: ['VIEW_USER'] });
    const { id } = await createDepartment(db(), a, { name: 'Legacy Head' });
    await setHead(id, former.id);
    expect((await update(id, { name: 'Legacy Head 2', headId: former.id })).status).toBe(200);
  });

  it('answers ERROR_DEPARTMENT_NOT_EXIST for an unknown id, and 400 for a bad one', async () => {
    await expectUnknownAndMalformedId((id) => update(id, { name: 'Ghost', headId: deptHeadId }));
  });

  it('lets an admin with no company picked update a company’s department', async () => {
    const { id } = await createDepartment(db(), a, { name: 'Admin Edit' });
    const result = await update(id, { name: 'Admin Edited', headId: deptHeadId }, adminToken);
    expect(result.status).toBe(200);
    expect(result.body.tenantId).toBe(a.tenantId);
  });
});

describe('DELETE /api/department/{id}', () => {
  const remove = (id: number | string, token = headToken) =>
    t.call(`/api/department/${id}`, { method: 'DELETE', token });

  it('deletes a department; its users stay, with no department', async () => {
    const { id } = await createDepartment(db(), a, { name: 'Closing Desk' });
    const member = await createUser(db(), { company: a, departmentId: id });
    const result = await remove(id);
    expect(result.status).toBe(200);
    expect((await t.call(`/api/department/${id}`, { token: headToken })).status).toBe(404);
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ departmentId: null, archived: false });
  });

  it('refuses a department with children: ERROR_DEPARTMENT_DELETE_HAS_CHILDREN', async () => {
    const result = await remove(sales);
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({ key: 'ERROR_DEPARTMENT_DELETE_HAS_CHILDREN' });
  });

  it('refuses a department with statuses: ERROR_DEPARTMENT_DELETE_ASSOCIATED_WITH_STATUSES', async () => {
    const { id } = await createDepartment(db(), a, { name: 'Status Desk' });
    await db()
      .insert(statuses)
      .values({
        tenantId: a.tenantId,
        departmentId: id,
        name: 'Busy',
        icon: Buffer.from([1, 2, 3]),
        fileName: 'b.png',
      });
    const result = await remove(id);
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({ key: 'ERROR_DEPARTMENT_DELETE_ASSOCIATED_WITH_STATUSES' });
    expect((await t.call(`/api/department/${id}`, { token: headToken })).status).toBe(200);
  });

  it('answers ERROR_DEPARTMENT_NOT_EXIST for an unknown id, and 400 for a bad one', async () => {
    await expectUnknownAndMalformedId((id) => remove(id));
  });
});

describe('the departments a user may manage', () => {
  it('are the headed department and those below it for a department head', async () => {
    const ops = (await createDepartment(db(), a, { name: 'Ops' })).id;
    const north = (await createDepartment(db(), a, { name: 'Ops North', parentId: ops })).id;
    const deep = (await createDepartment(db(), a, { name: 'Ops North Deep', parentId: north })).id;
    const opsHead = await createUser(db(), { company: a, role: 'DEPARTMENT_HEAD', departmentId: ops });
    await setHead(north, opsHead.id);
    const token = await t.login(opsHead.email, opsHead.password);
    const flat = await t.call<Department[]>('/api/department/usersAccessibleDepts', { token });
    expect(flat.status).toBe(200);
    expect(names(flat.body)).toEqual(['Ops North', 'Ops North Deep']);
    const tree = await t.call<DepartmentNode[]>('/api/department/usersAccessibleDeptsForDisplay', { token });
    expect(tree.body).toEqual([
      expect.objectContaining({
        id: north,
        parentId: ops,
        head: { id: opsHead.id, completeName: expect.any(String) },
        children: [expect.objectContaining({ id: deep, parentId: north, children: [] })],
      }),
    ]);
    expect(
      (await t.call<Department[]>('/api/department/usersAccessibleDepts', { token: deptHeadToken })).body.map(
        (d) => d.id,
      ),
    ).toEqual(expect.arrayContaining([sales, salesEast]));
  });

  it('are all of the company’s for the company head, and none for someone heading nothing', async () => {
    const flat = await t.call<Department[]>('/api/department/usersAccessibleDepts', { token: headToken });
    expect(names(flat.body)).toEqual(expect.arrayContaining(['Sales', 'Sales East', 'Support']));
    expect(flat.body.every((department) => department.tenantId === a.tenantId)).toBe(true);
    const token = await tokenFor(t, a, ['VIEW_TASK']);
    expect((await t.call('/api/department/usersAccessibleDepts', { token })).body).toEqual([]);
    expect((await t.call('/api/department/usersAccessibleDeptsForDisplay', { token })).body).toEqual([]);
  });

  it('are every department of the picked company for an admin', async () => {
    const flat = await t.call<Department[]>('/api/department/usersAccessibleDepts', {
      token: adminToken,
      tenantId: b.tenantId,
    });
    expect(flat.body.every((department) => department.tenantId === b.tenantId)).toBe(true);
    const tree = await t.call<DepartmentNode[]>('/api/department/usersAccessibleDeptsForDisplay', {
      token: adminToken,
      tenantId: a.tenantId,
    });
    expect(tree.body.find((node) => node.id === sales)?.children.map((child) => child.id)).toContain(salesEast);
  });
});

describe('GET /api/user/get-department-head-list', () => {
  it('lists qualifying, non-archived users of the tenant, the department’s own first', async () => {
    const noLevel = await createUser(db(), { company: a, authorities: ['VIEW_USER'] });
    const archived = await createUser(db(), { company: a, role: 'DEPARTMENT_HEAD', archived: true });
    const all = await t.call<DepartmentHeadCandidate[]>('/api/user/get-department-head-list', { token: headToken });
    expect(all.status).toBe(200);
    const ids = all.body.map((candidate) => candidate.id);
    expect(ids).toEqual(expect.arrayContaining([companyHeadId, deptHeadId, employeeId]));
    expect(ids).not.toContain(noLevel.id);
    expect(ids).not.toContain(archived.id);
    expect(all.body[0]).toEqual({
      id: expect.any(Number),
      completeName: expect.any(String),
      emailAddress: expect.any(String),
    });

    const ofSupport = await t.call<DepartmentHeadCandidate[]>(
      `/api/user/get-department-head-list?departmentId=${support}`,
      { token: headToken },
    );
    expect(ofSupport.body[0]?.id).toBe(employeeId);
  });

  it('is empty for an admin with no company picked, and the company’s with X-Tenant-Id', async () => {
    expect((await t.call('/api/user/get-department-head-list', { token: adminToken })).body).toEqual([]);
    const picked = await t.call<DepartmentHeadCandidate[]>('/api/user/get-department-head-list', {
      token: adminToken,
      tenantId: a.tenantId,
    });
    expect(picked.body.map((candidate) => candidate.id)).toContain(deptHeadId);
    const byDepartment = await t.call<DepartmentHeadCandidate[]>(
      `/api/user/get-department-head-list?departmentId=${sales}`,
      { token: adminToken },
    );
    expect(byDepartment.body[0]?.id).toBe(deptHeadId);
  });

  it('answers ERROR_DEPARTMENT_NOT_EXIST for an unknown department and 400 for a bad id', async () => {
    await expectUnknownAndMalformedId((id) =>
      t.call(`/api/user/get-department-head-list?departmentId=${id}`, { token: headToken }),
    );
  });
});

describe('authority and tenant table', () => {
  const endpoints = (): Endpoint[] => [
    { method: 'GET', path: '/api/department', authorities: DEPARTMENT_READERS },
    { method: 'GET', path: '/api/department/usersAccessibleDepts', authorities: ACCESSIBLE_READERS },
    { method: 'GET', path: '/api/department/usersAccessibleDeptsForDisplay', authorities: ACCESSIBLE_READERS },
    {
      method: 'GET',
      path: `/api/department/${support}`,
      authorities: ['VIEW_DEPARTMENT', 'ACCESS_DEPARTMENT_TAB', 'EDIT_DEPARTMENT', 'DELETE_DEPARTMENT'],
    },
    {
      method: 'POST',
      path: '/api/department',
      json: { name: 'Table Made', headId: deptHeadId },
      authorities: ['CREATE_DEPARTMENT'],
    },
    {
      method: 'PUT',
      path: `/api/department/${support}`,
      json: { name: 'Hijacked', headId: deptHeadId },
      authorities: ['EDIT_DEPARTMENT'],
    },
    { method: 'DELETE', path: `/api/department/${support}`, authorities: ['DELETE_DEPARTMENT'] },
    {
      method: 'GET',
      path: `/api/user/get-department-head-list?departmentId=${support}`,
      authorities: ['CREATE_DEPARTMENT', 'EDIT_DEPARTMENT'],
    },
  ];

  it('refuses a caller without the endpoint’s authority (403)', async () => {
    await expectRefusedWithoutAuthority(t, a, endpoints());
  });

  it('answers 404 to another company for id-addressed rows, 403 when it names the tenant, and lists none of them', async () => {
    const before = await db().select().from(departments).where(eq(departments.tenantId, a.tenantId));
    const other = await tokenWithEveryAuthority(t, b);
    const idAddressed = endpoints().filter((endpoint) => /\d/.test(endpoint.path));
    await expectHiddenFromOtherTenant(t, other, a.tenantId, idAddressed);
    const lists = endpoints().filter((endpoint) => endpoint.method === 'GET' && !/\d/.test(endpoint.path));
    for (const endpoint of lists) {
      const plain = await t.call<Department[]>(endpoint.path, { token: other });
      expect(plain.status).toBe(200);
      expect(plain.body.every((department) => department.tenantId === b.tenantId)).toBe(true);
      expect((await t.call(endpoint.path, { token: other, tenantId: a.tenantId })).status).toBe(403);
    }
    const heads = await t.call<DepartmentHeadCandidate[]>('/api/user/get-department-head-list', { token: other });
    expect(heads.body.map((candidate) => candidate.id)).not.toContain(deptHeadId);
    // A create lands in the caller's own company; naming A's tenant is refused.
    const spoofed = await t.call('/api/department', {
      token: other,
      tenantId: a.tenantId,
      json: { name: 'Spoofed', headId: deptHeadId },
    });
    expect(spoofed.status).toBe(403);
    const after = await db().select().from(departments).where(eq(departments.tenantId, a.tenantId));
    expect(after).toEqual(before);
  });
});

describe('API description', () => {
  it('documents every departments endpoint, the tree schema included', async () => {
    const openapi = await t.call<{ paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }>(
      '/api/openapi.json',
      { appKey: null },
    );
    expect(openapi.status).toBe(200);
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/department',
        '/api/department/usersAccessibleDepts',
        '/api/department/usersAccessibleDeptsForDisplay',
        '/api/department/{id}',
        '/api/user/get-department-head-list',
      ]),
    );
    expect(openapi.body.components.schemas).toHaveProperty('DepartmentNode');
  });
});
