import type { Account, GeneratedAccount } from '@opsdeck/contract/accounts';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import type { License } from '@opsdeck/contract/licenses';
import { registrationFileText } from '@opsdeck/licensing/registration';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, type TestCompany } from '../../../test/factories';
import type { DomainEvent } from '../../platform/events';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Licences and keys say what changed on the event bus, after it committed, so that the live channel
 * can disconnect the agents of a key that stopped passing at once (docs/live-channel.md, "Agents").
 */
describe('licence and key events', () => {
  let t: TestApp;
  let admin: string;
  let company: TestCompany;
  let department: { id: number };
  const seen: DomainEvent[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.login(ADMIN.email, ADMIN.password);
    company = await createCompany(t.database.db);
    department = await createDepartment(t.database.db, company);
    t.app.services.events.subscribe((event) => void seen.push(event), { resources: ['licenses', 'accounts'] });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const ofCompany = (resource: 'licenses' | 'accounts', kind: DomainEvent['kind'], id: number) => ({
    resource,
    kind,
    ids: [id],
    tenantId: company.tenantId,
  });

  async function addLicense() {
    const created = await t.call<License>('/api/license/company/add', {
      token: admin,
      json: { companyId: company.id, licenseType: 'pro' },
    });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function generate(license: License) {
    const made = await t.call<GeneratedAccount>('/api/account/generate', {
      token: admin,
      json: { company: company.id, license: license.id, department: department.id },
    });
    expect(made.status).toBe(201);
    return made.body;
  }

  const registration = (email: string) =>
    new Blob([
      registrationFileText({ fullName: 'Reg Person', emailAddress: email, macAddresses: ['AA:BB:CC:00:00:01'] }),
    ]);

  async function upload<T>(path: string, fields: Record<string, string | number>, email: string) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, String(value));
    form.set('regFile', registration(email), 'machine.dat');
    const response = await fetch(t.baseUrl + path, {
      method: 'POST',
      headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, [HEADERS.authToken]: admin },
      body: form,
    });
    expect(response.status).toBe(201);
    return (await response.json()) as T;
  }

  it('a licence issued, renewed, invalidated and deleted', async () => {
    const license = await addLicense();
    expect(seen).toEqual([ofCompany('licenses', 'created', license.id)]);

    seen.length = 0;
    const renewal = { companyId: company.id, licenseId: license.id, expirationDate: Date.now() + 30 * DAY };
    expect(
      (await t.call('/api/license/company/update', { token: admin, json: { ...renewal, maxAccounts: 5 } })).status,
    ).toBe(200);
    expect(seen).toEqual([ofCompany('licenses', 'updated', license.id)]);

    seen.length = 0;
    const ref = { companyId: company.id, licenseId: license.id };
    expect((await t.call('/api/license/company/invalidate', { token: admin, json: ref })).status).toBe(200);
    expect(seen).toEqual([ofCompany('licenses', 'updated', license.id)]);

    seen.length = 0;
    const path = `/api/license/company/${company.id}/license/${license.id}`;
    expect((await t.call(path, { method: 'DELETE', token: admin })).status).toBe(200);
    expect(seen).toEqual([ofCompany('licenses', 'deleted', license.id)]);
  });

  it('nothing when a change is refused', async () => {
    const license = await addLicense();
    await generate(license);
    await generate(license);
    seen.length = 0;
    const tooFew = { companyId: company.id, licenseId: license.id, expirationDate: Date.now() + DAY, maxAccounts: 1 };
    expect((await t.call('/api/license/company/update', { token: admin, json: tooFew })).status).toBe(409);
    const missing = `/api/license/company/${company.id}/license/2000000000`;
    expect((await t.call(missing, { method: 'DELETE', token: admin })).status).toBe(404);
    const ref = { company: company.id, license: license.id, account: 2_000_000_000 };
    expect((await t.call('/api/account/invalidate', { token: admin, json: ref })).status).toBe(404);
    // A sync point before "nothing": a change that is made, after the refused ones, and its event.
    // Any event of theirs would have come before it.
    const enough = { ...tooFew, maxAccounts: 5 };
    expect((await t.call('/api/license/company/update', { token: admin, json: enough })).status).toBe(200);
    expect(seen).toEqual([ofCompany('licenses', 'updated', license.id)]);
  });

  it('a key generated, made from a registration file, invalidated and deleted', async () => {
    const license = await addLicense();
    seen.length = 0;
    const generated = await generate(license);
    expect(seen).toEqual([ofCompany('accounts', 'created', generated.id)]);

    seen.length = 0;
    const fields = { company: company.id, license: license.id, department: department.id };
    const fromFile = await upload<GeneratedAccount>('/api/account/from-file', fields, 'reg@example.test');
    expect(seen).toEqual([ofCompany('accounts', 'created', fromFile.id)]);

    seen.length = 0;
    const ref = { company: company.id, license: license.id, account: fromFile.id };
    expect((await t.call<Account>('/api/account/invalidate', { token: admin, json: ref })).body).toMatchObject({
      invalidated: true,
    });
    expect(seen).toEqual([ofCompany('accounts', 'updated', fromFile.id)]);

    seen.length = 0;
    const path = `/api/license/company/${company.id}/license/${license.id}/account/${generated.id}`;
    expect((await t.call(path, { method: 'DELETE', token: admin })).status).toBe(200);
    expect(seen).toEqual([ofCompany('accounts', 'deleted', generated.id)]);
  });

  it('a solo licence made with its key, then archived', async () => {
    const solo = await upload<GeneratedAccount>('/api/account/solo', { licenseType: 'pro' }, 'solo@example.test');
    expect(seen).toEqual([
      { resource: 'licenses', kind: 'created', ids: [solo.license.id], tenantId: null },
      { resource: 'accounts', kind: 'created', ids: [solo.id], tenantId: null },
    ]);

    seen.length = 0;
    const archived = await t.call('/api/license/solo/invalidate', {
      token: admin,
      json: { licenseId: solo.license.id },
    });
    expect(archived.status).toBe(200);
    expect(seen).toEqual([{ resource: 'licenses', kind: 'archived', ids: [solo.license.id], tenantId: null }]);
  });
});
