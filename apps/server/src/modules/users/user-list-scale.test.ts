import type { Page } from '@opsdeck/contract/paging';
import type { User, UserSortField } from '@opsdeck/contract/users';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, createRole, createUser, type TestCompany } from '../../../test/factories';
import { deleteKeys, quietLog, REDIS_URL, testPrefix, until } from '../../../test/redis';
import { signInCompanyHead } from '../../../test/sign-in';
import type { RequestAuth } from '../../platform/access';
import type { DomainEvent } from '../../platform/events';
import { ANCHOR_SPACING } from '../../platform/list-anchors';
import { openRedis } from '../../platform/redis';
import { createRedisEventBus } from '../../platform/redis-event-bus';
import { oneTenant } from '../../platform/tenancy';
import { pageUserIds, resolveUserScope } from './queries';
import { createUsersService } from './service';

// The users list's kept counts and anchored deep pages (docs/performance.md, "Lists at 500
// requests a second"): exact through every change made through the API, on one instance and
// across two sharing Redis, and a deep page is the page OFFSET would give.

const USERS = 2 * ANCHOR_SPACING + 345;

let t: TestApp;
let company: TestCompany;
let head: { id: number; token: string };
/** A role without DEPARTMENT_ACCESS_LEVEL, so that users need no department. */
let viewer: number;

beforeAll(async () => {
  t = await startTestApp();
  company = await createCompany(t.database.db, { name: 'Scale Freight' });
  head = await signInCompanyHead(t, company);
  viewer = (await createRole(t.database.db, company, ['VIEW_USER'], 'Viewer')).id;
  // Straight through SQL, before any list is read: names that repeat, so ties are broken by id.
  await t.database.db.execute(sql`
    insert into users (tenant_id, company_id, first_name, last_name, email_address, archived, created_at)
    select ${company.tenantId}::uuid, ${company.id},
      (array['Ana','Bo','Cy','Di','Ed'])[1 + i % 5], (array['Moss','Lee','Kay'])[1 + i % 3],
      'scale' || i || '@scale.test', i % 97 = 0, ${Date.now()}
    from generate_series(1, ${USERS}) as i`);
});
afterAll(async () => {
  await t.close();
});

const list = async (query: string) => {
  const result = await t.call<Page<User>>(`/api/user/get-user-list?size=10&${query}`, { token: head.token });
  expect(result.status).toBe(200);
  return result.body;
};

const newUser = (firstName: string) => {
  const email = `${firstName.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2)}@scale.test`;
  return {
    firstName,
    lastName: 'Newcomer',
    emailAddress: email,
    credential: { username: email, newPassword: 'a long password', confirmPassword: 'a long password' },
    groups: [viewer],
  };
};

describe('the users list with thousands of users', () => {
  it('keeps its total exact through registration, edits and archiving, between them from its cache', async () => {
    const total = (await list('page=1')).total;
    const zeds = (await list('page=1&search=zed')).total;
    expect(zeds).toBe(0);

    // A row written behind the services' backs (no domain event) is not seen: the total is kept.
    await createUser(t.database.db, { company });
    expect((await list('page=1')).total).toBe(total);

    const registered = await t.call<User>('/api/user/register', { token: head.token, json: newUser('Zed') });
    expect(registered.status).toBe(200);
    expect((await list('page=1')).total).toBe(total + 2);
    expect((await list('page=1&search=zed')).total).toBe(1);

    const other = await t.call<User>('/api/user/register', { token: head.token, json: newUser('Quinn') });
    const renamed = await t.call<User>(`/api/user/updateUser/${other.body.id}`, {
      method: 'PUT',
      token: head.token,
      json: { firstName: 'Zedekiah', lastName: 'Newcomer', groups: [viewer] },
    });
    expect(renamed.status).toBe(200);
    expect((await list('page=1&search=zed')).total).toBe(2);

    const archived = await t.call(`/api/user/archive/${registered.body.id}`, { method: 'DELETE', token: head.token });
    expect(archived.status).toBe(200);
    expect((await list('page=1')).total).toBe(total + 2);
    expect((await list('page=1&search=zed')).total).toBe(1);
  });

  it('answers every deep page with the rows OFFSET gives, both ways, by name and e-mail, before and after a change', async () => {
    const db = t.database.db;
    const scope = await resolveUserScope(db, oneTenant(company.tenantId), undefined);
    const total = (await list('page=1')).total;
    const lastPage = Math.ceil(total / 10);
    const pages = [99, 100, 101, 150, 200, 201, lastPage];
    const check = async () => {
      for (const field of ['fullName', 'email'] satisfies UserSortField[]) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const page of pages) {
            const answered = (await list(`page=${page}&sort=${field},${direction}`)).items.map((user) => user.id);
            const walked = await pageUserIds(db, scope, { field, direction }, 10, (page - 1) * 10);
            expect(answered, `${field} ${direction} page ${page}`).toEqual(walked);
            expect(answered.length).toBeGreaterThan(0);
          }
        }
      }
    };
    await check();
    // Archiving a user near the start moves every later row up by one: the anchors are read again.
    const early = (await list('page=2&sort=fullName,asc')).items[0]!;
    expect((await t.call(`/api/user/archive/${early.id}`, { method: 'DELETE', token: head.token })).status).toBe(200);
    await check();
  });
  it('keeps its pages too, and a change to their order (a user or a department renamed) is seen at once', async () => {
    // Before the department order is first read: two users moved into two departments behind the
    // services' backs, which no kept page holds yet.
    const db = t.database.db;
    const alpha = (await createDepartment(db, company, { name: 'Aardvark Desk' })).id;
    const beta = (await createDepartment(db, company, { name: 'Beaver Desk' })).id;
    const [first, second] = (await list('page=3&sort=fullName,asc')).items;
    await db.execute(sql`update users set department_id = ${alpha} where id = ${first!.id}`);
    await db.execute(sql`update users set department_id = ${beta} where id = ${second!.id}`);
    const byDepartment = async () => (await list('page=1&sort=department,asc')).items.map((user) => user.id);
    expect((await byDepartment()).slice(0, 2)).toEqual([first!.id, second!.id]);

    // Renamed through the API: the department's event drops the kept page, whose order it changed.
    const renamed = await t.call(`/api/department/${alpha}`, {
      method: 'PUT',
      token: head.token,
      json: { name: 'Zebra Desk', headId: head.id, parentId: null },
    });
    expect(renamed.status).toBe(200);
    expect((await byDepartment()).slice(0, 2)).toEqual([second!.id, first!.id]);

    // A user renamed to the end of the name order leaves page 1 at once.
    const byName = async () => (await list('page=1&sort=fullName,asc')).items.map((user) => user.id);
    const leader = (await byName())[0]!;
    const moved = await t.call(`/api/user/updateUser/${leader}`, {
      method: 'PUT',
      token: head.token,
      json: { firstName: 'Zz', lastName: 'Last', groups: [viewer] },
    });
    expect(moved.status).toBe(200);
    expect(await byName()).not.toContain(leader);
  });
});

describe('the users list on two instances sharing Redis', () => {
  it("evicts one instance's kept total when the other changes the users", async () => {
    const prefix = testPrefix();
    const instances = ['a', 'b'].map((id) => {
      const log = quietLog();
      const redis = openRedis({ url: REDIS_URL, name: `test-${id}`, log });
      const events = createRedisEventBus({ redis, prefix, instanceId: id, log });
      return {
        events,
        redis,
        users: createUsersService({ db: t.database.db, events, outbox: t.app.services.webhooks.outbox }),
      };
    });
    try {
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      await until(() => a.events.isLive() && b.events.isLive(), 5_000, 'both subscribed');
      const caller: RequestAuth = {
        userId: head.id,
        sessionId: 0,
        tokenHash: '',
        expiresAt: Number.MAX_SAFE_INTEGER,
        companyId: company.id,
        ownTenantId: company.tenantId,
        authorities: new Set(),
        isAdmin: true,
        token: null,
        tenantId: company.tenantId,
        tenantCompanyId: company.id,
      };
      const total = async () => ((await b.users.list(caller, { page: 1, size: 10 })) as Page<User>).total;
      const before = await total();
      // Kept on B: rows written without an event are not counted.
      const unseen = [await createUser(t.database.db, { company }), await createUser(t.database.db, { company })];
      expect(await total()).toBe(before);

      const arrived = new Promise<DomainEvent>((resolve) => {
        const stop = b.events.subscribe((event) => {
          stop();
          resolve(event);
        });
      });
      await a.users.archive(caller, unseen[0]!.id);
      expect((await arrived).kind).toBe('archived');
      // B evicted on the event: the two rows written behind its back count, the archived one not.
      expect(await total()).toBe(before + 1);
    } finally {
      for (const instance of instances) {
        await instance.events.close();
        await instance.redis.close();
      }
      await deleteKeys(prefix);
    }
  });
});
