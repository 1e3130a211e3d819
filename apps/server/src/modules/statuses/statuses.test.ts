import type { Status } from '@opsdeck/contract/statuses';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { resourceCalls, startTestApp, type TestApp } from '../../../test/app';
import { type DepartmentScopeWorld, departmentScopeWorld } from '../../../test/department-scope';
import { createDepartment } from '../../../test/factories';
import { tokenFor } from '../../../test/sign-in';
import { departments, statuses, tasks } from '../../db/schema';
import { circleIcon, encodePng, pngDataUrl } from '../../platform/png';

type ErrorBody = { key: string; fields?: Record<string, string> };
type Answer = Status & ErrorBody;

let t: TestApp;
/** Company a: parentDept ⊃ childDept, and siblingDept beside it, each with a head; company b: otherDept. */
let world: DepartmentScopeWorld;
const db = () => t.database.db;

const icon = (size: number, color = '#2f9e44') => pngDataUrl(circleIcon(size, color));
const body = (overrides: Record<string, unknown> = {}) => ({
  name: `Status ${Math.random().toString(36).slice(2, 8)}`,
  departmentId: world.childDept,
  threshold: 15,
  color: '#2f9e44',
  icon: icon(24),
  trackIdle: true,
  fileName: 'available.png',
  ...overrides,
});

const { create, created, update, remove } = resourceCalls<Answer>(
  () => t,
  '/api/status',
  () => world.companyHeadToken,
);
const createOne = (overrides: Record<string, unknown> = {}, token?: string) => created(body(overrides), token);

const rowOf = async (id: number) => (await db().select().from(statuses).where(eq(statuses.id, id)))[0];

beforeAll(async () => {
  t = await startTestApp();
  world = await departmentScopeWorld(t);
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/status', () => {
  it('creates a status and answers it with its department, icon data URL and file name', async () => {
    const json = body({ name: '  Available  ', color: '#2F9E44' });
    const result = await create(json);
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      id: expect.any(Number),
      name: 'Available',
      department: { id: world.childDept, name: 'Dispatch' },
      departmentId: world.childDept,
      threshold: 15,
      color: '#2f9e44',
      icon: json.icon,
      fileName: 'available.png',
      trackIdle: true,
      editable: true,
      builtIn: false,
      tenantId: world.a.tenantId,
    });
    expect((await rowOf(result.body.id))?.icon.length).toBeGreaterThan(8);
  });

  it('defaults the threshold to 0 and track idle to false', async () => {
    const result = await create({ name: 'Offline', departmentId: world.childDept, color: '#000000', icon: icon(48) });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ threshold: 0, trackIdle: false, fileName: 'icon.png' });
  });

  it('keeps only the base name of a file name with a path', async () => {
    const created = await createOne({ fileName: '../../etc/passwd.png' });
    expect(created.fileName).toBe('passwd.png');
  });

  it.each([
    ['a missing name', { name: undefined }, 'name', 'ERROR_GENERAL_NAME_REQUIRED'],
    ['a blank name', { name: '   ' }, 'name', 'ERROR_GENERAL_NAME_REQUIRED'],
    ['a name of 256 characters', { name: 'n'.repeat(256) }, 'name', 'ERROR_GENERAL_NAME_TOO_LONG'],
    ['a name with a forbidden character', { name: 'On/Off' }, 'name', 'ERROR_GENERAL_NAME_INVALID'],
    ['no department', { departmentId: undefined }, 'departmentId', 'ERROR_STATUS_DEPARTMENT_REQUIRED'],
    ['a department of null', { departmentId: null }, 'departmentId', 'ERROR_STATUS_DEPARTMENT_REQUIRED'],
    ['a department of 0 (the placeholder)', { departmentId: 0 }, 'departmentId', 'ERROR_STATUS_DEPARTMENT_REQUIRED'],
    ['a threshold of -1', { threshold: -1 }, 'threshold', 'ERROR_STATUS_THRESHOLD_INVALID'],
    ['a threshold of 61', { threshold: 61 }, 'threshold', 'ERROR_STATUS_THRESHOLD_INVALID'],
    ['a threshold of 1.5', { threshold: 1.5 }, 'threshold', 'ERROR_STATUS_THRESHOLD_INVALID'],
    ['a threshold as text', { threshold: 'ten' }, 'threshold', 'ERROR_STATUS_THRESHOLD_INVALID'],
    ['no color', { color: undefined }, 'color', 'ERROR_STATUS_COLOR_REQUIRED'],
    ['an empty color', { color: '' }, 'color', 'ERROR_STATUS_COLOR_REQUIRED'],
    ['a color that is no hex', { color: 'green' }, 'color', 'ERROR_STATUS_COLOR_INVALID'],
    ['no icon', { icon: undefined }, 'icon', 'ERROR_STATUS_ICON_REQUIRED'],
    ['an empty icon', { icon: '' }, 'icon', 'ERROR_STATUS_ICON_REQUIRED'],
  ])('refuses %s', async (_case, overrides, field, key) => {
    const before = await t.call<Status[]>('/api/status', { token: world.companyHeadToken });
    const result = await create(body(overrides));
    expect(result).toMatchObject({ status: 400, body: { key } });
    expect(result.body.fields?.[field]).toBe(key);
    const after = await t.call<Status[]>('/api/status', { token: world.companyHeadToken });
    expect(after.body).toHaveLength(before.body.length);
  });

  it('accepts the boundary thresholds 0 and 60 and names of 255 characters', async () => {
    expect((await create(body({ threshold: 0 }))).status).toBe(201);
    expect((await create(body({ threshold: 60, name: 'n'.repeat(255) }))).status).toBe(201);
  });

  it.each([24, 48, 128])('accepts a square png of %i px', async (size) => {
    const result = await create(body({ icon: icon(size) }));
    expect(result.status).toBe(201);
  });

  const jpeg = Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    ...Array(40).fill(0),
  ]);
  it.each([
    ['a 32 px png', pngDataUrl(circleIcon(32, '#ff0000')), 'ERROR_STATUS_ICON_INVALID_DIMENSION'],
    ['a 24 × 48 png', pngDataUrl(encodePng(24, 48, () => [0, 0, 0, 255])), 'ERROR_STATUS_ICON_INVALID_DIMENSION'],
    ['a 256 px png', pngDataUrl(circleIcon(256, '#ff0000')), 'ERROR_STATUS_ICON_INVALID_DIMENSION'],
    [
      'a png over 512000 bytes',
      pngDataUrl(encodePng(24, 24, () => [0, 0, 0, 255], { extraBytes: 520_000 })),
      'ERROR_STATUS_ICON_TOO_BIG',
    ],
    ['a jpeg labelled as png', `data:image/png;base64,${jpeg.toString('base64')}`, 'ERROR_STATUS_ICON_UNSUPPORTED'],
    ['text that is no base64', 'data:image/png;base64,not base64 at all!', 'ERROR_STATUS_ICON_UNSUPPORTED'],
    ['a data URL that is not base64', 'data:image/png,plain', 'ERROR_STATUS_ICON_UNSUPPORTED'],
    [
      'garbage bytes',
      `data:image/png;base64,${Buffer.from('garbage garbage garbage garbage').toString('base64')}`,
      'ERROR_STATUS_ICON_UNSUPPORTED',
    ],
    [
      'a truncated png',
      `data:image/png;base64,${circleIcon(24, '#000000').subarray(0, 20).toString('base64')}`,
      'ERROR_STATUS_ICON_UNSUPPORTED',
    ],
  ])('refuses %s from its bytes', async (_case, dataUrl, key) => {
    const result = await create(body({ icon: dataUrl, fileName: 'looks-fine.png' }));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ key, fields: { icon: key } });
  });

  it('accepts a png whatever MIME type or name the client claims', async () => {
    const bytes = circleIcon(48, '#123456').toString('base64');
    const result = await create(body({ icon: `data:image/jpeg;base64,${bytes}`, fileName: 'photo.jpg' }));
    expect(result.status).toBe(201);
    expect(result.body.icon).toBe(`data:image/png;base64,${bytes}`);
  });

  it('refuses a department of another company as not existing', async () => {
    const result = await create(body({ departmentId: world.otherDept }));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      key: 'ERROR_DEPARTMENT_NOT_EXIST',
      fields: { departmentId: 'ERROR_DEPARTMENT_NOT_EXIST' },
    });
  });

  it('refuses an archived department as not existing', async () => {
    const archived = (await createDepartment(db(), world.a)).id;
    await db().update(departments).set({ archived: true }).where(eq(departments.id, archived));
    const result = await create(body({ departmentId: archived }));
    expect(result).toMatchObject({ status: 400, body: { key: 'ERROR_DEPARTMENT_NOT_EXIST' } });
  });

  it('asks an admin with no X-Tenant-Id for a company, and creates in the one named', async () => {
    const missing = await create(body(), world.adminToken);
    expect(missing).toMatchObject({ status: 400, body: { key: 'ERROR_COMPANY_REQUIRED' } });
    const result = await create(body(), world.adminToken, world.a.tenantId);
    expect(result.status).toBe(201);
    expect(result.body.tenantId).toBe(world.a.tenantId);
  });

  it('lets a department head create in their department and below, nowhere else', async () => {
    expect((await create(body({ departmentId: world.parentDept }), world.parentHeadToken)).status).toBe(201);
    expect((await create(body({ departmentId: world.childDept }), world.parentHeadToken)).status).toBe(201);
    const refused = await create(body({ departmentId: world.siblingDept }), world.parentHeadToken);
    expect(refused).toMatchObject({ status: 403, body: { key: 'ERROR_STATUS_INACCESSIBLE' } });
  });

  it('fits a 512000-byte icon in the 1 MiB body limit', async () => {
    const png = encodePng(24, 24, () => [0, 0, 0, 255]);
    const padded = encodePng(24, 24, () => [0, 0, 0, 255], { extraBytes: 512_000 - png.length - 12 });
    expect(padded.length).toBe(512_000);
    const result = await create(body({ icon: pngDataUrl(padded) }));
    expect(result.status).toBe(201);
  });
});

describe('GET /api/status', () => {
  it('lists the tenant’s statuses by name, and an admin’s list covers every company unless one is named', async () => {
    const otherResult = await create(body({ departmentId: world.otherDept }), world.adminToken, world.b.tenantId);
    expect(otherResult.status).toBe(201);
    const other = otherResult.body;
    const own = await t.call<Status[]>('/api/status', { token: world.companyHeadToken });
    expect(own.status).toBe(200);
    expect(own.body.length).toBeGreaterThan(0);
    expect(own.body.every((status) => status.tenantId === world.a.tenantId)).toBe(true);
    const names = own.body.map((status) => status.name);
    expect(names).toEqual([...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    const all = await t.call<Status[]>('/api/status', { token: world.adminToken });
    expect(all.body.map((status) => status.id)).toContain(other.id);
    const named = await t.call<Status[]>('/api/status', { token: world.adminToken, tenantId: world.b.tenantId });
    expect(named.body.map((status) => status.id)).toEqual([other.id]);
  });

  it('answers one status, and a missing or malformed id as not existing', async () => {
    const created = await createOne();
    const one = await t.call<Answer>(`/api/status/${created.id}`, { token: world.companyHeadToken });
    expect(one.body).toEqual(created);
    const missing = await t.call<ErrorBody>('/api/status/999999', { token: world.companyHeadToken });
    expect(missing).toMatchObject({ status: 404, body: { key: 'ERROR_STATUS_NOT_EXIST' } });
    const malformed = await t.call<ErrorBody>('/api/status/abc', { token: world.companyHeadToken });
    expect(malformed.status).toBe(400);
  });

  it('says which statuses the caller may change: editable in the departments they head and below', async () => {
    const inChild = await createOne({ departmentId: world.childDept });
    const inSibling = await createOne({ departmentId: world.siblingDept });
    const builtIn = await createOne({ departmentId: world.childDept });
    await db().update(statuses).set({ builtIn: true }).where(eq(statuses.id, builtIn.id));
    const editableFor = async (token: string) => {
      const list = (await t.call<Status[]>('/api/status', { token })).body;
      const byId = new Map(list.map((status) => [status.id, status]));
      return [inChild.id, inSibling.id, builtIn.id].map((id) => [byId.get(id)!.editable, byId.get(id)!.builtIn]);
    };
    expect(await editableFor(world.parentHeadToken)).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
    expect(await editableFor(world.companyHeadToken)).toEqual([
      [true, false],
      [true, false],
      [false, true],
    ]);
    const one = await t.call<Status>(`/api/status/${inSibling.id}`, { token: world.siblingHeadToken });
    expect(one.body.editable).toBe(true);
  });

  it('is readable with a task authority alone (the task form needs it)', async () => {
    const token = await tokenFor(t, world.a, ['CREATE_TASK']);
    expect((await t.call('/api/status', { token })).status).toBe(200);
  });
});

describe('PUT /api/status/{id}', () => {
  it('updates the fields and keeps the icon when none or an empty one is sent', async () => {
    const created = await createOne({ icon: icon(48, '#ff0000'), fileName: 'red.png' });
    const { icon: _icon, ...withoutIcon } = body({ name: 'Renamed', threshold: 5, color: '#1971c2', trackIdle: false });
    const result = await update(created.id, withoutIcon);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ name: 'Renamed', threshold: 5, color: '#1971c2', trackIdle: false });
    expect(result.body.icon).toBe(created.icon);
    expect(result.body.fileName).toBe('red.png');
    const empty = await update(created.id, { ...withoutIcon, icon: '', fileName: '' });
    expect(empty.status).toBe(200);
    expect(empty.body.icon).toBe(created.icon);
    expect(empty.body.fileName).toBe('red.png');
  });

  it('replaces the icon and file name when a new one is sent, checking it the same way', async () => {
    const created = await createOne();
    const next = icon(128, '#e8590c');
    const result = await update(created.id, body({ icon: next, fileName: 'orange.png' }));
    expect(result.body).toMatchObject({ icon: next, fileName: 'orange.png' });
    const wrong = await update(created.id, body({ icon: icon(64) }));
    expect(wrong).toMatchObject({ status: 400, body: { key: 'ERROR_STATUS_ICON_INVALID_DIMENSION' } });
    expect((await rowOf(created.id))?.fileName).toBe('orange.png');
  });

  it.each([
    ['a missing name', { name: '' }, 'ERROR_GENERAL_NAME_REQUIRED'],
    ['a long name', { name: 'x'.repeat(256) }, 'ERROR_GENERAL_NAME_TOO_LONG'],
    ['a forbidden character', { name: 'a<b' }, 'ERROR_GENERAL_NAME_INVALID'],
    ['no department', { departmentId: null }, 'ERROR_STATUS_DEPARTMENT_REQUIRED'],
    ['a bad threshold', { threshold: 100 }, 'ERROR_STATUS_THRESHOLD_INVALID'],
    ['no color', { color: null }, 'ERROR_STATUS_COLOR_REQUIRED'],
  ])('refuses %s', async (_case, overrides, key) => {
    const created = await createOne();
    const result = await update(created.id, body(overrides));
    expect(result).toMatchObject({ status: 400, body: { key } });
    expect((await rowOf(created.id))?.name).toBe(created.name);
  });

  it('refuses a built-in (non-editable) status, even for the company head', async () => {
    const created = await createOne();
    await db().update(statuses).set({ builtIn: true }).where(eq(statuses.id, created.id));
    const result = await update(created.id, body({ name: 'Changed' }));
    expect(result).toMatchObject({ status: 403, body: { key: 'ERROR_STATUS_INACCESSIBLE' } });
    expect((await rowOf(created.id))?.name).toBe(created.name);
  });

  it('lets the head of a parent department edit a status of its child', async () => {
    const created = await createOne({ departmentId: world.childDept });
    const result = await update(created.id, body({ name: 'By the parent head' }), world.parentHeadToken);
    expect(result.status).toBe(200);
    expect(result.body.name).toBe('By the parent head');
  });

  it('refuses the head of a sibling department', async () => {
    const created = await createOne({ departmentId: world.childDept });
    const result = await update(
      created.id,
      body({ name: 'Sibling', departmentId: world.siblingDept }),
      world.siblingHeadToken,
    );
    expect(result).toMatchObject({ status: 403, body: { key: 'ERROR_STATUS_INACCESSIBLE' } });
    expect((await rowOf(created.id))?.name).toBe(created.name);
  });

  it('refuses moving a status into a department the caller does not manage', async () => {
    const created = await createOne({ departmentId: world.childDept }, world.parentHeadToken);
    const result = await update(created.id, body({ departmentId: world.siblingDept }), world.parentHeadToken);
    expect(result).toMatchObject({ status: 403, body: { key: 'ERROR_STATUS_INACCESSIBLE' } });
    expect((await rowOf(created.id))?.departmentId).toBe(world.childDept);
  });

  it('lets the company head and the admin edit any department’s status', async () => {
    const created = await createOne({ departmentId: world.siblingDept }, world.siblingHeadToken);
    expect((await update(created.id, body({ departmentId: world.childDept }))).status).toBe(200);
    const byAdmin = await t.call<Answer>(`/api/status/${created.id}`, {
      method: 'PUT',
      json: body({ name: 'By the admin', departmentId: world.siblingDept }),
      token: world.adminToken,
      tenantId: world.a.tenantId,
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.name).toBe('By the admin');
  });

  it('answers a missing status as not existing', async () => {
    const result = await update(999_999, body());
    expect(result).toMatchObject({ status: 404, body: { key: 'ERROR_STATUS_NOT_EXIST' } });
  });
});

describe('DELETE /api/status/{id}', () => {
  it('deletes a status', async () => {
    const created = await createOne();
    const result = await remove(created.id);
    expect(result.status).toBe(200);
    expect(await rowOf(created.id)).toBeUndefined();
    expect((await remove(created.id)).status).toBe(404);
  });

  it('refuses a status that tasks use', async () => {
    const created = await createOne();
    await db()
      .insert(tasks)
      .values({ tenantId: world.a.tenantId, name: 'Uses it', statusId: created.id, departmentId: world.childDept });
    const result = await remove(created.id);
    expect(result).toMatchObject({ status: 409, body: { key: 'ERROR_STATUS_DELETE' } });
    expect(await rowOf(created.id)).toBeDefined();
  });

  it('refuses a built-in status', async () => {
    const created = await createOne();
    await db().update(statuses).set({ builtIn: true }).where(eq(statuses.id, created.id));
    const result = await remove(created.id);
    expect(result).toMatchObject({ status: 403, body: { key: 'ERROR_STATUS_INACCESSIBLE' } });
  });

  it('refuses the head of a sibling department, allows the head of the parent', async () => {
    const created = await createOne({ departmentId: world.childDept });
    const refused = await remove(created.id, world.siblingHeadToken);
    expect(refused).toMatchObject({ status: 403, body: { key: 'ERROR_STATUS_INACCESSIBLE' } });
    expect(await rowOf(created.id)).toBeDefined();
    expect((await remove(created.id, world.parentHeadToken)).status).toBe(200);
  });
});

describe('authorities and tenants', () => {
  let target: Status;
  let endpoints: Endpoint[];
  beforeAll(async () => {
    target = await createOne();
    const json = body({ name: 'Hijacked' });
    endpoints = [
      {
        method: 'GET',
        path: '/api/status',
        authorities: ['VIEW_STATUS', 'ACCESS_STATUS_TAB', 'VIEW_TASK', 'CREATE_TASK', 'EDIT_TASK'],
      },
      {
        method: 'GET',
        path: `/api/status/${target.id}`,
        authorities: ['VIEW_STATUS', 'ACCESS_STATUS_TAB', 'VIEW_TASK', 'CREATE_TASK', 'EDIT_TASK'],
      },
      { method: 'POST', path: '/api/status', json, authorities: ['CREATE_STATUS'] },
      { method: 'PUT', path: `/api/status/${target.id}`, json, authorities: ['EDIT_STATUS'] },
      { method: 'DELETE', path: `/api/status/${target.id}`, authorities: ['DELETE_STATUS'] },
    ];
  });

  it('refuses a caller without the endpoint’s authority', async () => {
    await expectRefusedWithoutAuthority(t, world.a, endpoints);
  });

  it('answers another company’s ids as not existing, and refuses its X-Tenant-Id', async () => {
    const idAddressed = endpoints.filter((endpoint) => /\d+$/.test(endpoint.path));
    await expectHiddenFromOtherTenant(t, world.otherToken, world.a.tenantId, idAddressed);
    const list = await t.call<Status[]>('/api/status', { token: world.otherToken });
    expect(list.body.some((status) => status.tenantId === world.a.tenantId)).toBe(false);
    // The other company's POST lands in its own tenant, never in a's (its departmentId is a's: refused).
    const post = await create(body(), world.otherToken);
    expect(post).toMatchObject({ status: 400, body: { key: 'ERROR_DEPARTMENT_NOT_EXIST' } });
    expect(await t.call<Answer>(`/api/status/${target.id}`, { token: world.companyHeadToken })).toMatchObject({
      status: 200,
      body: target,
    });
  });
});
