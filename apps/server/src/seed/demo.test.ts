import type { Account, AccountPage } from '@opsdeck/contract/accounts';
import type { CatalogueActivity } from '@opsdeck/contract/activities';
import type { Company } from '@opsdeck/contract/companies';
import type { License } from '@opsdeck/contract/licenses';
import type { DirectoryPage, WorkflowDetail } from '@opsdeck/contract/workflows';
import { checkLicenseFile } from '@opsdeck/licensing/license-file';
import { readRax } from '@opsdeck/rax/read';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../test/app';
import { DEMO_COMPANIES, emailOf } from './demo';
import { DEMO_PREMIUM_ACTIVITIES, DEMO_SOLO_ACCOUNTS } from './demo-licenses';
import { DEMO_ADMIN_PASSWORD } from './provider-admin';

let t: TestApp;
let admin: string;

// `npm start` seeds the demo on the embedded database only (ARCHITECTURE.md, Demo data); the seed
// itself is checked on both databases.
beforeAll(async () => {
  t = await startTestApp({ DEMO: '1' });
  admin = await t.login(ADMIN.email, ADMIN.password);
});

afterAll(async () => {
  await t.close();
});

describe('the demo of License Management (issue 8)', () => {
  it('gives every company a licence, one of them expiring this month', async () => {
    const companies = (await t.call<Company[]>('/api/company', { token: admin })).body;
    expect(companies.map((company) => company.name).sort()).toEqual(DEMO_COMPANIES.map((plan) => plan.name).sort());
    const types = new Set<string>();
    let expiringThisMonth = 0;
    const now = new Date();
    for (const company of companies) {
      const licenses = (await t.call<License[]>(`/api/license/company?id=${company.id}`, { token: admin })).body;
      expect(licenses.length, company.name).toBeGreaterThan(0);
      for (const license of licenses) {
        types.add(license.type.key);
        const expires = new Date(license.expirationDate);
        if (expires.getUTCFullYear() === now.getUTCFullYear() && expires.getUTCMonth() === now.getUTCMonth())
          expiringThisMonth += 1;
        expect(license.unusedAccounts).toBeGreaterThan(0);
      }
    }
    expect([...types].sort()).toEqual(['enterprise', 'pro']);
    expect(expiringThisMonth).toBeGreaterThanOrEqual(1);
  });

  it('has keys from registration files whose licence files export and verify at once', async () => {
    const company = (await t.call<Company[]>('/api/company', { token: admin })).body[0]!;
    const [license] = (await t.call<License[]>(`/api/license/company?id=${company.id}`, { token: admin })).body;
    const keys = (
      await t.call<Account[]>(`/api/account/list?company=${company.id}&license=${license!.id}`, { token: admin })
    ).body;
    const withFile = keys.find((key) => key.hasFile)!;
    expect(keys.some((key) => !key.hasFile)).toBe(true);
    expect(withFile.macAddresses.length).toBeGreaterThan(0);
    const exported = await t.call<string>(`/api/account/export-license-file/${withFile.id}`, { token: admin });
    expect(exported.status).toBe(200);
    const publicKey = await t.call<string>('/api/license/public-key');
    const check = checkLicenseFile(exported.body, publicKey.body);
    expect(check).toMatchObject({ valid: true, expired: false });
    if (check.valid) expect(check.payload.macAddresses).toEqual(withFile.macAddresses);
  });

  it('has solo accounts, premium activities, and heads who sign in with the demo password', async () => {
    const solo = (await t.call<Account[]>('/api/account/solo', { token: admin })).body;
    expect(solo.map((account) => account.fullName).sort()).toEqual(
      DEMO_SOLO_ACCOUNTS.map((account) => account.fullName).sort(),
    );
    const page = (await t.call<AccountPage>('/api/account?page=1&size=100', { token: admin })).body;
    expect(page.total).toBeGreaterThan(10);
    const catalogue = (await t.call<CatalogueActivity[]>('/api/license-type/premium', { token: admin })).body;
    expect(
      catalogue
        .filter((activity) => activity.premium)
        .map((activity) => activity.key)
        .sort(),
    ).toEqual([...DEMO_PREMIUM_ACTIVITIES].sort());
    const plan = DEMO_COMPANIES[0]!;
    await t.login(emailOf(plan.head, plan.domain), DEMO_ADMIN_PASSWORD);
  });
});

describe('the demo of Workflows (issue 9)', () => {
  it('gives every company a tree of real .rax workflows, some with several versions', async () => {
    for (const plan of DEMO_COMPANIES) {
      const folder = `Workflows/${plan.name}`;
      const top = (await t.call<DirectoryPage>('/api/directory/view', { token: admin, json: { parent: folder } })).body;
      expect(top.items.map((item) => item.name)).toEqual(['Finance', 'HR', 'IT', 'Operations']);
      const all = (
        await t.call<DirectoryPage>('/api/directory/view', {
          token: admin,
          json: { parent: folder, search: '', from: 0, size: 100 },
        })
      ).body;
      expect(all.total).toBeGreaterThanOrEqual(12);
      expect(all.items.some((item) => item.parent === `${folder}/Finance/Invoices`)).toBe(true);
      expect(all.items.some((item) => item.premium)).toBe(true);
      const intake = all.items.find((item) => item.name === 'Invoice intake')!;
      const detail = (await t.call<WorkflowDetail>(`/api/workflow/${intake.id}`, { token: admin })).body;
      expect(detail.versions.length).toBe(2);
      const file = await t.call(`/api/workflow/download/${intake.id}`, { token: admin });
      expect((await readRax(file.bytes)).manifest.name).toBe('Invoice intake');
    }
  });
});
