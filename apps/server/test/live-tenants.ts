import type { GeneratedAccount } from '@opsdeck/contract/accounts';
import type { License } from '@opsdeck/contract/licenses';
import type { Workflow } from '@opsdeck/contract/workflows';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from './app';
import { createCompany, createDepartment, type TestCompany } from './factories';
import { connectPeer, type LivePeer } from './live';
import { tokenFor } from './sign-in';
import { uploadWorkflow } from './workflow-files';

const DAY = 86_400_000;

/** A company ready for the live channel: a licence with room, a console user, one workflow. */
export type LiveTenant = {
  company: TestCompany;
  departmentId: number;
  license: License;
  /** A user with VIEW_WORKFLOW_EVENTS and VIEW_WORKFLOW. */
  watcher: string;
  workflow: Workflow;
};

let macCounter = 0;
/** A new locally administered MAC address, unique in the test process. */
export const newMac = () => {
  const n = macCounter++;
  return `02:00:00:${[n >> 16, (n >> 8) & 0xff, n & 0xff].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
};

/** Makes companies and keys through the API as the provider admin (`admin` is a signed-in token). */
export function liveTenants(t: () => TestApp, admin: () => string) {
  async function tenant(name: string): Promise<LiveTenant> {
    const app = t();
    const company = await createCompany(app.database.db, { name });
    const departmentId = (await createDepartment(app.database.db, company)).id;
    const created = await app.call<License>('/api/license/company/add', {
      token: admin(),
      json: { companyId: company.id, licenseType: 'pro', label: 'Agents' },
    });
    expect(created.status).toBe(201);
    const renewed = await app.call<License>('/api/license/company/update', {
      token: admin(),
      json: {
        companyId: company.id,
        licenseId: created.body.id,
        expirationDate: Date.now() + 30 * DAY,
        maxAccounts: 20,
      },
    });
    expect(renewed.status).toBe(200);
    const watcher = await tokenFor(app, company, ['VIEW_WORKFLOW_EVENTS', 'VIEW_WORKFLOW']);
    const author = await tokenFor(app, company, ['VIEW_WORKFLOW', 'CREATE_WORKFLOW']);
    const uploaded = await uploadWorkflow(app, author, 'Workflows', 'Invoice intake.rax');
    expect(uploaded.status).toBe(201);
    return { company, departmentId, license: renewed.body, watcher, workflow: uploaded.body };
  }

  /** A new key of the tenant's licence (generated: it takes the MAC address of the first machine). */
  async function newKey(of: LiveTenant) {
    const made = await t().call<GeneratedAccount>('/api/account/generate', {
      token: admin(),
      json: { company: of.company.id, license: of.license.id, department: of.departmentId },
    });
    expect(made.status).toBe(201);
    return made.body;
  }

  return { tenant, newKey };
}

/** What `liveSuite` readies before a file's tests: the app, the provider admin's token, two companies. */
export type LiveSuite = { t: TestApp; admin: string; acme: LiveTenant; globex: LiveTenant };

/**
 * A test file of the live channel: registers its hooks (an app on its own database, signed in as the
 * provider admin, with Acme Robotics and Globex ready; the peers a test opened closed after it; the
 * app closed after the file) and hands `ready` what it readied. `open` connects a peer that is
 * closed after the test; `tenant` and `newKey` make more companies and keys.
 */
export function liveSuite(ready: (suite: LiveSuite) => void, options: { afterAll?: () => void } = {}) {
  let t: TestApp | undefined;
  let admin = '';
  const peers: LivePeer[] = [];
  const { tenant, newKey } = liveTenants(
    () => t!,
    () => admin,
  );
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.login(ADMIN.email, ADMIN.password);
    ready({ t, admin, acme: await tenant('Acme Robotics'), globex: await tenant('Globex') });
  });
  afterEach(async () => {
    await Promise.all(peers.splice(0).map((peer) => peer.close()));
  });
  afterAll(async () => {
    options.afterAll?.();
    await t?.close();
  });
  /**
   * A peer closed after the test. `confirmed`: its `subscriptions` are made on the server before it
   * resolves (an agent that is sent commands; connectPeer).
   */
  async function open(
    headers: Record<string, string>,
    subscriptions: readonly string[] = [],
    options: { confirmed?: boolean } = {},
  ) {
    const peer = await connectPeer(t!.baseUrl, headers, subscriptions, options);
    peers.push(peer);
    return peer;
  }
  return { open, tenant, newKey };
}
