import type { Account, AccountSortField, GeneratedAccount } from '@opsdeck/contract/accounts';
import type { License } from '@opsdeck/contract/licenses';
import type { Page } from '@opsdeck/contract/paging';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createAgentKey, createCompany, createDepartment, type TestCompany } from '../../../test/factories';
import { agentHeaders, connectPeer } from '../../../test/live';
import { ANCHOR_SPACING } from '../../platform/list-anchors';
import { EVERY_TENANT } from '../../platform/tenancy';
import { pageAccountIds, resolveAccountSearch } from './queries';

// The accounts page's kept count and anchored deep pages (docs/performance.md, "Lists at 500
// requests a second"): exact through every change made through the API, and a deep page is the
// page OFFSET would give.

const ACCOUNTS = 2 * ANCHOR_SPACING + 345;
const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
let admin: string;
let company: TestCompany;
let department: { id: number };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  company = await createCompany(t.database.db, { name: 'Scale Keys' });
  department = await createDepartment(t.database.db, company, { name: 'Dispatch' });
  const bulk = await newLicense();
  // Straight through SQL, before any list is read: names that repeat, so ties are broken by id.
  await t.database.db.execute(sql`
    insert into accounts (license_id, tenant_id, solo, department_id, department_name, key_digest, partial_key,
      full_name, email_address, mac_addresses, created_at)
    select ${bulk.id}, ${company.tenantId}::uuid, false, ${department.id}, 'Dispatch',
      md5('scale-key-' || i) || md5('scale-key-2-' || i), 'ODK-' || lpad(i::text, 4, '0') || '-…-XXXX',
      (array['Ana Moss','Bo Lee','Cy Kay'])[1 + i % 3], 'scale' || (i % 700) || '@keys.test', '{}', ${Date.now()}
    from generate_series(1, ${ACCOUNTS}) as i`);
});
afterAll(async () => {
  await t.close();
});

/** A licence of the company with room for a few more keys. */
async function newLicense() {
  const created = await t.call<License>('/api/license/company/add', {
    token: admin,
    json: { companyId: company.id, licenseType: 'pro', label: 'Seats' },
  });
  expect(created.status).toBe(201);
  const renewed = await t.call<License>('/api/license/company/update', {
    token: admin,
    json: {
      companyId: company.id,
      licenseId: created.body.id,
      expirationDate: Date.now() + 30 * DAY,
      maxAccounts: 100,
    },
  });
  expect(renewed.status).toBe(200);
  return renewed.body;
}

const list = async (query: string) => {
  const result = await t.call<Page<Account>>(`/api/account?size=10&${query}`, { token: admin });
  expect(result.status).toBe(200);
  return result.body;
};

describe('the accounts page with thousands of keys', () => {
  it('keeps its total exact through generation, deletion and a licence deleted, between them from its cache', async () => {
    const total = (await list('page=1')).total;

    // A row written behind the services' backs (no domain event) is not seen: the total is kept.
    await createAgentKey(t.database.db, company);
    expect((await list('page=1')).total).toBe(total);

    const license = await newLicense();
    const generate = () =>
      t.call<GeneratedAccount>('/api/account/generate', {
        token: admin,
        json: { company: company.id, license: license.id, department: department.id },
      });
    const first = await generate();
    expect(first.status).toBe(201);
    await generate();
    expect((await list('page=1')).total).toBe(total + 3);

    const key = `/api/license/company/${company.id}/license/${license.id}/account/${first.body.id}`;
    expect((await t.call(key, { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await list('page=1')).total).toBe(total + 2);

    // The licence goes with its last key, unannounced: the licence's own event evicts.
    const gone = await t.call(`/api/license/company/${company.id}/license/${license.id}`, {
      method: 'DELETE',
      token: admin,
    });
    expect(gone.status).toBeLessThan(300);
    expect((await list('page=1')).total).toBe(total + 1);
  });

  it("finds a generated key by the MAC address its agent's first connection gave it, the total kept", async () => {
    const mac = 'AA:BB:CC:5C:A1:E0';
    const search = `page=1&search=${encodeURIComponent(mac)}`;
    const license = await newLicense();
    const made = await t.call<GeneratedAccount>('/api/account/generate', {
      token: admin,
      json: { company: company.id, license: license.id, department: department.id },
    });
    expect(made.status).toBe(201);
    // Counted, and kept: the key has no machine yet.
    expect((await list(search)).total).toBe(0);
    expect((await list(search)).total).toBe(0);
    const agent = await connectPeer(t.baseUrl, agentHeaders(made.body.key, mac));
    try {
      // Its first connection gave the key this machine, and said so: the kept total heard of it.
      const found = await list(search);
      expect(found.total).toBe(1);
      expect(found.items.map((account) => account.id)).toEqual([made.body.id]);
      expect((await list(`page=1&search=${encodeURIComponent('5C:A1:E0')}`)).total).toBe(1);
    } finally {
      await agent.close();
    }
  });

  it('answers every deep page with the rows OFFSET gives, both ways, by name and e-mail, before and after a change', async () => {
    const scope = await resolveAccountSearch(t.database.db, EVERY_TENANT, undefined);
    const total = (await list('page=1')).total;
    const pages = [99, 100, 101, 200, 201, Math.ceil(total / 10)];
    const check = async () => {
      for (const field of ['fullName', 'email'] satisfies AccountSortField[]) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const page of pages) {
            const answered = (await list(`page=${page}&sort=${field},${direction}`)).items.map((account) => account.id);
            const walked = await pageAccountIds(t.database.db, scope, { field, direction }, 10, (page - 1) * 10);
            expect(answered, `${field} ${direction} page ${page}`).toEqual(walked);
            expect(answered.length).toBeGreaterThan(0);
          }
        }
      }
    };
    await check();
    // A key deleted near the start moves every later row up by one: the anchors are read again.
    const early = (await list('page=2&sort=fullName,asc')).items[0]!;
    const path = `/api/license/company/${company.id}/license/${early.license.id}/account/${early.id}`;
    expect((await t.call(path, { method: 'DELETE', token: admin })).status).toBe(200);
    await check();
  });
});
