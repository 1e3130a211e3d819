import type { Task } from '@opsdeck/contract/tasks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Endpoint,
  expectedStatuses,
  statusesFromOtherTenant,
  statusesWithoutAuthority,
} from '../../../test/access-table';
import { resourceCalls, startTestApp, type TestApp } from '../../../test/app';
import { departmentScopeWorld } from '../../../test/department-scope';
import type { TestCompany } from '../../../test/factories';
import { statuses, tasks } from '../../db/schema';
import { circleIcon } from '../../platform/png';

type ErrorBody = { key: string; fields?: Record<string, string> };
type Answer = Task & ErrorBody;

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let adminToken: string;
let companyHeadToken: string;
let parentHeadToken: string;
let siblingHeadToken: string;
let otherToken: string;
let parentDept: number;
let childDept: number;
let siblingDept: number;
let otherDept: number;
let statusA: number;
let statusB: number;
const db = () => t.database.db;

async function insertStatus(company: TestCompany, departmentId: number, name: string) {
  const [row] = await db()
    .insert(statuses)
    .values({ tenantId: company.tenantId, departmentId, name, icon: circleIcon(24, '#000000'), fileName: 'x.png' })
    .returning({ id: statuses.id });
  return row!.id;
}

const body = (overrides: Record<string, unknown> = {}) => ({
  name: `Task ${Math.random().toString(36).slice(2, 8)}`,
  statusId: statusA,
  departmentId: childDept,
  ...overrides,
});
const { create, update, remove } = resourceCalls<Answer>(
  () => t,
  '/api/task',
  () => companyHeadToken,
);

async function createOne(overrides: Record<string, unknown> = {}, token = companyHeadToken) {
  const result = await create(body(overrides), token);
  expect(result.status).toBe(201);
  return result.body;
}
const rowOf = async (id: number) => (await db().select().from(tasks).where(eq(tasks.id, id)))[0];

beforeAll(async () => {
  t = await startTestApp();
  ({
    a,
    b,
    parentDept,
    childDept,
    siblingDept,
    otherDept,
    adminToken,
    companyHeadToken,
    parentHeadToken,
    siblingHeadToken,
    otherToken,
  } = await departmentScopeWorld(t));
  statusA = await insertStatus(a, childDept, 'Available');
  statusB = await insertStatus(b, otherDept, 'Elsewhere busy');
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/task', () => {
  it('creates a task and answers it with its status and department', async () => {
    const result = await create(body({ name: '  Route planning  ' }));
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      id: expect.any(Number),
      name: 'Route planning',
      status: { id: statusA, name: 'Available' },
      department: { id: childDept, name: 'Dispatch' },
      editable: true,
      tenantId: a.tenantId,
    });
  });

  it.each([
    ['a missing name', { name: undefined }, 'name', 'ERROR_TASK_NAME_REQUIRED'],
    ['a blank name', { name: '  ' }, 'name', 'ERROR_TASK_NAME_REQUIRED'],
    ['a name of 256 characters', { name: 'n'.repeat(256) }, 'name', 'ERROR_GENERAL_NAME_TOO_LONG'],
    ['a name with a forbidden character', { name: 'Route:planning' }, 'name', 'ERROR_GENERAL_NAME_INVALID'],
    ['no status', { statusId: undefined }, 'statusId', 'ERROR_TASK_STATUS_REQUIRED'],
    ['a status of 0', { statusId: 0 }, 'statusId', 'ERROR_TASK_STATUS_REQUIRED'],
    ['no department', { departmentId: null }, 'departmentId', 'ERROR_TASK_DEPARTMENT_REQUIRED'],
    ['a department as text', { departmentId: 'x' }, 'departmentId', 'ERROR_TASK_DEPARTMENT_REQUIRED'],
    ['a status of another company', { statusId: -1 }, 'statusId', 'ERROR_STATUS_NOT_EXIST'],
    ['a department of another company', { departmentId: -1 }, 'departmentId', 'ERROR_DEPARTMENT_NOT_EXIST'],
  ])('refuses %s', async (_case, overrides: Record<string, unknown>, field, key) => {
    const resolved = {
      ...overrides,
      ...(overrides.statusId === -1 ? { statusId: statusB } : {}),
      ...(overrides.departmentId === -1 ? { departmentId: otherDept } : {}),
    };
    const before = (await t.call<Task[]>('/api/task', { token: companyHeadToken })).body.length;
    const result = await create(body(resolved));
    expect(result.status).toBe(400);
    expect(result.body.key).toBe(key);
    expect(result.body.fields?.[field]).toBe(key);
    expect((await t.call<Task[]>('/api/task', { token: companyHeadToken })).body).toHaveLength(before);
  });

  it('accepts a name of 255 characters', async () => {
    expect((await create(body({ name: 'n'.repeat(255) }))).status).toBe(201);
  });

  it('asks an admin with no X-Tenant-Id for a company', async () => {
    const result = await create(body(), adminToken);
    expect(result.status).toBe(400);
    expect(result.body.key).toBe('ERROR_COMPANY_REQUIRED');
    expect((await create(body(), adminToken, a.tenantId)).status).toBe(201);
  });

  it('lets a department head create in their department and below, nowhere else', async () => {
    expect((await create(body({ departmentId: parentDept }), parentHeadToken)).status).toBe(201);
    expect((await create(body({ departmentId: childDept }), parentHeadToken)).status).toBe(201);
    const refused = await create(body({ departmentId: siblingDept }), parentHeadToken);
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('ERROR_TASK_INACCESSIBLE');
  });
});

describe('GET /api/task', () => {
  it('lists the tenant’s tasks; an admin reads every company unless one is named', async () => {
    const other = await create(body({ statusId: statusB, departmentId: otherDept }), adminToken, b.tenantId);
    expect(other.status).toBe(201);
    const own = await t.call<Task[]>('/api/task', { token: companyHeadToken });
    expect(own.body.length).toBeGreaterThan(0);
    expect(own.body.every((task) => task.tenantId === a.tenantId)).toBe(true);
    const all = await t.call<Task[]>('/api/task', { token: adminToken });
    expect(all.body.map((task) => task.id)).toContain(other.body.id);
    const named = await t.call<Task[]>('/api/task', { token: adminToken, tenantId: b.tenantId });
    expect(named.body.map((task) => task.id)).toEqual([other.body.id]);
  });

  it('says which tasks the caller may change: editable in the departments they head and below', async () => {
    const inChild = await createOne({ departmentId: childDept });
    const inSibling = await createOne({ departmentId: siblingDept });
    const editableFor = async (token: string) => {
      const list = (await t.call<Task[]>('/api/task', { token })).body;
      return [inChild.id, inSibling.id].map((id) => list.find((task) => task.id === id)!.editable);
    };
    expect(await editableFor(parentHeadToken)).toEqual([true, false]);
    expect(await editableFor(siblingHeadToken)).toEqual([false, true]);
    expect(await editableFor(companyHeadToken)).toEqual([true, true]);
    expect(await editableFor(adminToken)).toEqual([true, true]);
  });

  it('answers one task, a missing one as not existing, a malformed id as invalid', async () => {
    const created = await createOne();
    expect((await t.call(`/api/task/${created.id}`, { token: companyHeadToken })).body).toEqual(created);
    const missing = await t.call<ErrorBody>('/api/task/999999', { token: companyHeadToken });
    expect(missing.status).toBe(404);
    expect(missing.body.key).toBe('ERROR_TASK_NOT_EXIST');
    expect((await t.call('/api/task/1.5', { token: companyHeadToken })).status).toBe(400);
  });
});

describe('PUT /api/task/{id}', () => {
  it('updates a task', async () => {
    const created = await createOne();
    const result = await update(created.id, body({ name: 'Renamed', departmentId: parentDept }));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ name: 'Renamed', department: { id: parentDept, name: 'Operations' } });
  });

  it.each([
    ['a missing name', { name: '' }, 'ERROR_TASK_NAME_REQUIRED'],
    ['a long name', { name: 'n'.repeat(256) }, 'ERROR_GENERAL_NAME_TOO_LONG'],
    ['a forbidden character', { name: 'a|b' }, 'ERROR_GENERAL_NAME_INVALID'],
    ['no status', { statusId: null }, 'ERROR_TASK_STATUS_REQUIRED'],
    ['no department', { departmentId: undefined }, 'ERROR_TASK_DEPARTMENT_REQUIRED'],
  ])('refuses %s', async (_case, overrides, key) => {
    const created = await createOne();
    const result = await update(created.id, body(overrides));
    expect(result.status).toBe(400);
    expect(result.body.key).toBe(key);
    expect((await rowOf(created.id))?.name).toBe(created.name);
  });

  it('lets the head of a parent department edit a task of its child, refuses the head of a sibling', async () => {
    const created = await createOne({ departmentId: childDept });
    const refused = await update(created.id, body({ name: 'Sibling', departmentId: siblingDept }), siblingHeadToken);
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('ERROR_TASK_INACCESSIBLE');
    expect((await rowOf(created.id))?.name).toBe(created.name);
    const allowed = await update(created.id, body({ name: 'Parent' }), parentHeadToken);
    expect(allowed.status).toBe(200);
  });

  it('refuses moving a task into a department the caller does not manage', async () => {
    const created = await createOne({ departmentId: childDept });
    const result = await update(created.id, body({ departmentId: siblingDept }), parentHeadToken);
    expect(result.status).toBe(403);
    expect(result.body.key).toBe('ERROR_TASK_INACCESSIBLE');
    expect((await rowOf(created.id))?.departmentId).toBe(childDept);
  });

  it('answers a missing task as not existing', async () => {
    const result = await update(999_999, body());
    expect(result.status).toBe(404);
    expect(result.body.key).toBe('ERROR_TASK_NOT_EXIST');
  });
});

describe('DELETE /api/task/{id}', () => {
  it('deletes a task, which frees its status for deletion', async () => {
    const status = await insertStatus(a, childDept, 'Short-lived');
    const created = await createOne({ statusId: status });
    expect((await t.call(`/api/status/${status}`, { method: 'DELETE', token: companyHeadToken })).status).toBe(409);
    expect((await remove(created.id)).status).toBe(200);
    expect(await rowOf(created.id)).toBeUndefined();
    expect((await remove(created.id)).status).toBe(404);
    expect((await t.call(`/api/status/${status}`, { method: 'DELETE', token: companyHeadToken })).status).toBe(200);
  });

  it('refuses the head of a sibling department, allows the head of the parent', async () => {
    const created = await createOne({ departmentId: childDept });
    const refused = await remove(created.id, siblingHeadToken);
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('ERROR_TASK_INACCESSIBLE');
    expect((await remove(created.id, parentHeadToken)).status).toBe(200);
  });
});

describe('authorities and tenants', () => {
  let target: Task;
  let endpoints: Endpoint[];
  beforeAll(async () => {
    target = await createOne();
    const json = body({ name: 'Hijacked' });
    endpoints = [
      { method: 'GET', path: '/api/task', authorities: ['VIEW_TASK', 'ACCESS_TASK_TAB'] },
      { method: 'GET', path: `/api/task/${target.id}`, authorities: ['VIEW_TASK', 'ACCESS_TASK_TAB'] },
      { method: 'POST', path: '/api/task', json, authorities: ['CREATE_TASK'] },
      { method: 'PUT', path: `/api/task/${target.id}`, json, authorities: ['EDIT_TASK'] },
      { method: 'DELETE', path: `/api/task/${target.id}`, authorities: ['DELETE_TASK'] },
    ];
  });

  it('refuses a caller without the endpoint’s authority', async () => {
    expect(await statusesWithoutAuthority(t, a, endpoints)).toEqual(expectedStatuses(endpoints, 403));
  });

  it('answers another company’s ids as not existing, and refuses its X-Tenant-Id', async () => {
    const idAddressed = endpoints.filter((endpoint) => /\d+$/.test(endpoint.path));
    expect(await statusesFromOtherTenant(t, otherToken, a.tenantId, idAddressed)).toEqual(
      expectedStatuses(idAddressed, 404, 403),
    );
    const list = await t.call<Task[]>('/api/task', { token: otherToken });
    expect(list.body.some((task) => task.tenantId === a.tenantId)).toBe(false);
    const post = await create(body(), otherToken);
    expect(post.status).toBe(400);
    expect(post.body.fields).toEqual({
      statusId: 'ERROR_STATUS_NOT_EXIST',
      departmentId: 'ERROR_DEPARTMENT_NOT_EXIST',
    });
    expect(await t.call(`/api/task/${target.id}`, { token: companyHeadToken })).toMatchObject({
      status: 200,
      body: target,
    });
  });
});
