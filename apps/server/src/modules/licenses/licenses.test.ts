import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Account, GeneratedAccount } from '@opsdeck/contract/accounts';
import type { License } from '@opsdeck/contract/licenses';
import { checkLicenseFile, writeLicenseFile } from '@opsdeck/licensing/license-file';
import { registrationFileText } from '@opsdeck/licensing/registration';
import { samplePayload } from '@opsdeck/licensing/sample-payload';
import { SIGNING_KEY_FILE } from '@opsdeck/licensing/signing-key';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, type TestCompany } from '../../../test/factories';
import { signInCompanyHead, tokenWithEveryAuthority } from '../../../test/sign-in';
import { accounts, licenses } from '../../db/schema';

const payload = samplePayload();

describe('GET /api/license/public-key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the Ed25519 verifying key as a PEM without sign-in, and only with an app key', async () => {
    const answer = await fetch(`${t.baseUrl}/api/license/public-key`, { headers: { 'x-app-key': 'opsdeck-agent' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/x-pem-file/);
    const pem = await answer.text();
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(createPublicKey(pem).asymmetricKeyType).toBe('ed25519');
    expect(await t.call('/api/license/public-key', { appKey: null })).toMatchObject({
      status: 401,
      body: { key: 'ERROR_APP_KEY_INVALID' },
    });
  });

  it('keeps the signing key in DATA_DIR, readable by its owner only', () => {
    expect(statSync(path.join(t.dataDir, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600);
  });
});

describe('LICENSE_SIGNING_KEY', () => {
  const signer = generateKeyPairSync('ed25519');
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      LICENSE_SIGNING_KEY: signer.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is the key the server verifies with, so several instances sign alike; a file it signed checks out', async () => {
    const pem = await (
      await fetch(`${t.baseUrl}/api/license/public-key`, { headers: { 'x-app-key': 'opsdeck-console' } })
    ).text();
    expect(pem).toBe(signer.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect(checkLicenseFile(writeLicenseFile(payload, signer.privateKey), pem)).toMatchObject({ valid: true });
  });
});

const DAY = 24 * 60 * 60 * 1000;

describe('licences', () => {
  let t: TestApp;
  let admin: string;
  let company: TestCompany;
  let other: TestCompany;
  let department: { id: number };
  let head: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.login(ADMIN.email, ADMIN.password);
    company = await createCompany(t.database.db);
    other = await createCompany(t.database.db);
    department = await createDepartment(t.database.db, company);
    head = (await signInCompanyHead(t, company)).token;
  });
  afterAll(async () => {
    await t.close();
  });

  const add = (json: unknown, token = admin) => t.call<License>('/api/license/company/add', { token, json });
  const added = async (owner: TestCompany = company, label = 'Main') => {
    const result = await add({ companyId: owner.id, licenseType: 'pro', label });
    expect(result.status).toBe(201);
    return result.body;
  };
  const renew = (json: unknown, token = admin) => t.call<License>('/api/license/company/update', { token, json });
  const generate = (license: License, token = admin) =>
    t.call<GeneratedAccount>('/api/account/generate', {
      token,
      json: { company: company.id, license: license.id, department: department.id },
    });
  const one = (license: License, token = admin, companyId = company.id) =>
    t.call<License>(`/api/license/company/license?company=${companyId}&license=${license.id}`, { token });

  it('issues a licence now, valid for a year, with 10 allowed keys', async () => {
    const before = Date.now();
    const created = await add({ companyId: company.id, licenseType: 'enterprise', label: '  Back office ' });
    expect(created).toMatchObject({
      status: 201,
      body: {
        company: { id: company.id, name: company.name, tenantId: company.tenantId },
        type: { key: 'enterprise' },
        label: 'Back office',
        maxAccounts: 10,
        unusedAccounts: 10,
        invalidated: false,
        expired: false,
      },
    });
    const { issueDate, expirationDate } = created.body;
    expect(issueDate).toBeGreaterThanOrEqual(before);
    expect(expirationDate - issueDate).toBe(365 * DAY);
    expect((await one(created.body)).body).toEqual(created.body);
  });

  it("answers a company's licences newest first", async () => {
    const fresh = await createCompany(t.database.db);
    const ids = [(await added(fresh)).id, (await added(fresh)).id, (await added(fresh)).id];
    // Same issue time: the newer id first.
    await t.database.db.update(licenses).set({ issueDate: 1_000 }).where(eq(licenses.companyId, fresh.id));
    const list = await t.call<License[]>(`/api/license/company?id=${fresh.id}`, { token: admin });
    expect(list.body.map((license) => license.id)).toEqual([...ids].reverse());
    await t.database.db.update(licenses).set({ issueDate: 5_000 }).where(eq(licenses.id, ids[0]!));
    const again = await t.call<License[]>(`/api/license/company?id=${fresh.id}`, { token: admin });
    expect(again.body.map((license) => license.id)).toEqual([ids[0], ids[2], ids[1]]);
    expect(await t.call('/api/license/company?id=2000000000', { token: admin })).toMatchObject({
      status: 404,
      body: { key: 'ERROR_COMPANY_NOT_EXIST' },
    });
  });

  it('checks the create fields', async () => {
    const cases: [unknown, number, string][] = [
      [{ companyId: company.id }, 400, 'ERROR_LICENSE_TYPE_REQUIRED'],
      [{ companyId: company.id, licenseType: 'gold' }, 400, 'ERROR_LICENSE_TYPE_INVALID'],
      [{ companyId: company.id, licenseType: 'pro', label: 'x'.repeat(256) }, 400, 'ERROR_LICENSE_LABEL_TOO_LONG'],
      [{ licenseType: 'pro' }, 400, 'ERROR_COMPANY_REQUIRED'],
      [{ companyId: 2_000_000_000, licenseType: 'pro' }, 404, 'ERROR_COMPANY_NOT_EXIST'],
    ];
    for (const [json, status, key] of cases) {
      expect(await add(json), JSON.stringify(json)).toMatchObject({ status, body: { key } });
    }
  });

  it('finds one licence of a company, and says when it is of another', async () => {
    const mine = await added();
    const theirs = await added(other);
    expect(await one({ ...mine, id: 2_000_000_000 })).toMatchObject({
      status: 404,
      body: { key: 'ERROR_LICENSE_NOT_EXIST' },
    });
    expect(await one(theirs)).toMatchObject({ status: 409, body: { key: 'ERROR_LICENSE_OTHER_COMPANY' } });
    expect((await one(mine, head)).status).toBe(200);
    expect(await one(theirs, head)).toMatchObject({ status: 404, body: { key: 'ERROR_LICENSE_NOT_EXIST' } });
    expect(await one(theirs, head, other.id)).toMatchObject({ status: 404, body: { key: 'ERROR_COMPANY_NOT_EXIST' } });
  });

  it('renews: a future date, allowed keys not below the keys made, and a valid licence again', async () => {
    const license = await added();
    const base = { companyId: company.id, licenseId: license.id, maxAccounts: 5, label: 'Renewed' };
    const cases: [unknown, string, string][] = [
      [{ ...base, expirationDate: Date.now() - 1000 }, 'ERROR_LICENSE_EXPIRATION_DATE_INVALID', 'expirationDate'],
      [{ ...base, expirationDate: 'soon' }, 'ERROR_LICENSE_EXPIRATION_DATE_INVALID', 'expirationDate'],
      [{ ...base, expirationDate: undefined }, 'ERROR_LICENSE_EXPIRATION_DATE_REQUIRED', 'expirationDate'],
      [
        { ...base, expirationDate: Date.now() + DAY, maxAccounts: 0 },
        'ERROR_LICENSE_ALLOWED_KEYS_TOO_LOW',
        'maxAccounts',
      ],
      [
        { ...base, expirationDate: Date.now() + DAY, maxAccounts: 101 },
        'ERROR_LICENSE_ALLOWED_KEYS_TOO_HIGH',
        'maxAccounts',
      ],
      [
        { ...base, expirationDate: Date.now() + DAY, maxAccounts: '' },
        'ERROR_LICENSE_ALLOWED_KEYS_REQUIRED',
        'maxAccounts',
      ],
    ];
    for (const [json, key, field] of cases) {
      expect(await renew(json), JSON.stringify(json)).toMatchObject({
        status: 400,
        body: { key, fields: { [field]: key } },
      });
    }

    for (let i = 0; i < 3; i += 1) expect((await generate(license)).status).toBe(201);
    const expirationDate = Date.now() + 30 * DAY;
    expect(await renew({ ...base, expirationDate, maxAccounts: 2 })).toMatchObject({
      status: 409,
      body: { key: 'ERROR_COMPANY_MORE_LICENSES', fields: { maxAccounts: 'ERROR_COMPANY_MORE_LICENSES' } },
    });
    expect(await renew({ ...base, expirationDate, maxAccounts: 3 })).toMatchObject({
      status: 200,
      body: { expirationDate, maxAccounts: 3, unusedAccounts: 0, label: 'Renewed' },
    });

    // Invalidated: no new key; renewed: valid again.
    expect((await renew({ ...base, expirationDate, maxAccounts: 4 })).body).toMatchObject({ unusedAccounts: 1 });
    const invalidated = await t.call<License>('/api/license/company/invalidate', {
      token: admin,
      json: { companyId: company.id, licenseId: license.id },
    });
    expect(invalidated).toMatchObject({ status: 200, body: { invalidated: true } });
    expect(await generate(license)).toMatchObject({ status: 409, body: { key: 'ERROR_LICENSE_EXPIRED_KEY' } });
    expect((await renew({ ...base, expirationDate, maxAccounts: 4 })).body).toMatchObject({ invalidated: false });
    expect((await generate(license)).status).toBe(201);
    expect((await one(license)).body).toMatchObject({ maxAccounts: 4, unusedAccounts: 0 });
  });

  it('deletes a licence with all its keys', async () => {
    const license = await added();
    await generate(license);
    await generate(license);
    const path = `/api/license/company/${company.id}/license/${license.id}`;
    expect(await t.call(path, { method: 'DELETE', token: head })).toMatchObject({ status: 403 });
    expect(await t.call(path, { method: 'DELETE', token: admin })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await one(license)).toMatchObject({ status: 404, body: { key: 'ERROR_LICENSE_NOT_EXIST' } });
    const keys = await t.database.db.select().from(accounts).where(eq(accounts.licenseId, license.id));
    expect(keys).toEqual([]);
    expect(await t.call(path, { method: 'DELETE', token: admin })).toMatchObject({
      status: 404,
      body: { key: 'ERROR_LICENSE_NOT_EXIST' },
    });
    const theirs = await added(other);
    expect(
      await t.call(`/api/license/company/${company.id}/license/${theirs.id}`, { method: 'DELETE', token: admin }),
    ).toMatchObject({ status: 409, body: { key: 'ERROR_LICENSE_OTHER_COMPANY' } });
  });

  it('archives a solo account by invalidating its licence, and only a solo licence', async () => {
    const form = new FormData();
    form.set(
      'regFile',
      new Blob([
        registrationFileText({
          fullName: 'Solo Person',
          emailAddress: 'solo@example.test',
          macAddresses: ['AA:BB:CC:DD:EE:01'],
        }),
      ]),
      'solo.dat',
    );
    const created = await fetch(`${t.baseUrl}/api/account/solo`, {
      method: 'POST',
      headers: { 'x-app-key': 'opsdeck-console', 'x-auth-token': admin },
      body: form,
    });
    expect(created.status).toBe(201);
    const solo = (await created.json()) as GeneratedAccount;
    const invalidate = (licenseId: unknown, token = admin) =>
      t.call<License>('/api/license/solo/invalidate', { token, json: { licenseId } });

    expect(await invalidate(2_000_000_000)).toMatchObject({ status: 404, body: { key: 'ERROR_LICENSE_NOT_EXIST' } });
    expect(await invalidate(undefined)).toMatchObject({ status: 400, body: { key: 'ERROR_LICENSE_ID_REQUIRED' } });
    expect(await invalidate((await added()).id)).toMatchObject({
      status: 409,
      body: { key: 'ERROR_LICENSE_NOT_SOLO' },
    });
    expect(await invalidate(solo.license.id, head)).toMatchObject({ status: 403 });
    const listed = async () => (await t.call<Account[]>('/api/account/solo', { token: admin })).body.map((a) => a.id);
    expect(await listed()).toContain(solo.id);
    expect(await invalidate(solo.license.id)).toMatchObject({
      status: 200,
      body: { id: solo.license.id, company: null, invalidated: true },
    });
    expect(await listed()).not.toContain(solo.id);
    const page = await t.call<{ items: Account[] }>(`/api/account?size=100&search=solo@example.test`, { token: admin });
    expect(page.body.items).toEqual([]);
  });

  it('lets a company user read its own licences and issue, renew, invalidate or delete none', async () => {
    const license = await added();
    expect(
      (await t.call<License[]>(`/api/license/company?id=${company.id}`, { token: head })).body.map((l) => l.id),
    ).toContain(license.id);
    expect(await t.call(`/api/license/company?id=${other.id}`, { token: head })).toMatchObject({
      status: 404,
      body: { key: 'ERROR_COMPANY_NOT_EXIST' },
    });
    const everything = await tokenWithEveryAuthority(t, company);
    const writes = [
      ['POST', '/api/license/company/add', { companyId: company.id, licenseType: 'pro' }],
      [
        'POST',
        '/api/license/company/update',
        { companyId: company.id, licenseId: license.id, expirationDate: Date.now() + DAY, maxAccounts: 50 },
      ],
      ['POST', '/api/license/company/invalidate', { companyId: company.id, licenseId: license.id }],
      ['DELETE', `/api/license/company/${company.id}/license/${license.id}`, undefined],
      ['POST', '/api/license/solo/invalidate', { licenseId: license.id }],
    ] as const;
    for (const token of [head, everything]) {
      for (const [method, path, json] of writes) {
        expect(await t.call(path, { method, token, json }), `${method} ${path}`).toMatchObject({
          status: 403,
          body: { key: 'ERROR_FORBIDDEN' },
        });
      }
    }
    expect((await one(license)).body).toMatchObject({ maxAccounts: 10, invalidated: false });
  });

  it('refuses a caller without the endpoint authority, and hides a company from another', async () => {
    const license = await added();
    const readers = ['VIEW_LICENSE', 'VIEW_COMPANY_LICENSE', 'ACCESS_COMPANY_LICENSE_PAGE'] as const;
    const reads = [
      { method: 'GET', path: `/api/license/company?id=${company.id}`, authorities: readers },
      {
        method: 'GET',
        path: `/api/license/company/license?company=${company.id}&license=${license.id}`,
        authorities: readers,
      },
    ] as const;
    await expectRefusedWithoutAuthority(t, company, [
      ...reads,
      {
        method: 'POST',
        path: '/api/license/company/add',
        json: { companyId: company.id, licenseType: 'pro' },
        authorities: ['CREATE_LICENSE'],
      },
      {
        method: 'POST',
        path: '/api/license/company/update',
        json: { companyId: company.id, licenseId: license.id, expirationDate: Date.now() + DAY, maxAccounts: 5 },
        authorities: ['EDIT_LICENSE'],
      },
      {
        method: 'POST',
        path: '/api/license/company/invalidate',
        json: { companyId: company.id, licenseId: license.id },
        authorities: ['EDIT_LICENSE'],
      },
      {
        method: 'DELETE',
        path: `/api/license/company/${company.id}/license/${license.id}`,
        authorities: ['DELETE_LICENSE'],
      },
      {
        method: 'POST',
        path: '/api/license/solo/invalidate',
        json: { licenseId: license.id },
        authorities: ['DELETE_ACCOUNT', 'EDIT_LICENSE'],
      },
    ]);
    await expectHiddenFromOtherTenant(t, await tokenWithEveryAuthority(t, other), company.tenantId, reads);
    expect((await one(license)).body).toMatchObject({ invalidated: false, maxAccounts: 10 });
  });
});
