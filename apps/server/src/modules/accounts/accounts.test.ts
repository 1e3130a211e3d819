import type { Account, AccountPage, GeneratedAccount, LicenseFileRef } from '@opsdeck/contract/accounts';
import type { Activity } from '@opsdeck/contract/activities';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import type { License } from '@opsdeck/contract/licenses';
import { keyDigest, partialKey } from '@opsdeck/licensing/keys';
import { checkLicenseFile } from '@opsdeck/licensing/license-file';
import { registrationFileText } from '@opsdeck/licensing/registration';
import { unsealKey } from '@opsdeck/licensing/sealing';
import { loadSigningKey } from '@opsdeck/licensing/signing-key';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, type TestCompany } from '../../../test/factories';
import { signInCompanyHead, tokenWithEveryAuthority } from '../../../test/sign-in';
import { accounts, departments, licenses } from '../../db/schema';

const DAY = 24 * 60 * 60 * 1000;

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
  department = await createDepartment(t.database.db, company, { name: 'Dispatch' });
  head = (await signInCompanyHead(t, company)).token;
});

afterAll(async () => {
  await t.close();
});

type Registration = { fullName: string; emailAddress: string; macAddresses: string[]; hostname?: string };
const registration = (overrides: Partial<Registration> = {}): Registration => ({
  fullName: 'Amara Okoye',
  emailAddress: 'amara.okoye@northwind.test',
  macAddresses: ['AA:BB:CC:DD:EE:FF', '00:1A:2B:3C:4D:5E'],
  hostname: 'NW-DISPATCH-07',
  ...overrides,
});
const datFile = (overrides: Partial<Registration> = {}) =>
  new Blob([registrationFileText(registration(overrides))], { type: 'application/octet-stream' });

/** A multipart/form-data call, as the console's upload sends it. */
async function upload<T = Record<string, unknown>>(
  path: string,
  fields: Record<string, string | number>,
  file?: { blob: Blob; name: string },
  token = admin,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, String(value));
  if (file) form.set('regFile', file.blob, file.name);
  const response = await fetch(t.baseUrl + path, {
    method: 'POST',
    headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, [HEADERS.authToken]: token },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function newLicense(owner: TestCompany = company, maxAccounts?: number) {
  const created = await t.call<License>('/api/license/company/add', {
    token: admin,
    json: { companyId: owner.id, licenseType: 'pro', label: 'Seats' },
  });
  expect(created.status).toBe(201);
  if (maxAccounts === undefined) return created.body;
  const renewed = await t.call<License>('/api/license/company/update', {
    token: admin,
    json: { companyId: owner.id, licenseId: created.body.id, expirationDate: Date.now() + 30 * DAY, maxAccounts },
  });
  expect(renewed.status).toBe(200);
  return renewed.body;
}

const generate = (license: License, token = admin, departmentId = department.id) =>
  t.call<GeneratedAccount>('/api/account/generate', {
    token,
    json: { company: company.id, license: license.id, department: departmentId },
  });

const fromFile = (license: License, file?: { blob: Blob; name: string }, token = admin) =>
  upload<GeneratedAccount>(
    '/api/account/from-file',
    { company: company.id, license: license.id, department: department.id },
    file,
    token,
  );

const keysOf = (license: License, token = admin) =>
  t.call<Account[]>(`/api/account/list?company=${company.id}&license=${license.id}`, { token });

const seats = async (license: License) =>
  (await t.call<License>(`/api/license/company/license?company=${company.id}&license=${license.id}`, { token: admin }))
    .body.unusedAccounts;

const publicKey = async () => (await t.call<string>('/api/license/public-key')).body;

describe('generating keys', () => {
  it('answers the full key once, and stores only its digest and partial form', async () => {
    const license = await newLicense();
    const made = await generate(license);
    expect(made).toMatchObject({
      status: 201,
      body: {
        type: { key: 'company', name: 'Company' },
        departmentName: 'Dispatch',
        fullName: null,
        macAddress: null,
        macAddresses: [],
        hasFile: false,
        invalidated: false,
        license: {
          id: license.id,
          type: { key: 'pro' },
          label: 'Seats',
          company: { id: company.id, tenantId: company.tenantId },
        },
      },
    });
    const { key, id } = made.body;
    expect(key).toMatch(/^ODK(-[0-9A-HJKMNP-TV-Z]{4}){8}$/);
    expect(made.body.partialKey).toBe(partialKey(key));
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
    expect(row).toMatchObject({ keyDigest: keyDigest(key), sealedKey: null, tenantId: company.tenantId });
    expect(JSON.stringify(row)).not.toContain(key);
    const listed = (await keysOf(license)).body;
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('key');
    expect(listed[0]).toEqual(Object.fromEntries(Object.entries(made.body).filter(([name]) => name !== 'key')));
  });

  it('needs a live department of the company', async () => {
    const license = await newLicense();
    const archived = await createDepartment(t.database.db, company);
    await t.database.db.update(departments).set({ archived: true }).where(eq(departments.id, archived.id));
    const foreign = await createDepartment(t.database.db, other);
    for (const departmentId of [archived.id, foreign.id, 2_000_000_000]) {
      expect(await generate(license, admin, departmentId)).toMatchObject({
        status: 404,
        body: { key: 'ERROR_DEPARTMENT_NOT_EXIST', fields: { department: 'ERROR_DEPARTMENT_NOT_EXIST' } },
      });
    }
    expect(
      await t.call('/api/account/generate', { token: admin, json: { company: company.id, license: license.id } }),
    ).toMatchObject({ status: 400, body: { key: 'ERROR_ACCOUNT_DEPARTMENT_REQUIRED' } });
    expect(await seats(license)).toBe(10);
  });

  it('keeps the seat count exact: invalidated keys count, deleted ones free their seat', async () => {
    const license = await newLicense(company, 2);
    const first = (await generate(license)).body;
    expect(await seats(license)).toBe(1);
    expect(
      (await upload('/api/account/generate', { company: company.id, license: license.id, department: department.id }))
        .status,
    ).toBe(201);
    expect(await seats(license)).toBe(0);
    expect(await generate(license)).toMatchObject({ status: 409, body: { key: 'ERROR_COMPANY_FULL_LICENSES' } });

    const ref = { company: company.id, license: license.id, account: first.id };
    expect(await t.call('/api/account/invalidate', { token: admin, json: ref })).toMatchObject({
      status: 200,
      body: { id: first.id, invalidated: true },
    });
    expect(await generate(license)).toMatchObject({ status: 409, body: { key: 'ERROR_COMPANY_FULL_LICENSES' } });

    const path = `/api/license/company/${company.id}/license/${license.id}/account/${first.id}`;
    expect(await t.call(path, { method: 'DELETE', token: head })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await t.call(path, { method: 'DELETE', token: admin })).toMatchObject({
      status: 404,
      body: { key: 'ERROR_ACCOUNT_NOT_EXIST' },
    });
    expect(await seats(license)).toBe(1);
    expect((await generate(license)).status).toBe(201);
    expect(await seats(license)).toBe(0);
    expect((await keysOf(license)).body).toHaveLength(2);
  });

  it('refuses an expired or invalidated licence', async () => {
    const license = await newLicense();
    await t.database.db
      .update(licenses)
      .set({ expirationDate: Date.now() - 1 })
      .where(eq(licenses.id, license.id));
    expect(await generate(license)).toMatchObject({ status: 409, body: { key: 'ERROR_LICENSE_EXPIRED_KEY' } });
    expect(await fromFile(license, { blob: datFile(), name: 'a.dat' })).toMatchObject({
      status: 409,
      body: { key: 'ERROR_LICENSE_EXPIRED_KEY' },
    });
    expect(await seats(license)).toBe(10);
  });

  it('gives the last free seat to exactly one of many generations at once', async () => {
    const license = await newLicense(company, 3);
    await generate(license);
    await generate(license);
    const results = await Promise.all(Array.from({ length: 10 }, () => generate(license, head)));
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const result of results.filter((r) => r.status === 409)) {
      expect(result.body).toMatchObject({ key: 'ERROR_COMPANY_FULL_LICENSES' });
    }
    const rows = await t.database.db.select().from(accounts).where(eq(accounts.licenseId, license.id));
    expect(rows).toHaveLength(3);
    expect(await seats(license)).toBe(0);
  });
});

describe('keys from a registration file', () => {
  it('binds the key to the person and machines, and exports a licence file signed now', async () => {
    const premium = await t.call<Activity>('/api/activity', {
      token: admin,
      json: { name: 'Premium Export', key: 'premium-export' },
    });
    await t.call('/api/license-type/add-activity', {
      token: admin,
      json: { licenseType: 'pro', activities: [{ id: premium.body.id }] },
    });
    const license = await newLicense();
    const made = await fromFile(
      license,
      { blob: datFile({ macAddresses: ['aa-bb-cc-dd-ee-01'] }), name: 'AMARA.DAT' },
      head,
    );
    expect(made).toMatchObject({
      status: 201,
      body: {
        fullName: 'Amara Okoye',
        emailAddress: 'amara.okoye@northwind.test',
        macAddress: 'AA:BB:CC:DD:EE:01',
        macAddresses: ['AA:BB:CC:DD:EE:01'],
        hostname: 'NW-DISPATCH-07',
        hasFile: true,
      },
    });
    const { id, key } = made.body;
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
    expect(unsealKey(row!.sealedKey!, loadSigningKey({ dataDir: t.dataDir }).privateKey)).toBe(key);
    expect(Buffer.from(row!.sealedKey!).toString('latin1')).not.toContain(key);

    const ref = { company: company.id, license: license.id, account: id };
    expect(await t.call<LicenseFileRef[]>('/api/account/list-license-file', { token: head, json: ref })).toMatchObject({
      status: 200,
      body: [{ accountId: id, fileName: `opsdeck-license-${id}.lic` }],
    });

    const exported = await t.call<string>(`/api/account/export-license-file/${id}`, { token: head });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="opsdeck-license-${id}.lic"`);
    const pem = await publicKey();
    const check = checkLicenseFile(exported.body, pem);
    expect(check).toMatchObject({
      valid: true,
      expired: false,
      payload: {
        format: 'opsdeck-license',
        version: 1,
        key,
        keyId: id,
        tenantId: company.tenantId,
        company: { id: company.id, name: company.name },
        license: { id: license.id, type: 'pro', expirationDate: license.expirationDate },
        department: { id: department.id, name: 'Dispatch' },
        fullName: 'Amara Okoye',
        emailAddress: 'amara.okoye@northwind.test',
        macAddresses: ['AA:BB:CC:DD:EE:01'],
      },
    });
    if (check.valid) {
      expect(check.payload.premiumActivities).toContain('premium-export');
      expect(check.payload.issuedAt).toBeGreaterThan(Date.now() - 60_000);
    }
    // One changed byte of the payload: refused.
    const lines = exported.body.split('\n');
    const payload = Buffer.from(lines[1]!, 'base64');
    payload[10]! ^= 1;
    lines[1] = payload.toString('base64');
    expect(checkLicenseFile(lines.join('\n'), pem)).toMatchObject({ valid: false });

    // A renewal shows in a file exported after it.
    const expirationDate = Date.now() + 90 * DAY;
    await t.call('/api/license/company/update', {
      token: admin,
      json: { companyId: company.id, licenseId: license.id, expirationDate, maxAccounts: 10 },
    });
    const again = await t.call<string>(`/api/account/export-license-file/${id}`, { token: admin });
    expect(checkLicenseFile(again.body, pem)).toMatchObject({ valid: true, payload: { license: { expirationDate } } });

    // An invalidated key gets no new file.
    await t.call('/api/account/invalidate', { token: head, json: ref });
    expect(await t.call(`/api/account/export-license-file/${id}`, { token: head })).toMatchObject({
      status: 409,
      body: { key: 'ERROR_LICENSE_EXPIRED_KEY' },
    });
  });

  it('has no licence file for a key generated without one', async () => {
    const license = await newLicense();
    const { id } = (await generate(license)).body;
    const ref = { company: company.id, license: license.id, account: id };
    expect((await t.call('/api/account/list-license-file', { token: admin, json: ref })).body).toEqual([]);
    expect(await t.call(`/api/account/export-license-file/${id}`, { token: admin })).toMatchObject({
      status: 409,
      body: { key: 'ERROR_ACCOUNT_NO_LICENSE_FILE' },
    });
    expect(await t.call('/api/account/export-license-file/2000000000', { token: admin })).toMatchObject({
      status: 404,
      body: { key: 'ERROR_ACCOUNT_NOT_EXIST' },
    });
  });

  it('answers each bad registration file with its key, and stores nothing', async () => {
    const license = await newLicense();
    const text = (value: unknown) => new Blob([typeof value === 'string' ? value : JSON.stringify(value)]);
    const good = JSON.parse(registrationFileText(registration())) as Record<string, unknown>;
    const cases: [{ blob: Blob; name: string } | undefined, string][] = [
      [undefined, 'ERROR_ACCOUNT_REGFILE_REQUIRED'],
      [{ blob: new Blob([]), name: 'empty.dat' }, 'ERROR_ACCOUNT_REGFILE_REQUIRED'],
      [{ blob: datFile(), name: 'amara.txt' }, 'ERROR_ACCOUNT_REGFILE_UNSUPPORTED'],
      [{ blob: new Blob([' '.repeat(64 * 1024 + 1)]), name: 'big.dat' }, 'ERROR_ACCOUNT_REGFILE_INVALID'],
      [{ blob: new Blob(['x'.repeat(3 * 1024 * 1024)]), name: 'huge.dat' }, 'ERROR_ACCOUNT_REGFILE_INVALID'],
      [{ blob: text('not json'), name: 'a.dat' }, 'ERROR_ACCOUNT_REGFILE_INVALID'],
      [{ blob: new Blob([new Uint8Array([0xff, 0xfe, 0x7b])]), name: 'a.dat' }, 'ERROR_ACCOUNT_REGFILE_INVALID'],
      [{ blob: text({ ...good, format: 'other' }), name: 'a.dat' }, 'ERROR_ACCOUNT_REGFILE_INVALID'],
      [{ blob: text({ ...good, version: 2 }), name: 'a.dat' }, 'ERROR_ACCOUNT_REGFILE_INVALID'],
      [{ blob: text({ ...good, macAddresses: ['AA:BB:CC'] }), name: 'a.dat' }, 'ERROR_ACCOUNT_REGFILE_INVALID'],
      [{ blob: text({ ...good, emailAddress: 'nobody' }), name: 'a.dat' }, 'ERROR_ACCOUNT_REGFILE_INVALID'],
    ];
    for (const [file, key] of cases) {
      expect(await fromFile(license, file), file?.name ?? 'no file').toMatchObject({
        status: 400,
        body: { key, fields: { regFile: key } },
      });
    }
    // JSON cannot carry a file: a regFile member is not one.
    const json = { company: company.id, license: license.id, department: department.id };
    for (const regFile of [undefined, { filename: 'a.dat', bytes: [1, 2] }, 'a.dat']) {
      expect(await t.call('/api/account/from-file', { token: admin, json: { ...json, regFile } })).toMatchObject({
        status: 400,
        body: { key: 'ERROR_ACCOUNT_REGFILE_REQUIRED' },
      });
    }
    // Two files, or a broken multipart body: refused, never a 500.
    const form = new FormData();
    for (const [name, value] of Object.entries(json)) form.set(name, String(value));
    form.append('regFile', datFile(), 'a.dat');
    form.append('regFile', datFile(), 'b.dat');
    const twoFiles = await fetch(`${t.baseUrl}/api/account/from-file`, {
      method: 'POST',
      headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, [HEADERS.authToken]: admin },
      body: form,
    });
    expect(twoFiles.status).toBe(413);
    const broken = await fetch(`${t.baseUrl}/api/account/from-file`, {
      method: 'POST',
      headers: {
        [HEADERS.appKey]: CONSOLE_APP_KEY,
        [HEADERS.authToken]: admin,
        'content-type': 'multipart/form-data; boundary=xyz',
      },
      body: '--xyz\r\nContent-Disposition: form-data; name="company"\r\n\r\n1',
    });
    expect(broken.status).toBe(400);
    expect(await seats(license)).toBe(10);
    expect((await keysOf(license)).body).toEqual([]);
  });
});

describe('keys of a licence', () => {
  it('invalidates a key of the licence only', async () => {
    const license = await newLicense();
    const elsewhere = await newLicense();
    const { id } = (await generate(elsewhere)).body;
    for (const account of [id, 2_000_000_000]) {
      expect(
        await t.call('/api/account/invalidate', {
          token: admin,
          json: { company: company.id, license: license.id, account },
        }),
      ).toMatchObject({ status: 404, body: { key: 'ERROR_ACCOUNT_NOT_EXIST' } });
    }
    expect((await keysOf(elsewhere)).body[0]).toMatchObject({ id, invalidated: false });
  });

  it('names a licence of another company: 409 to the provider, 404 to a company user', async () => {
    const theirs = await newLicense(other);
    const query = `/api/account/list?company=${company.id}&license=${theirs.id}`;
    expect(await t.call(query, { token: admin })).toMatchObject({
      status: 409,
      body: { key: 'ERROR_LICENSE_OTHER_COMPANY' },
    });
    expect(await t.call(query, { token: head })).toMatchObject({
      status: 404,
      body: { key: 'ERROR_LICENSE_NOT_EXIST' },
    });
    expect(await generate(theirs, head)).toMatchObject({ status: 404, body: { key: 'ERROR_LICENSE_NOT_EXIST' } });
  });
});

describe('the accounts page and solo accounts', () => {
  let soloAccount: GeneratedAccount;
  let theirAccount: GeneratedAccount;
  let named: GeneratedAccount[];

  beforeAll(async () => {
    const license = await newLicense(company, 20);
    named = [];
    for (const [fullName, mac] of [
      ['Zoe Quarry', '10:20:30:40:50:60'],
      ['adam brook', 'DE:AD:BE:EF:00:01'],
      ['Mia Stone', '10:20:30:40:50:61'],
    ] as const) {
      const made = await fromFile(license, {
        blob: datFile({
          fullName,
          emailAddress: `${fullName.split(' ')[0]!.toLowerCase()}@page.test`,
          macAddresses: [mac],
        }),
        name: 'r.dat',
      });
      named.push(made.body);
    }
    const theirLicense = await newLicense(other);
    const theirDepartment = await createDepartment(t.database.db, other);
    theirAccount = (
      await upload<GeneratedAccount>(
        '/api/account/from-file',
        { company: other.id, license: theirLicense.id, department: theirDepartment.id },
        { blob: datFile({ fullName: 'Other Person', emailAddress: 'other@page.test' }), name: 'o.dat' },
      )
    ).body;
    const solo = await upload<GeneratedAccount>(
      '/api/account/solo',
      { licenseType: 'enterprise' },
      { blob: datFile({ fullName: 'Solo Page', emailAddress: 'solo@page.test' }), name: 's.dat' },
    );
    expect(solo.status).toBe(201);
    soloAccount = solo.body;
  });

  const page = (query: string, token = admin) => t.call<AccountPage>(`/api/account?${query}`, { token });

  it('makes a solo account: its own one-seat licence with no company', async () => {
    expect(soloAccount).toMatchObject({
      type: { key: 'solo', name: 'Solo' },
      departmentName: null,
      hasFile: true,
      license: { type: { key: 'enterprise' }, company: null },
    });
    const [license] = await t.database.db.select().from(licenses).where(eq(licenses.id, soloAccount.license.id));
    expect(license).toMatchObject({ companyId: null, tenantId: null, maxAccounts: 1, invalidatedAt: null });
    expect((await t.call<Account[]>('/api/account/solo', { token: admin })).body.map((a) => a.id)).toContain(
      soloAccount.id,
    );
    expect((await t.call<Account[]>('/api/account/solo', { token: head })).body).toEqual([]);
    const exported = await t.call<string>(`/api/account/export-license-file/${soloAccount.id}`, { token: admin });
    expect(checkLicenseFile(exported.body, await publicKey())).toMatchObject({
      valid: true,
      payload: { key: soloAccount.key, tenantId: '', company: { id: 0, name: 'Solo' }, department: null },
    });
    expect(await t.call(`/api/account/export-license-file/${soloAccount.id}`, { token: head })).toMatchObject({
      status: 404,
    });
    expect(await upload('/api/account/solo', {}, undefined)).toMatchObject({
      status: 400,
      body: { key: 'ERROR_ACCOUNT_REGFILE_REQUIRED' },
    });
    expect(
      await upload('/api/account/solo', { licenseType: 'gold' }, { blob: datFile(), name: 'a.dat' }),
    ).toMatchObject({
      status: 400,
      body: { key: 'ERROR_LICENSE_TYPE_INVALID' },
    });
    const everything = await tokenWithEveryAuthority(t, company);
    expect(await upload('/api/account/solo', {}, { blob: datFile(), name: 'a.dat' }, everything)).toMatchObject({
      status: 403,
    });
  });

  it("shows a company user its company's accounts only, and the provider every one", async () => {
    const mine = await page('size=100', head);
    expect(mine.status).toBe(200);
    expect(mine.body.items.every((account) => account.license.company?.id === company.id)).toBe(true);
    expect(ids(mine)).toEqual(expect.arrayContaining(named.map((a) => a.id)));
    expect(ids(mine)).not.toContain(theirAccount.id);
    expect(ids(mine)).not.toContain(soloAccount.id);
    const all = await page('size=100&search=page.test', admin);
    expect(all.body.total).toBe(5);
    expect(ids(all)).toEqual(expect.arrayContaining([theirAccount.id, soloAccount.id]));
    const picked = await t.call<AccountPage>('/api/account?size=100&search=page.test', {
      token: admin,
      tenantId: other.tenantId,
    });
    expect(ids(picked)).toEqual([theirAccount.id]);
  });

  it('searches name, e-mail, MAC address, company name and partial key', async () => {
    const [zoe, adam, mia] = named as [GeneratedAccount, GeneratedAccount, GeneratedAccount];
    const search = async (text: string, token = admin) =>
      ids(await page(`size=100&search=${encodeURIComponent(text)}`, token));
    expect(await search('ZOE q')).toEqual([zoe.id]);
    expect(await search('adam@PAGE')).toEqual([adam.id]);
    expect(await search('de:ad:be')).toEqual([adam.id]);
    expect(await search('de-ad-be-ef')).toEqual([adam.id]);
    expect((await search('10:20:30:40:50')).sort()).toEqual([zoe.id, mia.id].sort());
    expect(await search(other.name)).toContain(theirAccount.id);
    expect(await search(other.name, head)).toEqual([]);
    expect(await search(mia.partialKey)).toEqual([mia.id]);
    expect(await search(mia.partialKey.split('-')[1]!.toLowerCase())).toContain(mia.id);
    expect(await search('100%_')).toEqual([]);
  });

  it('sorts by type, full name, e-mail and expiration, ties by id, one page at a time', async () => {
    const scoped = 'search=page.test&size=100';
    const names = async (sort: string) =>
      (await page(`${scoped}&sort=${sort}`)).body.items.map((account) => account.fullName);
    expect(await names('fullName')).toEqual(['adam brook', 'Mia Stone', 'Other Person', 'Solo Page', 'Zoe Quarry']);
    expect(await names('fullName,desc')).toEqual([
      'Zoe Quarry',
      'Solo Page',
      'Other Person',
      'Mia Stone',
      'adam brook',
    ]);
    expect(await names('email')).toEqual(['adam brook', 'Mia Stone', 'Other Person', 'Solo Page', 'Zoe Quarry']);
    expect((await names('type,desc'))[0]).toBe('Solo Page');
    const byType = (await page(`${scoped}&sort=type`)).body.items;
    const companyIds = byType.filter((a) => a.type.key === 'company').map((a) => a.id);
    expect(companyIds).toEqual([...companyIds].sort((a, b) => a - b));
    const byExpiration = (await page(`${scoped}&sort=expiration,desc`)).body.items;
    const dates = byExpiration.map((a) => a.license.expirationDate);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));

    const first = await page('search=page.test&size=2&page=1&sort=fullName');
    const third = await page('search=page.test&size=2&page=3&sort=fullName');
    expect(first.body).toMatchObject({ total: 5, page: 1, size: 2 });
    expect(first.body.items.map((a) => a.fullName)).toEqual(['adam brook', 'Mia Stone']);
    expect(third.body.items.map((a) => a.fullName)).toEqual(['Zoe Quarry']);
    expect((await page('search=page.test&page=9')).body.items).toEqual([]);
    expect(await page('sort=name')).toMatchObject({ status: 400 });
  });
});

describe('who may use keys and accounts', () => {
  it('refuses a caller without the endpoint authority', async () => {
    const license = await newLicense();
    const made = (await fromFile(license, { blob: datFile(), name: 'a.dat' })).body;
    const ref = { company: company.id, license: license.id, account: made.id };
    const accountReaders = ['VIEW_ACCOUNT', 'ACCESS_ACCOUNT_TAB'] as const;
    await expectRefusedWithoutAuthority(t, company, [
      { method: 'GET', path: '/api/account', authorities: accountReaders },
      { method: 'GET', path: '/api/account/solo', authorities: accountReaders },
      { method: 'POST', path: '/api/account/solo', json: {}, authorities: ['CREATE_LICENSE'] },
      ...idAddressed(license, made.id, ref),
    ]);
    expect((await keysOf(license)).body).toMatchObject([{ id: made.id, invalidated: false }]);
  });

  it("hides a company's keys from another company", async () => {
    const license = await newLicense();
    const made = (await fromFile(license, { blob: datFile(), name: 'a.dat' })).body;
    const ref = { company: company.id, license: license.id, account: made.id };
    const outsider = await tokenWithEveryAuthority(t, other);
    await expectHiddenFromOtherTenant(t, outsider, company.tenantId, idAddressed(license, made.id, ref));
    const everyAccount = await t.call<AccountPage>('/api/account?size=100', { token: outsider });
    expect(ids(everyAccount)).not.toContain(made.id);
    expect((await t.call<Account[]>('/api/account/solo', { token: outsider })).body).toEqual([]);
    expect((await keysOf(license)).body).toMatchObject([{ id: made.id, invalidated: false }]);
    expect(await seats(license)).toBe(9);
  });
});

const ids = (result: { body: AccountPage }) => result.body.items.map((account) => account.id);

/** The endpoints that name a company's licence and key, with their authorities. */
function idAddressed(license: License, accountId: number, ref: Record<string, number>): Endpoint[] {
  const body = { company: company.id, license: license.id, department: department.id };
  return [
    {
      method: 'GET',
      path: `/api/account/list?company=${company.id}&license=${license.id}`,
      authorities: ['VIEW_LICENSE_KEY', 'ACCESS_COMPANY_LICENSE_KEY_PAGE'],
    },
    { method: 'POST', path: '/api/account/generate', json: body, authorities: ['GENERATE_LICENSE_KEY'] },
    { method: 'POST', path: '/api/account/from-file', json: body, authorities: ['GENERATE_LICENSE_KEY'] },
    {
      method: 'POST',
      path: '/api/account/invalidate',
      json: ref,
      authorities: ['DELETE_LICENSE_KEY', 'GENERATE_LICENSE_KEY'],
    },
    { method: 'POST', path: '/api/account/list-license-file', json: ref, authorities: ['EXPORT_LICENSE_FILE'] },
    { method: 'GET', path: `/api/account/export-license-file/${accountId}`, authorities: ['EXPORT_LICENSE_FILE'] },
    {
      method: 'DELETE',
      path: `/api/license/company/${company.id}/license/${license.id}/account/${accountId}`,
      authorities: ['DELETE_LICENSE_KEY', 'DELETE_ACCOUNT'],
    },
  ];
}
