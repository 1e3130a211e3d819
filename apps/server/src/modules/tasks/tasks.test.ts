import type { Task } from '@opsdeck/contract/tasks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { resourceCalls, startTestApp, type TestApp } from '../../../test/app';
import { type DepartmentScopeWorld, departmentScopeWorld } from '../../../test/department-scope';
import type { TestCompany } from '../../../test/factories';
import { statuses, tasks } from '../../db/schema';
import { circleIcon } from '../../platform/png';

type ErrorBody = { key: string; fields?: Record<string, string> };
type Answer = Task & ErrorBody;

let t: TestApp;
/** Company a: parentDept ⊃ childDept, and siblingDept beside it, each with a head; company b: otherDept. */
let world: DepartmentScopeWorld;
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
  departmentId: world.childDept,
  ...overrides,
});
const { create, created, update, remove } = resourceCalls<Answer>(
  () => t,
  '/api/task',
  () => world.companyHeadToken,
);
const createOne = (overrides: Record<string, unknown> = {}, token?: string) => created(body(overrides), token);
const rowOf = async (id: number) => (await db().select().from(tasks).where(eq(tasks.id, id)))[0];

beforeAll(async () => {
  t = await startTestApp();
  world = await departmentScopeWorld(t);
  statusA = await insertStatus(world.a, world.childDept, 'Available');
  statusB = await insertStatus(world.b, world.otherDept, 'Elsewhere busy');
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
      department: { id: world.childDept, name: 'Dispatch' },
      editable: true,
      tenantId: world.a.tenantId,
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
      ...(overrides.departmentId === -1 ? { departmentId: world.otherDept } : {}),
    };
    const before = (await t.call<Task[]>('/api/task', { token: world.companyHeadToken })).body.length;
    const result = await create(body(resolved));
    expect(result).toMatchObject({ status: 400, body: { key } });
    expect(result.body.fields?.[field]).toBe(key);
    expect((await t.call<Task[]>('/api/task', { token: world.companyHeadToken })).body).toHaveLength(before);
  });

  it('accepts a name of 255 characters', async () => {
    expect((await create(body({ name: 'n'.repeat(255) }))).status).toBe(201);
  });

  it('asks an admin with no X-Tenant-Id for a company', async () => {
    const result = await create(body(), world.adminToken);
    expect(result).toMatchObject({ status: 400, body: { key: 'ERROR_COMPANY_REQUIRED' } });
    expect((await create(body(), world.adminToken, world.a.tenantId)).status).toBe(201);
  });

  it('lets a department head create in their department and below, nowhere else', async () => {
    expect((await create(body({ departmentId: world.parentDept }), world.parentHeadToken)).status).toBe(201);
    expect((await create(body({ departmentId: world.childDept }), world.parentHeadToken)).status).toBe(201);
    const refused = await create(body({ departmentId: world.siblingDept }), world.parentHeadToken);
    expect(refused).toMatchObject({ status: 403, body: { key: 'ERROR_TASK_INACCESSIBLE' } });
  });
});

describe('GET /api/task', () => {
  it('lists the tenant’s tasks; an admin reads every company unless one is named', async () => {
    const other = await create(
      body({ statusId: statusB, departmentId: world.otherDept }),
      world.adminToken,
      world.b.tenantId,
    );
    expect(other.status).toBe(201);
    const own = await t.call<Task[]>('/api/task', { token: world.companyHeadToken });
    expect(own.body.length).toBeGreaterThan(0);
    expect(own.body.every((task) => task.tenantId === world.a.tenantId)).toBe(true);
    const all = await t.call<Task[]>('/api/task', { token: world.adminToken });
    expect(all.body.map((task) => task.id)).toContain(other.body.id);
    const named = await t.call<Task[]>('/api/task', { token: world.adminToken, tenantId: world.b.tenantId });
    expect(named.body.map((task) => task.id)).toEqual([other.body.id]);
  });

  it('says which tasks the caller may change: editable in the departments they head and below', async () => {
    const inChild = await createOne({ departmentId: world.childDept });
    const inSibling = await createOne({ departmentId: world.siblingDept });
    const editableFor = async (token: string) => {
      const list = (await t.call<Task[]>('/api/task', { token })).body;
      return [inChild.id, inSibling.id].map((id) => list.find((task) => task.id === id)!.editable);
    };
    expect(await editableFor(world.parentHeadToken)).toEqual([true, false]);
    expect(await editableFor(world.siblingHeadToken)).toEqual([false, true]);
    expect(await editableFor(world.companyHeadToken)).toEqual([true, true]);
    expect(await editableFor(world.adminToken)).toEqual([true, true]);
  });

  it('answers one task, a missing one as not existing, a malformed id as invalid', async () => {
    const created = await createOne();
    expect((await t.call(`/api/task/${created.id}`, { token: world.companyHeadToken })).body).toEqual(created);
    const missing = await t.call<ErrorBody>('/api/task/999999', { token: world.companyHeadToken });
    expect(missing).toMatchObject({ status: 404, body: { key: 'ERROR_TASK_NOT_EXIST' } });
    expect((await t.call('/api/task/1.5', { token: world.companyHeadToken })).status).toBe(400);
  });
});

describe('PUT /api/task/{id}', () => {
  it('updates a task', async () => {
    const created = await createOne();
    const result = await update(created.id, body({ name: 'Renamed', departmentId: world.parentDept }));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ name: 'Renamed', department: { id: world.parentDept, name: 'Operations' } });
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
    expect(result).toMatchObject({ status: 400, body: { key } });
    expect((await rowOf(created.id))?.name).toBe(created.name);
  });

  it('lets the head of a parent department edit a task of its child, refuses the head of a sibling', async () => {
    const created = await createOne({ departmentId: world.childDept });
    const refused = await update(
      created.id,
      body({ name: 'Sibling', departmentId: world.siblingDept }),
      world.siblingHeadToken,
    );
    expect(refused).toMatchObject({ status: 403, body: { key: 'ERROR_TASK_INACCESSIBLE' } });
    expect((await rowOf(created.id))?.name).toBe(created.name);
    const allowed = await update(created.id, body({ name: 'Parent' }), world.parentHeadToken);
    expect(allowed.status).toBe(200);
  });

  it('refuses moving a task into a department the caller does not manage', async () => {
    const created = await createOne({ departmentId: world.childDept });
    const result = await update(created.id, body({ departmentId: world.siblingDept }), world.parentHeadToken);
    expect(result).toMatchObject({ status: 403, body: { key: 'ERROR_TASK_INACCESSIBLE' } });
    expect((await rowOf(created.id))?.departmentId).toBe(world.childDept);
  });

  it('answers a missing task as not existing', async () => {
    const result = await update(999_999, body());
    expect(result).toMatchObject({ status: 404, body: { key: 'ERROR_TASK_NOT_EXIST' } });
  });
});

describe('DELETE /api/task/{id}', () => {
  it('deletes a task, which frees its status for deletion', async () => {
    const status = await insertStatus(world.a, world.childDept, 'Short-lived');
    const created = await createOne({ statusId: status });
    expect((await t.call(`/api/status/${status}`, { method: 'DELETE', token: world.companyHeadToken })).status).toBe(
      409,
    );
    expect((await remove(created.id)).status).toBe(200);
    expect(await rowOf(created.id)).toBeUndefined();
    expect((await remove(created.id)).status).toBe(404);
    expect((await t.call(`/api/status/${status}`, { method: 'DELETE', token: world.companyHeadToken })).status).toBe(
      200,
    );
  });

  it('refuses the head of a sibling department, allows the head of the parent', async () => {
    const created = await createOne({ departmentId: world.childDept });
    const refused = await remove(created.id, world.siblingHeadToken);
    expect(refused).toMatchObject({ status: 403, body: { key: 'ERROR_TASK_INACCESSIBLE' } });
    expect((await remove(created.id, world.parentHeadToken)).status).toBe(200);
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
    await expectRefusedWithoutAuthority(t, world.a, endpoints);
  });

  it('answers another company’s ids as not existing, and refuses its X-Tenant-Id', async () => {
    const idAddressed = endpoints.filter((endpoint) => /\d+$/.test(endpoint.path));
    await expectHiddenFromOtherTenant(t, world.otherToken, world.a.tenantId, idAddressed);
    const list = await t.call<Task[]>('/api/task', { token: world.otherToken });
    expect(list.body.some((task) => task.tenantId === world.a.tenantId)).toBe(false);
    const post = await create(body(), world.otherToken);
    expect(post.status).toBe(400);
    expect(post.body.fields).toEqual({
      statusId: 'ERROR_STATUS_NOT_EXIST',
      departmentId: 'ERROR_DEPARTMENT_NOT_EXIST',
    });
    expect(await t.call(`/api/task/${target.id}`, { token: world.companyHeadToken })).toMatchObject({
      status: 200,
      body: target,
    });
  });
});
