import type { Schedule } from '@opsdeck/contract/schedules';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, createUser, type TestCompany } from '../../../test/factories';
import { signInCompanyHead, tokenFor, tokenWithEveryAuthority } from '../../../test/sign-in';
import { departments, schedules, users } from '../../db/schema';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

type ErrorBody = { key: string; fields?: Record<string, string> };

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let adminToken: string;
let headToken: string;
let alice: number;
let bob: number;
let archivedUser: number;
let otherUser: number;
let otherToken: string;
const db = () => t.database.db;

/** A shift of 8 hours starting `days` from now. */
const shift = (userId: number, days: number) => {
  const scheduleStart = Date.now() + days * DAY;
  return { userId, scheduleStart, scheduleEnd: scheduleStart + 8 * HOUR, archived: false };
};

const create = (json: unknown, token = headToken, tenantId?: string) =>
  t.call<Schedule[] & ErrorBody>('/api/schedule', { json, token, ...(tenantId ? { tenantId } : {}) });
const update = (json: unknown, token = headToken) =>
  t.call<Schedule[] & ErrorBody>('/api/schedule', { method: 'PUT', json, token });
const archive = (json: unknown, token = headToken) =>
  t.call<{ ids: number[] } & ErrorBody>('/api/schedule', { method: 'PATCH', json, token });
const list = (query = '', token = headToken, tenantId?: string) =>
  t.call<Schedule[] & ErrorBody>(`/api/schedule${query}`, { token, ...(tenantId ? { tenantId } : {}) });

async function createOne(userId: number, days: number, token = headToken) {
  const result = await create([shift(userId, days)], token);
  expect(result.status).toBe(201);
  return result.body[0]!;
}

const rowOf = async (id: number) => (await db().select().from(schedules).where(eq(schedules.id, id)))[0]!;

beforeAll(async () => {
  t = await startTestApp();
  a = await createCompany(db());
  b = await createCompany(db());
  adminToken = await t.login(ADMIN.email, ADMIN.password);
  headToken = (await signInCompanyHead(t, a)).token;
  alice = (await createUser(db(), { company: a })).id;
  bob = (await createUser(db(), { company: a })).id;
  await db().update(users).set({ firstName: 'Alice', lastName: 'Anders' }).where(eq(users.id, alice));
  await db().update(users).set({ firstName: 'Bob', lastName: 'Brown' }).where(eq(users.id, bob));
  archivedUser = (await createUser(db(), { company: a, archived: true })).id;
  otherUser = (await createUser(db(), { company: b })).id;
  otherToken = await tokenWithEveryAuthority(t, b);
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/schedule', () => {
  it('creates one record per entry in the caller’s company and answers them with names', async () => {
    const records = [shift(alice, 30), shift(bob, 30), shift(alice, 31)];
    const result = await create(records);
    expect(result.status).toBe(201);
    expect(result.body).toHaveLength(3);
    expect(result.body[0]).toMatchObject({
      userId: expect.any(Number),
      firstName: 'Alice',
      scheduleStart: records[0]!.scheduleStart,
      scheduleEnd: records[0]!.scheduleEnd,
      archived: false,
    });
    expect(typeof result.body[0]!.scheduleStart).toBe('number');
    const stored = await rowOf(result.body[0]!.id);
    expect(stored.tenantId).toBe(a.tenantId);
  });

  it('answers ERROR_SCHEDULE_NOTHING_SELECTED for an empty array and ERROR_SCHEDULE_TOO_MANY over 5000', async () => {
    expect((await create([])).body).toMatchObject({ key: 'ERROR_SCHEDULE_NOTHING_SELECTED' });
    const many = Array.from({ length: 5001 }, () => shift(alice, 40));
    const tooMany = await create(many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.key).toBe('ERROR_SCHEDULE_TOO_MANY');
    expect((await create({ userId: alice })).status).toBe(400);
  });

  it('creates 5000 records in one call', async () => {
    const count = (await db().select().from(schedules)).length;
    // One shift a day each: a person is never booked twice over the same hours.
    const many = Array.from({ length: 5000 }, (_, index) =>
      shift(index % 2 ? alice : bob, 400 + Math.floor(index / 2)),
    );
    const result = await create(many);
    expect(result.status).toBe(201);
    expect(result.body).toHaveLength(5000);
    expect((await db().select().from(schedules)).length).toBe(count + 5000);
    await archive(result.body.map((row) => row.id));
  });

  it('answers ERROR_SCHEDULE_SHIFT_INVALID when the end is not after the start or the shift passes a day', async () => {
    const start = Date.now() + 30 * DAY;
    const same = await create([{ userId: alice, scheduleStart: start, scheduleEnd: start }]);
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({
      key: 'ERROR_SCHEDULE_SHIFT_INVALID',
      fields: { '0.scheduleEnd': 'ERROR_SCHEDULE_SHIFT_INVALID' },
    });
    const before = await create([shift(alice, 30), { userId: alice, scheduleStart: start, scheduleEnd: start - HOUR }]);
    expect(before.body.fields).toEqual({ '1.scheduleEnd': 'ERROR_SCHEDULE_SHIFT_INVALID' });
    const long = await create([{ userId: alice, scheduleStart: start, scheduleEnd: start + DAY + 1 }]);
    expect(long.body.key).toBe('ERROR_SCHEDULE_SHIFT_INVALID');
    expect((await create([{ userId: alice, scheduleStart: 'x', scheduleEnd: start }])).status).toBe(400);
    expect((await create([{ ...shift(alice, 30), archived: true }])).status).toBe(400);
  });

  it('answers ERROR_SCHEDULE_USER_INVALID for an archived, unknown or foreign user, and creates none', async () => {
    const count = (await db().select().from(schedules)).length;
    for (const userId of [archivedUser, otherUser, 999_999]) {
      const result = await create([shift(alice, 30), shift(userId, 30)]);
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        key: 'ERROR_SCHEDULE_USER_INVALID',
        fields: { '1.userId': 'ERROR_SCHEDULE_USER_INVALID' },
      });
    }
    expect((await create([{ ...shift(alice, 30), userId: -1 }])).body.key).toBe('ERROR_SCHEDULE_USER_INVALID');
    expect((await db().select().from(schedules)).length).toBe(count);
  });

  it('needs a company for an admin (X-Tenant-Id), and creates there with it', async () => {
    const without = await create([shift(alice, 30)], adminToken);
    expect(without.status).toBe(400);
    expect(without.body.key).toBe('ERROR_COMPANY_REQUIRED');
    const withTenant = await create([shift(alice, 32)], adminToken, a.tenantId);
    expect(withTenant.status).toBe(201);
    expect((await rowOf(withTenant.body[0]!.id)).tenantId).toBe(a.tenantId);
    // The admin acting on B cannot schedule A's users.
    expect((await create([shift(alice, 32)], adminToken, b.tenantId)).body.key).toBe('ERROR_SCHEDULE_USER_INVALID');
  });
});

describe('GET /api/schedule', () => {
  let early: Schedule;
  let late: Schedule;
  let foreign: number;
  const base = Date.now() + 200 * DAY;

  beforeAll(async () => {
    const made = await create([
      { userId: bob, scheduleStart: base + 2 * HOUR, scheduleEnd: base + 10 * HOUR },
      { userId: alice, scheduleStart: base + 2 * HOUR, scheduleEnd: base + 9 * HOUR },
      { userId: alice, scheduleStart: base + DAY, scheduleEnd: base + DAY + 8 * HOUR },
    ]);
    // The answer is sorted like the list: Alice at 2 h, Bob at 2 h, Alice a day later.
    early = made.body[1]!;
    late = made.body[2]!;
    expect(early.userId).toBe(bob);
    const other = await create([shift(otherUser, 200)], otherToken);
    foreign = other.body[0]!.id;
  });

  it('lists the tenant’s schedules overlapping the range, by start then name', async () => {
    const result = await list(`?from=${base}&to=${base + 2 * DAY}`);
    expect(result.status).toBe(200);
    expect(result.body.map((row) => [row.firstName, row.lastName, row.scheduleStart - base])).toEqual([
      ['Alice', 'Anders', 2 * HOUR],
      ['Bob', 'Brown', 2 * HOUR],
      ['Alice', 'Anders', DAY],
    ]);
    expect(result.body[1]!.id).toBe(early.id);
    expect(result.body[2]!.id).toBe(late.id);
    expect(result.body.map((row) => row.id)).not.toContain(foreign);
  });

  it('includes a schedule that only overlaps the range, and leaves out those outside it', async () => {
    // Bob's shift runs to base + 10 h, Alice's to base + 9 h.
    const overlap = await list(`?from=${base + 9 * HOUR + 1}&to=${base + 9 * HOUR + 2}`);
    expect(overlap.body.map((row) => row.id)).toEqual([early.id]);
    const none = await list(`?from=${base + 11 * HOUR}&to=${base + 12 * HOUR}`);
    expect(none.body).toEqual([]);
    const from = await list(`?from=${base + DAY}`);
    expect(from.body.map((row) => row.id)).toContain(late.id);
    expect(from.body.map((row) => row.id)).not.toContain(early.id);
  });

  it('filters by a case-insensitive part of the full name', async () => {
    const part = 'CE AND'; // 'Alice Anders'
    const result = await list(`?from=${base}&to=${base + 2 * DAY}&userName=${encodeURIComponent(part)}`);
    expect(result.body.length).toBeGreaterThan(0);
    expect(result.body.every((row) => row.userId === alice)).toBe(true);
    expect((await list(`?userName=${encodeURIComponent('%')}`)).body).toEqual([]);
  });

  it('leaves out archived schedules', async () => {
    const made = await createOne(alice, 250);
    expect((await list(`?from=${made.scheduleStart}&to=${made.scheduleEnd}`)).body).toHaveLength(1);
    await archive([made.id]);
    expect((await list(`?from=${made.scheduleStart}&to=${made.scheduleEnd}`)).body).toEqual([]);
  });

  it('shows an admin every company without X-Tenant-Id and one company with it', async () => {
    const allRows = (await list('', adminToken)).body;
    const all = allRows.map((row) => row.id);
    expect(all).toContain(early.id);
    expect(all).toContain(foreign);
    // Each row names its company's tenant, for the admin's Company column.
    expect(allRows.find((row) => row.id === early.id)?.tenantId).toBe(a.tenantId);
    expect(allRows.find((row) => row.id === foreign)?.tenantId).toBe(b.tenantId);
    const onlyA = (await list('', adminToken, a.tenantId)).body.map((row) => row.id);
    expect(onlyA).toContain(early.id);
    expect(onlyA).not.toContain(foreign);
  });

  it('answers 400 for a range that is not a number', async () => {
    expect((await list('?from=yesterday')).status).toBe(400);
    expect((await list('?to=-5')).status).toBe(400);
  });
});

describe('PUT /api/schedule', () => {
  const times = (row: { id: number; scheduleStart: number }, shiftHours = 1) => ({
    id: row.id,
    scheduleStart: row.scheduleStart + shiftHours * HOUR,
    scheduleEnd: row.scheduleStart + (shiftHours + 6) * HOUR,
  });

  it('changes the times of schedules later than 14 days from now', async () => {
    const far = await createOne(alice, 15);
    const farther = await createOne(bob, 20);
    const result = await update([times(far), times(farther, 2)]);
    expect(result.status).toBe(200);
    expect(result.body.find((row) => row.id === far.id)).toMatchObject(times(far));
    expect(await rowOf(farther.id)).toMatchObject(times(farther, 2));
  });

  it('refuses a schedule 13 days ahead with ERROR_SCHEDULE_LOCKED, and a mixed selection changes nothing', async () => {
    const near = await createOne(alice, 13);
    const far = await createOne(alice, 15.5);
    const locked = await update([times(near)]);
    expect(locked.status).toBe(409);
    expect(locked.body.key).toBe('ERROR_SCHEDULE_LOCKED');
    const mixed = await update([times(far), times(near)]);
    expect(mixed.status).toBe(409);
    expect(await rowOf(far.id)).toMatchObject({ scheduleStart: far.scheduleStart, scheduleEnd: far.scheduleEnd });
    expect(await rowOf(near.id)).toMatchObject({ scheduleStart: near.scheduleStart });
  });

  it('refuses to move a schedule into the locked fortnight', async () => {
    const far = await createOne(bob, 15.5);
    const result = await update([
      { id: far.id, scheduleStart: Date.now() + DAY, scheduleEnd: Date.now() + DAY + HOUR },
    ]);
    expect(result.body.key).toBe('ERROR_SCHEDULE_LOCKED');
    expect((await rowOf(far.id)).scheduleStart).toBe(far.scheduleStart);
  });

  it('answers ERROR_SCHEDULE_NOT_EXIST for unknown or archived ids, and changes nothing', async () => {
    const far = await createOne(alice, 16);
    const gone = await createOne(alice, 16.5);
    await archive([gone.id]);
    for (const id of [999_999, gone.id]) {
      const result = await update([times(far), times({ id, scheduleStart: far.scheduleStart })]);
      expect(result.status).toBe(404);
      expect(result.body.key).toBe('ERROR_SCHEDULE_NOT_EXIST');
    }
    expect((await rowOf(far.id)).scheduleStart).toBe(far.scheduleStart);
  });

  it('answers ERROR_SCHEDULE_NOTHING_SELECTED for an empty array and validates the times', async () => {
    const empty = await update([]);
    expect(empty.status).toBe(400);
    expect(empty.body.key).toBe('ERROR_SCHEDULE_NOTHING_SELECTED');
    const far = await createOne(alice, 17);
    const backwards = await update([{ id: far.id, scheduleStart: far.scheduleEnd, scheduleEnd: far.scheduleStart }]);
    expect(backwards.body).toMatchObject({ key: 'ERROR_SCHEDULE_SHIFT_INVALID' });
    expect((await update([{ id: 'x', scheduleStart: 1, scheduleEnd: 2 }])).status).toBe(400);
  });
});

describe('PATCH /api/schedule', () => {
  it('archives schedules later than now', async () => {
    const tomorrow = await createOne(alice, 1);
    const later = await createOne(bob, 3);
    const result = await archive([tomorrow.id, later.id]);
    expect(result.status).toBe(200);
    expect(result.body.ids.sort()).toEqual([tomorrow.id, later.id].sort());
    expect((await rowOf(tomorrow.id)).archived).toBe(true);
    const listed = await list(`?from=${tomorrow.scheduleStart}&to=${later.scheduleEnd}`);
    expect(listed.body.map((row) => row.id)).not.toContain(tomorrow.id);
  });

  it('refuses a started schedule with ERROR_SCHEDULE_LOCKED, and a mixed selection archives nothing', async () => {
    const past = await createOne(alice, -1);
    const running = await create([{ userId: alice, scheduleStart: Date.now() - HOUR, scheduleEnd: Date.now() + HOUR }]);
    const future = await createOne(alice, 2);
    for (const ids of [[past.id], [running.body[0]!.id], [future.id, past.id]]) {
      const result = await archive(ids);
      expect(result.status).toBe(409);
      expect(result.body.key).toBe('ERROR_SCHEDULE_LOCKED');
    }
    expect((await rowOf(future.id)).archived).toBe(false);
    expect((await rowOf(past.id)).archived).toBe(false);
  });

  it('answers ERROR_SCHEDULE_NOT_EXIST for unknown or already archived ids', async () => {
    const future = await createOne(alice, 2.5);
    await archive([future.id]);
    const again = await archive([future.id]);
    expect(again.status).toBe(404);
    expect(again.body.key).toBe('ERROR_SCHEDULE_NOT_EXIST');
    expect((await archive([999_999])).status).toBe(404);
  });

  it('answers ERROR_SCHEDULE_NOTHING_SELECTED for an empty array and 400 for anything but an array of ids', async () => {
    const empty = await archive([]);
    expect(empty.status).toBe(400);
    expect(empty.body.key).toBe('ERROR_SCHEDULE_NOTHING_SELECTED');
    expect((await archive({ ids: [1] })).status).toBe(400);
    expect((await archive(['x'])).status).toBe(400);
  });
});

describe('one person, one shift at a time', () => {
  it('refuses a shift that overlaps a stored one of the same person (409 ERROR_SCHEDULE_OVERLAP), and creates none', async () => {
    const first = await createOne(alice, 90);
    const before = (await db().select().from(schedules)).length;
    const overlapping = {
      userId: alice,
      scheduleStart: first.scheduleStart + HOUR,
      scheduleEnd: first.scheduleEnd + HOUR,
    };
    const result = await create([shift(bob, 90), overlapping]);
    expect(result.status).toBe(409);
    expect(result.body.key).toBe('ERROR_SCHEDULE_OVERLAP');
    expect((await db().select().from(schedules)).length).toBe(before);
    // Back to back is not an overlap, and another person may work the same hours.
    const next = { userId: alice, scheduleStart: first.scheduleEnd, scheduleEnd: first.scheduleEnd + HOUR };
    expect((await create([next, shift(bob, 90.01)])).status).toBe(201);
  });

  it('refuses two overlapping shifts of one person in the same request', async () => {
    const result = await create([shift(alice, 95), shift(alice, 95)]);
    expect(result.status).toBe(409);
    expect(result.body.key).toBe('ERROR_SCHEDULE_OVERLAP');
  });

  it('refuses moving a shift onto another of the same person, but not onto its own old hours', async () => {
    const first = await createOne(alice, 100);
    const second = await createOne(alice, 100.5);
    const onto = await update([{ id: second.id, scheduleStart: first.scheduleStart, scheduleEnd: first.scheduleEnd }]);
    expect(onto.status).toBe(409);
    expect(onto.body.key).toBe('ERROR_SCHEDULE_OVERLAP');
    const nudged = await update([
      { id: first.id, scheduleStart: first.scheduleStart + HOUR, scheduleEnd: first.scheduleEnd + HOUR },
    ]);
    expect(nudged.status).toBe(200);
  });

  it('lets an archived shift be booked over', async () => {
    const first = await createOne(bob, 110);
    await archive([first.id]);
    expect(
      (await create([{ userId: bob, scheduleStart: first.scheduleStart, scheduleEnd: first.scheduleEnd }])).status,
    ).toBe(201);
  });
});

describe('a department head schedules his own departments only', () => {
  let deptHeadToken: string;
  let member: number;
  let outsider: number;
  beforeAll(async () => {
    const ops = await createDepartment(db(), a, { name: 'Schedules Ops' });
    const opsNorth = await createDepartment(db(), a, { name: 'Schedules Ops North', parentId: ops.id });
    const elsewhere = await createDepartment(db(), a, { name: 'Schedules Elsewhere' });
    const deptHead = await createUser(db(), { company: a, role: 'DEPARTMENT_HEAD', departmentId: ops.id });
    await db().update(departments).set({ headId: deptHead.id }).where(eq(departments.id, ops.id));
    deptHeadToken = await t.login(deptHead.email, deptHead.password);
    member = (await createUser(db(), { company: a, departmentId: opsNorth.id })).id;
    outsider = (await createUser(db(), { company: a, departmentId: elsewhere.id })).id;
  });

  it('creates for the users below him and is refused for others (403 ERROR_SCHEDULE_INACCESSIBLE)', async () => {
    expect((await create([shift(member, 120)], deptHeadToken)).status).toBe(201);
    for (const userId of [outsider, alice]) {
      const refused = await create([shift(userId, 121)], deptHeadToken);
      expect(refused.status).toBe(403);
      expect(refused.body.key).toBe('ERROR_SCHEDULE_INACCESSIBLE');
    }
  });

  it('lists, moves and archives only his people’s shifts', async () => {
    const theirs = await createOne(outsider, 130);
    const mine = (await create([shift(member, 131)], deptHeadToken)).body[0]!;
    const listed = await list('', deptHeadToken);
    expect(listed.body.map((row) => row.userId)).toContain(member);
    expect(listed.body.map((row) => row.userId)).not.toContain(outsider);
    const moved = { id: theirs.id, scheduleStart: theirs.scheduleStart + HOUR, scheduleEnd: theirs.scheduleEnd + HOUR };
    expect((await update([moved], deptHeadToken)).body.key).toBe('ERROR_SCHEDULE_INACCESSIBLE');
    expect((await archive([theirs.id], deptHeadToken)).body.key).toBe('ERROR_SCHEDULE_INACCESSIBLE');
    expect((await rowOf(theirs.id)).archived).toBe(false);
    expect((await archive([mine.id], deptHeadToken)).status).toBe(200);
  });
});

describe('authority and tenant table', () => {
  let far: Schedule;
  let future: Schedule;
  beforeAll(async () => {
    far = await createOne(alice, 60);
    future = await createOne(bob, 61);
  });
  const endpoints = (): Endpoint[] => [
    { method: 'GET', path: '/api/schedule', authorities: ['VIEW_SCHEDULE', 'ACCESS_SCHEDULE_TAB'] },
    { method: 'POST', path: '/api/schedule', json: [shift(alice, 70)], authorities: ['CREATE_SCHEDULE'] },
    {
      method: 'PUT',
      path: '/api/schedule',
      json: [{ id: far.id, scheduleStart: far.scheduleStart + HOUR, scheduleEnd: far.scheduleEnd + HOUR }],
      authorities: ['EDIT_SCHEDULE'],
    },
    { method: 'PATCH', path: '/api/schedule', json: [future.id], authorities: ['DELETE_SCHEDULE'] },
  ];

  it('refuses a caller without the endpoint’s authority (403)', async () => {
    await expectRefusedWithoutAuthority(t, a, endpoints());
    for (const authority of ['VIEW_SCHEDULE', 'ACCESS_SCHEDULE_TAB'] as const) {
      const token = await tokenFor(t, a, [authority]);
      expect((await list('', token)).status).toBe(200);
    }
  });

  it('answers 404 to another company for A’s ids, 403 when it names A’s tenant, and lists none of A’s rows', async () => {
    const before = await db().select().from(schedules).where(eq(schedules.tenantId, a.tenantId));
    const idAddressed = endpoints().filter((endpoint) => endpoint.method === 'PUT' || endpoint.method === 'PATCH');
    await expectHiddenFromOtherTenant(t, otherToken, a.tenantId, idAddressed);
    // Creating for A's user is refused as if the user did not exist.
    const post = await create([shift(alice, 70)], otherToken);
    expect(post.status).toBe(400);
    expect(post.body.key).toBe('ERROR_SCHEDULE_USER_INVALID');
    expect((await create([shift(alice, 70)], otherToken, a.tenantId)).status).toBe(403);
    const listed = await list('', otherToken);
    expect(listed.status).toBe(200);
    expect(listed.body.length).toBeGreaterThan(0);
    expect(listed.body.every((row) => row.userId === otherUser)).toBe(true);
    expect((await list('', otherToken, a.tenantId)).status).toBe(403);
    const after = await db().select().from(schedules).where(eq(schedules.tenantId, a.tenantId));
    expect(after).toEqual(before);
  });
});
