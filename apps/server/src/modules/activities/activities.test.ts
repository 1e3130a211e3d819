import type { Activity } from '@opsdeck/contract/activities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, type TestCompany } from '../../../test/factories';
import { tokenWithEveryAuthority } from '../../../test/sign-in';

let t: TestApp;
let admin: string;
let company: TestCompany;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  company = await createCompany(t.database.db);
});

afterAll(async () => {
  await t.close();
});

const create = (json: unknown, token = admin) => t.call<Activity>('/api/activity', { method: 'POST', token, json });

describe('the activity catalogue', () => {
  it('is created with category empty and partial 0 by default, listed, read, changed and archived', async () => {
    const created = await create({ name: '  Open Browser ', key: 'open-browser' });
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'Open Browser', key: 'open-browser', category: '', partial: 0, isPartial: false },
    });
    const id = created.body.id;
    expect(created.body.createDate).toBeGreaterThan(Date.now() - 60_000);

    const list = await t.call<Activity[]>('/api/activity', { token: admin });
    expect(list.body.map((activity) => activity.key)).toContain('open-browser');
    expect((await t.call(`/api/activity/${id}`, { token: admin })).body).toMatchObject({ id, name: 'Open Browser' });

    const updated = await t.call(`/api/activity/${id}`, {
      method: 'PUT',
      token: admin,
      json: { name: 'Open Browser', key: 'open-browser', category: 'Web', partial: 1 },
    });
    expect(updated).toMatchObject({ status: 200, body: { category: 'Web', partial: 1, isPartial: true } });

    expect(await t.call(`/api/activity/${id}`, { method: 'DELETE', token: admin })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    // Archived: gone from the list, and every call on it answers as if it never was.
    expect((await t.call<Activity[]>('/api/activity', { token: admin })).body.map((a) => a.id)).not.toContain(id);
    for (const [method, json] of [['GET'], ['PUT', { name: 'X', key: 'x' }], ['DELETE']] as const) {
      expect(await t.call(`/api/activity/${id}`, { method, token: admin, json })).toMatchObject({
        status: 404,
        body: { key: 'ERROR_ACTIVITY_NOT_EXIST' },
      });
    }
  });

  it('answers each rule of spec section 5 with its key', async () => {
    const long = 'x'.repeat(256);
    const cases: [unknown, string][] = [
      [{ key: 'k' }, 'ERROR_ACTIVITY_NAME_REQUIRED'],
      [{ name: '   ', key: 'k' }, 'ERROR_ACTIVITY_NAME_REQUIRED'],
      [{ name: 'N' }, 'ERROR_ACTIVITY_KEY_REQUIRED'],
      [{ name: long, key: 'k' }, 'ERROR_ACTIVITY_NAME_EXCEEDS_CHARACTER_LIMIT'],
      [{ name: 'N', key: long }, 'ERROR_ACTIVITY_KEY_EXCEEDS_CHARACTER_LIMIT'],
      [{ name: 'N', key: 'k', category: long }, 'ERROR_ACTIVITY_CATEGORY_EXCEEDS_CHARACTER_LIMIT'],
      [{ name: 'N', key: 'k', partial: 2 }, 'ERROR_GENERAL_INVALID_INPUT'],
    ];
    for (const [json, key] of cases) {
      expect(await create(json), JSON.stringify(json)).toMatchObject({ status: 400, body: { key } });
    }
    expect(await t.call('/api/activity/0', { token: admin })).toMatchObject({
      status: 400,
      body: { key: 'ERROR_ACTIVITY_NOT_EXIST' },
    });
  });

  it('keeps keys unique among live activities, whatever their case; an archived one frees its key', async () => {
    const first = await create({ name: 'Read Excel Range', key: 'read-excel-range' });
    expect(await create({ name: 'Another', key: 'READ-EXCEL-RANGE' })).toMatchObject({
      status: 409,
      body: { key: 'ERROR_ACTIVITY_KEY_DUPLICATE' },
    });
    const other = await create({ name: 'Send Outlook Mail', key: 'send-outlook-mail' });
    expect(
      await t.call(`/api/activity/${other.body.id}`, {
        method: 'PUT',
        token: admin,
        json: { name: 'Send Outlook Mail', key: 'read-excel-range' },
      }),
    ).toMatchObject({ status: 409, body: { key: 'ERROR_ACTIVITY_KEY_DUPLICATE' } });
    await t.call(`/api/activity/${first.body.id}`, { method: 'DELETE', token: admin });
    expect(await create({ name: 'Read Excel Range v2', key: 'read-excel-range' })).toMatchObject({ status: 201 });
  });
});

describe('who may use the catalogue', () => {
  it('refuses a caller without the endpoint authority', async () => {
    const { body } = await create({ name: 'SAP Logon', key: 'sap-logon' });
    await expectRefusedWithoutAuthority(t, company, [
      {
        method: 'GET',
        path: '/api/activity',
        authorities: ['VIEW_ACTIVITY', 'ACCESS_ACTIVITY_TAB', 'MANAGE_LICENSING'],
      },
      {
        method: 'GET',
        path: `/api/activity/${body.id}`,
        authorities: ['VIEW_ACTIVITY', 'ACCESS_ACTIVITY_TAB', 'MANAGE_LICENSING'],
      },
      { method: 'POST', path: '/api/activity', json: { name: 'N', key: 'n' }, authorities: ['CREATE_ACTIVITY'] },
      {
        method: 'PUT',
        path: `/api/activity/${body.id}`,
        json: { name: 'N', key: 'n' },
        authorities: ['EDIT_ACTIVITY'],
      },
      { method: 'DELETE', path: `/api/activity/${body.id}`, authorities: ['DELETE_ACTIVITY'] },
    ]);
  });

  it('lets a company user read it but never change it, even one given every authority', async () => {
    const { body } = await create({ name: 'OCR Document', key: 'ocr-document' });
    const token = await tokenWithEveryAuthority(t, company);
    expect((await t.call('/api/activity', { token })).status).toBe(200);
    const writes = [
      ['POST', '/api/activity', { name: 'Mine', key: 'mine' }],
      ['PUT', `/api/activity/${body.id}`, { name: 'Renamed', key: 'ocr-document' }],
      ['DELETE', `/api/activity/${body.id}`, undefined],
    ] as const;
    for (const [method, path, json] of writes) {
      expect(await t.call(path, { method, token, json }), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { key: 'ERROR_FORBIDDEN' },
      });
    }
    expect((await t.call(`/api/activity/${body.id}`, { token: admin })).body).toMatchObject({ name: 'OCR Document' });
  });
});

describe('premium activities (the pro licence type)', () => {
  type Listed = Activity & { premium: boolean };
  const premiumOf = async (id: number) =>
    (await t.call<Listed[]>('/api/license-type/premium', { token: admin })).body.find((a) => a.id === id)?.premium;
  const toggle = (path: 'add-activity' | 'remove-activity', json: unknown, token = admin) =>
    t.call(`/api/license-type/${path}`, { method: 'POST', token, json });

  it('moves activities between the regular and the premium list', async () => {
    const { body: first } = await create({ name: 'Premium One', key: 'premium-one' });
    const { body: second } = await create({ name: 'Premium Two', key: 'premium-two' });
    expect(await premiumOf(first.id)).toBe(false);

    expect(
      await toggle('add-activity', { licenseType: 'pro', activities: [{ id: first.id }, { id: second.id }] }),
    ).toMatchObject({ status: 200, body: { ok: true } });
    expect(await premiumOf(first.id)).toBe(true);
    const pro = await t.call<Activity[]>('/api/license-type/activity?key=pro', { token: admin });
    expect(pro.body.map((a) => a.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    // Adding again changes nothing.
    expect((await toggle('add-activity', { licenseType: 'pro', activities: [{ id: first.id }] })).status).toBe(200);

    expect((await toggle('remove-activity', { licenseType: 'pro', activities: [{ id: first.id }] })).status).toBe(200);
    expect(await premiumOf(first.id)).toBe(false);
    expect(await premiumOf(second.id)).toBe(true);
    const enterprise = await t.call<Activity[]>('/api/license-type/activity?key=enterprise', { token: admin });
    expect(enterprise.body.map((a) => a.id)).not.toContain(second.id);

    // An archived activity leaves both lists.
    await t.call(`/api/activity/${second.id}`, { method: 'DELETE', token: admin });
    expect(await premiumOf(second.id)).toBeUndefined();
    expect(
      (await t.call<Activity[]>('/api/license-type/activity?key=pro', { token: admin })).body.map((a) => a.id),
    ).not.toContain(second.id);
  });

  it('refuses an unknown licence type or activity, and then changes nothing', async () => {
    const { body } = await create({ name: 'Premium Three', key: 'premium-three' });
    expect(await toggle('add-activity', { licenseType: 'gold', activities: [{ id: body.id }] })).toMatchObject({
      status: 400,
      body: { key: 'ERROR_LICENSE_TYPE_INVALID' },
    });
    expect(await t.call('/api/license-type/activity?key=gold', { token: admin })).toMatchObject({
      status: 400,
      body: { key: 'ERROR_LICENSE_TYPE_INVALID' },
    });
    expect(await toggle('add-activity', { licenseType: 'pro', activities: [] })).toMatchObject({
      status: 400,
      body: { key: 'ERROR_ACTIVITY_ID_REQUIRED' },
    });
    expect(
      await toggle('add-activity', { licenseType: 'pro', activities: [{ id: body.id }, { id: 2_000_000_000 }] }),
    ).toMatchObject({ status: 404, body: { key: 'ERROR_ACTIVITY_NOT_EXIST' } });
    expect(await premiumOf(body.id)).toBe(false);
  });

  it('lets a company user read the lists, never move an activity', async () => {
    const { body } = await create({ name: 'Premium Four', key: 'premium-four' });
    const token = await tokenWithEveryAuthority(t, company);
    expect((await t.call('/api/license-type/premium', { token })).status).toBe(200);
    expect(await toggle('add-activity', { licenseType: 'pro', activities: [{ id: body.id }] }, token)).toMatchObject({
      status: 403,
      body: { key: 'ERROR_FORBIDDEN' },
    });
    await expectRefusedWithoutAuthority(t, company, [
      {
        method: 'GET',
        path: '/api/license-type/premium',
        authorities: ['VIEW_ACTIVITY', 'ACCESS_ACTIVITY_TAB', 'MANAGE_LICENSING'],
      },
      {
        method: 'GET',
        path: '/api/license-type/activity?key=pro',
        authorities: ['VIEW_ACTIVITY', 'ACCESS_ACTIVITY_TAB', 'MANAGE_LICENSING'],
      },
      {
        method: 'POST',
        path: '/api/license-type/add-activity',
        json: { licenseType: 'pro', activities: [{ id: body.id }] },
        authorities: ['EDIT_ACTIVITY'],
      },
      {
        method: 'POST',
        path: '/api/license-type/remove-activity',
        json: { licenseType: 'pro', activities: [{ id: body.id }] },
        authorities: ['EDIT_ACTIVITY'],
      },
    ]);
  });
});
