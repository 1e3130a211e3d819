import { AUTHORITY_KEYS } from '@opsdeck/contract/authorities';
import { type VisibleWidget, WIDGET_CATALOGUE, WIDGET_KEYS } from '@opsdeck/contract/monitor';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createUser, type TestCompany, type TestUser } from '../../../test/factories';
import { userWidgetLayouts, userWidgets } from '../../db/schema';

type Answer = VisibleWidget[] & { key?: string };

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** Users of company a: one who only signs in (no authority), one with EDIT_USER, one without. */
let plain: TestUser & { token: string };
let editor: TestUser & { token: string };
let viewer: TestUser & { token: string };
let target: TestUser;
let foreign: TestUser & { token: string };
let adminToken: string;
const db = () => t.database.db;

async function signedIn(company: TestCompany, authorities: Parameters<typeof createUser>[1]['authorities']) {
  const user = await createUser(db(), { company, authorities });
  return { ...user, token: await t.login(user.email, user.password) };
}

const read = (userId: number, token: string, tenantId?: string) =>
  t.call<Answer>(`/api/user/getVisibleWidgets/${userId}`, { token, ...(tenantId ? { tenantId } : {}) });
const save = (userId: number, json: unknown, token: string, tenantId?: string) =>
  t.call<Answer>(`/api/user/updateVisibleWidgets/${userId}`, { json, token, ...(tenantId ? { tenantId } : {}) });

/** The visible widgets of an answer, as `key@column` in order. */
const visible = (answer: readonly VisibleWidget[]) =>
  answer.filter((widget) => widget.widgetOrder > 0).map((widget) => `${widget.widgetKey}@${widget.widgetColumnNumber}`);

const DEFAULT_SIX = [
  'active_users@1',
  'hourly_activity@1',
  'top_applications@2',
  'employee_login_hours@2',
  'top_statuses@1',
  'alerts@2',
];

/** The body that keeps `keys` (`key@column`) in that order. */
const placements = (keys: readonly string[]) =>
  keys.map((entry, index) => {
    const [widgetKey, column] = entry.split('@');
    return { widgetKey, widgetOrder: index + 1, widgetColumnNumber: Number(column) };
  });

beforeAll(async () => {
  t = await startTestApp();
  a = await createCompany(db());
  b = await createCompany(db());
  plain = await signedIn(a, []);
  editor = await signedIn(a, ['EDIT_USER']);
  viewer = await signedIn(
    a,
    AUTHORITY_KEYS.filter((key) => key !== 'EDIT_USER' && key !== 'ADMIN_ACCESS_LEVEL'),
  );
  target = await createUser(db(), { company: a, role: 'EMPLOYEE' });
  foreign = await signedIn(b, ['EDIT_USER', 'ACCESS_MONITOR_REPORT_TAB']);
  adminToken = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/widget', () => {
  it('answers the sixteen widgets in the catalogue order to any signed-in user', async () => {
    const result = await t.call<unknown[]>('/api/widget', { token: plain.token });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(WIDGET_CATALOGUE.map((widget) => ({ ...widget })));
    expect(result.body).toHaveLength(16);
  });

  it('answers 401 without a session', async () => {
    expect((await t.call('/api/widget')).status).toBe(401);
  });
});

describe('GET /api/user/getVisibleWidgets/{id}', () => {
  it('gives a user who never chose the default six, then the ten others hidden', async () => {
    const user = await signedIn(a, []);
    const result = await read(user.id, user.token);
    expect(result.status).toBe(200);
    expect(visible(result.body)).toEqual(DEFAULT_SIX);
    expect(result.body.map((widget) => widget.widgetOrder)).toEqual([1, 2, 3, 4, 5, 6, ...Array(10).fill(0)]);
    expect(new Set(result.body.map((widget) => widget.widgetKey))).toEqual(new Set(WIDGET_KEYS));
    expect(result.body[0]).toEqual({
      widgetKey: 'active_users',
      widgetTitle: 'Active Users',
      widgetOrder: 1,
      widgetColumnNumber: 1,
    });
    // Reading writes nothing: the user has still not chosen.
    expect(await db().select().from(userWidgetLayouts).where(eq(userWidgetLayouts.userId, user.id))).toEqual([]);
  });
});

describe('POST /api/user/updateVisibleWidgets/{id}', () => {
  it('adds widgets at the end of column 1', async () => {
    const user = await signedIn(a, []);
    const result = await save(
      user.id,
      { toAdd: ['top_tasks', 'alerts'], currentVisibleWidgets: placements(DEFAULT_SIX.slice(0, 5)) },
      user.token,
    );
    expect(result.status).toBe(200);
    expect(visible(result.body)).toEqual([...DEFAULT_SIX.slice(0, 5), 'top_tasks@1', 'alerts@1']);
    expect(visible((await read(user.id, user.token)).body)).toEqual(visible(result.body));
  });

  it('reorders and moves between columns, in the order given, renumbered from 1', async () => {
    const user = await signedIn(a, []);
    const result = await save(
      user.id,
      {
        toAdd: [],
        currentVisibleWidgets: [
          { widgetKey: 'alerts', widgetOrder: 40, widgetColumnNumber: 1 },
          { widgetKey: 'active_users', widgetOrder: 7, widgetColumnNumber: 2 },
          { widgetKey: 'top_statuses', widgetOrder: 12, widgetColumnNumber: 2 },
        ],
      },
      user.token,
    );
    expect(result.status).toBe(200);
    expect(visible(result.body)).toEqual(['active_users@2', 'top_statuses@2', 'alerts@1']);
    expect(result.body.slice(0, 3).map((widget) => widget.widgetOrder)).toEqual([1, 2, 3]);
    const stored = await db().select().from(userWidgets).where(eq(userWidgets.userId, user.id));
    expect(stored.map((row) => row.widgetOrder).sort()).toEqual([1, 2, 3]);
    expect(visible((await read(user.id, user.token)).body)).toEqual(['active_users@2', 'top_statuses@2', 'alerts@1']);
  });

  it('hides a widget left out', async () => {
    const user = await signedIn(a, []);
    const kept = DEFAULT_SIX.filter((key) => !key.startsWith('hourly_activity'));
    const result = await save(user.id, { toAdd: [], currentVisibleWidgets: placements(kept) }, user.token);
    expect(visible(result.body)).toEqual(kept);
    const hourly = result.body.find((widget) => widget.widgetKey === 'hourly_activity');
    expect(hourly).toMatchObject({ widgetOrder: 0 });
  });

  it('keeps a dashboard with every widget hidden empty, not the default', async () => {
    const user = await signedIn(a, []);
    const result = await save(user.id, { toAdd: [], currentVisibleWidgets: [] }, user.token);
    expect(result.status).toBe(200);
    expect(visible(result.body)).toEqual([]);
    expect(result.body).toHaveLength(16);
    expect(visible((await read(user.id, user.token)).body)).toEqual([]);
  });

  it('takes a missing toAdd as none', async () => {
    const user = await signedIn(a, []);
    const result = await save(user.id, { currentVisibleWidgets: placements(['alerts@2']) }, user.token);
    expect(visible(result.body)).toEqual(['alerts@2']);
  });

  it('lets two saves of one user at once both succeed, the last one kept whole', async () => {
    const user = await signedIn(a, []);
    const layouts = [['alerts@1', 'top_tasks@2'], ['hourly_activity@2'], DEFAULT_SIX, ['status_summary@1']];
    const results = await Promise.all(
      layouts.map((keys) => save(user.id, { toAdd: [], currentVisibleWidgets: placements(keys) }, user.token)),
    );
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200]);
    const stored = visible((await read(user.id, user.token)).body);
    expect(layouts).toContainEqual(stored);
  });

  it.each([
    ['an unknown key to add', { toAdd: ['weather'], currentVisibleWidgets: [] }, 'ERROR_WIDGET_NOT_EXIST'],
    [
      'an unknown key listed',
      { toAdd: [], currentVisibleWidgets: [{ widgetKey: 'weather', widgetOrder: 1, widgetColumnNumber: 1 }] },
      'ERROR_WIDGET_NOT_EXIST',
    ],
    [
      'a key listed twice',
      { toAdd: [], currentVisibleWidgets: placements(['alerts@1', 'alerts@2']) },
      'ERROR_WIDGET_LAYOUT_INVALID',
    ],
    [
      'a key both listed and added',
      { toAdd: ['alerts'], currentVisibleWidgets: placements(['alerts@1']) },
      'ERROR_WIDGET_LAYOUT_INVALID',
    ],
    ['a key added twice', { toAdd: ['alerts', 'alerts'], currentVisibleWidgets: [] }, 'ERROR_WIDGET_LAYOUT_INVALID'],
    [
      'two widgets with one order',
      {
        toAdd: [],
        currentVisibleWidgets: [
          { widgetKey: 'alerts', widgetOrder: 1, widgetColumnNumber: 1 },
          { widgetKey: 'top_tasks', widgetOrder: 1, widgetColumnNumber: 2 },
        ],
      },
      'ERROR_WIDGET_LAYOUT_INVALID',
    ],
    [
      'an order of 0',
      { toAdd: [], currentVisibleWidgets: [{ widgetKey: 'alerts', widgetOrder: 0, widgetColumnNumber: 1 }] },
      'ERROR_WIDGET_LAYOUT_INVALID',
    ],
    [
      'an order of 1.5',
      { toAdd: [], currentVisibleWidgets: [{ widgetKey: 'alerts', widgetOrder: 1.5, widgetColumnNumber: 1 }] },
      'ERROR_WIDGET_LAYOUT_INVALID',
    ],
    [
      'a column of 3',
      { toAdd: [], currentVisibleWidgets: [{ widgetKey: 'alerts', widgetOrder: 1, widgetColumnNumber: 3 }] },
      'ERROR_WIDGET_LAYOUT_INVALID',
    ],
    [
      'a column as text',
      { toAdd: [], currentVisibleWidgets: [{ widgetKey: 'alerts', widgetOrder: 1, widgetColumnNumber: '1' }] },
      'ERROR_WIDGET_LAYOUT_INVALID',
    ],
    ['no list', { toAdd: [] }, 'ERROR_WIDGET_LAYOUT_INVALID'],
    ['a list that is not one', { toAdd: [], currentVisibleWidgets: 'alerts' }, 'ERROR_WIDGET_LAYOUT_INVALID'],
    ['a key that is not a string', { toAdd: [42], currentVisibleWidgets: [] }, 'ERROR_WIDGET_NOT_EXIST'],
    [
      'a key of 10,000 characters',
      { toAdd: ['a'.repeat(10_000)], currentVisibleWidgets: [] },
      'ERROR_WIDGET_NOT_EXIST',
    ],
    ['null', null, 'ERROR_GENERAL_INVALID_INPUT'],
    ['an array', [], 'ERROR_GENERAL_INVALID_INPUT'],
  ])('refuses %s with 400 and leaves the layout alone', async (_case, json, key) => {
    const user = await signedIn(a, []);
    await save(user.id, { toAdd: [], currentVisibleWidgets: placements(['top_tasks@2']) }, user.token);
    const result = await save(user.id, json, user.token);
    expect(result.status).toBe(400);
    expect(result.body.key).toBe(key);
    expect(visible((await read(user.id, user.token)).body)).toEqual(['top_tasks@2']);
  });

  it('refuses 17 widgets with 400', async () => {
    const seventeen = [...WIDGET_KEYS, 'alerts'].map((widgetKey, index) => ({
      widgetKey,
      widgetOrder: index + 1,
      widgetColumnNumber: 1,
    }));
    const result = await save(plain.id, { toAdd: [], currentVisibleWidgets: seventeen }, plain.token);
    expect(result.status).toBe(400);
    expect(result.body.key).toBe('ERROR_WIDGET_LAYOUT_INVALID');
  });
});

describe("another user's layout", () => {
  it('is refused without EDIT_USER (403, whether the user exists or not)', async () => {
    expect((await read(target.id, viewer.token)).status).toBe(403);
    expect((await save(target.id, { toAdd: [], currentVisibleWidgets: [] }, viewer.token)).status).toBe(403);
    expect((await read(2_000_000_000, viewer.token)).status).toBe(403);
    expect((await read(target.id, plain.token)).status).toBe(403);
  });

  it('is read and changed with EDIT_USER over a user of the same company', async () => {
    const user = await createUser(db(), { company: a, role: 'EMPLOYEE' });
    expect(visible((await read(user.id, editor.token)).body)).toEqual(DEFAULT_SIX);
    const result = await save(user.id, { toAdd: ['top_tasks'], currentVisibleWidgets: [] }, editor.token);
    expect(result.status).toBe(200);
    const own = await t.login(user.email, user.password);
    expect(visible((await read(user.id, own)).body)).toEqual(['top_tasks@1']);
  });

  it('is 404 ERROR_USER_NOT_EXIST for an unknown or archived user', async () => {
    const archived = await createUser(db(), { company: a, archived: true });
    for (const id of [2_000_000_000, archived.id]) {
      const result = await read(id, editor.token);
      expect(result.status).toBe(404);
      expect(result.body.key).toBe('ERROR_USER_NOT_EXIST');
    }
  });

  it("is 404 for another company's user, even with EDIT_USER, and 403 naming its tenant", async () => {
    for (const result of [
      await read(target.id, foreign.token),
      await save(target.id, { toAdd: [], currentVisibleWidgets: [] }, foreign.token),
    ]) {
      expect(result.status).toBe(404);
      expect(result.body.key).toBe('ERROR_USER_NOT_EXIST');
    }
    expect((await read(target.id, foreign.token, a.tenantId)).status).toBe(403);
    expect((await save(target.id, { toAdd: [], currentVisibleWidgets: [] }, foreign.token, a.tenantId)).status).toBe(
      403,
    );
    // Nothing was written for the target.
    expect(await db().select().from(userWidgetLayouts).where(eq(userWidgetLayouts.userId, target.id))).toEqual([]);
  });

  it("is the provider admin's in every company, and in the one X-Tenant-Id names only", async () => {
    expect((await read(target.id, adminToken)).status).toBe(200);
    expect((await read(target.id, adminToken, a.tenantId)).status).toBe(200);
    expect((await read(target.id, adminToken, b.tenantId)).status).toBe(404);
  });
});

describe('the authority table', () => {
  it('answers each call as the rules say, per caller', async () => {
    const callers = { plain, viewer, editor, foreign };
    const table: Record<string, Record<string, number>> = {};
    for (const [name, user] of Object.entries(callers)) {
      table[name] = {
        catalogue: (await t.call('/api/widget', { token: user.token })).status,
        'read own': (await read(user.id, user.token)).status,
        'save own': (await save(user.id, { toAdd: [], currentVisibleWidgets: placements(['alerts@1']) }, user.token))
          .status,
        "read a's user": (await read(target.id, user.token)).status,
        "save a's user": (await save(target.id, { toAdd: [], currentVisibleWidgets: [] }, user.token)).status,
      };
    }
    const ownOnly = { catalogue: 200, 'read own': 200, 'save own': 200, "read a's user": 403, "save a's user": 403 };
    expect(table).toEqual({
      plain: ownOnly,
      viewer: ownOnly,
      editor: { catalogue: 200, 'read own': 200, 'save own': 200, "read a's user": 200, "save a's user": 200 },
      foreign: { catalogue: 200, 'read own': 200, 'save own': 200, "read a's user": 404, "save a's user": 404 },
    });
  });
});
