import type { KeyObject } from 'node:crypto';
import { newLicenseKey } from '@opsdeck/licensing/keys';
import { sealKey } from '@opsdeck/licensing/sealing';
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { accounts, activities, licenses, licenseTypeActivities, users } from '../db/schema';
import { DEMO_HISTORY_DAYS, type DemoTenant } from './demo-tenant';

const DAY = 86_400_000;

/** The activities the 'pro' licence type unlocks in the demo (the Premium Activities page). */
export const DEMO_PREMIUM_ACTIVITIES = ['sap-logon', 'sap-call-transaction', 'ocr-document', 'execute-sql-query'];

export async function seedDemoPremiumActivities(db: Executor) {
  const rows = await db
    .select({ id: activities.id })
    .from(activities)
    .where(inArray(activities.key, DEMO_PREMIUM_ACTIVITIES));
  await db.insert(licenseTypeActivities).values(rows.map((row) => ({ licenseTypeKey: 'pro', activityId: row.id })));
}

/**
 * A licence of a demo company: which type, how long it still runs, how many keys it allows, and
 * how many keys it has without a person (generated without a registration file).
 */
type LicensePlan = {
  type: 'pro' | 'enterprise';
  label: string;
  daysLeft: number;
  maxAccounts: number;
  plainKeys: number;
};

/**
 * Each company's licences (issue 8): the first company has a pro and an enterprise licence, the
 * second an enterprise one, the third a pro licence that runs out this month. Every staff member
 * (everyone with a schedule: issue 17) has a key with a licence file on one of them, shared out in
 * order; each licence keeps a few keys to spare.
 */
export const DEMO_LICENSES: LicensePlan[][] = [
  [
    { type: 'pro', label: 'Dispatch robots', daysLeft: 300, maxAccounts: 10, plainKeys: 2 },
    { type: 'enterprise', label: 'Finance back office', daysLeft: 640, maxAccounts: 25, plainKeys: 2 },
  ],
  [{ type: 'enterprise', label: 'Operations', daysLeft: 420, maxAccounts: 20, plainKeys: 2 }],
  [{ type: 'pro', label: 'Revenue cycle pilot', daysLeft: 0, maxAccounts: 15, plainKeys: 1 }],
];

/** Days until the last day of this month, at least one: "expires this month". */
function daysToMonthEnd(now: number) {
  const date = new Date(now);
  const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - 1;
  return Math.max(1, Math.floor((end - now) / DAY));
}

/** Machine addresses that look real: a vendor prefix and three bytes from the person's index. */
function macsFor(seed: number, count: number) {
  const hex = (n: number) => (n & 0xff).toString(16).toUpperCase().padStart(2, '0');
  return Array.from({ length: count }, (_, i) =>
    ['3C', '52', '82', hex(seed * 7 + i), hex(seed * 13 + i * 3), hex(seed * 29 + i * 5)].join(':'),
  );
}

/**
 * The licences of one demo company and their keys: every staff member's key from a registration
 * file (the person, their machines, a licence file to export at once; the demo fleet's agents act
 * out their working days with them), and on each licence a few keys generated without one. The full
 * keys are never kept, except sealed for the ones with a file (docs/licensing.md).
 */
export async function seedDemoLicenses(db: Executor, tenant: DemoTenant, plans: LicensePlan[], signingKey: KeyObject) {
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      emailAddress: users.emailAddress,
      departmentId: users.departmentId,
    })
    .from(users)
    .where(eq(users.companyId, tenant.companyId));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const staff = tenant.staffIds.flatMap((id) => byId.get(id) ?? []);
  let person = 0;
  let keyNumber = 0;
  for (const [index, plan] of plans.entries()) {
    const share = Math.ceil((staff.length - person) / (plans.length - index));
    const people = staff.slice(person, person + share);
    person += people.length;
    const keys = people.length + plan.plainKeys;
    if (keys >= plan.maxAccounts) throw new Error(`the demo licence ${plan.label} cannot hold ${keys} keys`);
    const daysLeft = plan.daysLeft || daysToMonthEnd(tenant.now);
    const [license] = await db
      .insert(licenses)
      .values({
        companyId: tenant.companyId,
        tenantId: tenant.tenantId,
        typeKey: plan.type,
        label: plan.label,
        // A year's licence, or a longer one issued before the demo's history, whose runs its keys made.
        issueDate: tenant.now - Math.max(365 - daysLeft, DEMO_HISTORY_DAYS + 30) * DAY - index * DAY,
        expirationDate: tenant.now + daysLeft * DAY,
        maxAccounts: plan.maxAccounts,
      })
      .returning({ id: licenses.id });
    const values: (typeof accounts.$inferInsert)[] = [];
    for (let k = 0; k < keys; k += 1) {
      const who = people[k];
      keyNumber += 1;
      const department =
        tenant.departments.find((item) => item.id === who?.departmentId) ??
        tenant.departments[keyNumber % tenant.departments.length]!;
      const { key, digest, partial } = newLicenseKey();
      values.push({
        licenseId: license!.id,
        tenantId: tenant.tenantId,
        departmentId: department.id,
        departmentName: department.name,
        keyDigest: digest,
        partialKey: partial,
        createdAt: tenant.now - (DEMO_HISTORY_DAYS + keys - k) * DAY,
        ...(who
          ? {
              sealedKey: sealKey(key, signingKey),
              fullName: `${who.firstName} ${who.lastName}`,
              emailAddress: who.emailAddress,
              macAddresses: macsFor(keyNumber + tenant.companyId * 31, 1 + (keyNumber % 4)),
              hostname: `${who.firstName.toLowerCase()}-ws${String(keyNumber).padStart(2, '0')}`,
            }
          : {}),
      });
    }
    await db.insert(accounts).values(values);
  }
}

/** Solo licences: individuals licensed by the provider directly, each with its one account. */
export const DEMO_SOLO_ACCOUNTS = [
  { fullName: 'Dana Whitfield', emailAddress: 'dana.whitfield@freelance.test', type: 'pro' as const },
  { fullName: 'Tomás Herrera', emailAddress: 'tomas@herrera-consulting.test', type: 'enterprise' as const },
  { fullName: 'Yuki Sato', emailAddress: 'yuki.sato@automate.test', type: 'pro' as const },
];

export async function seedDemoSoloAccounts(db: Executor, now: number, signingKey: KeyObject) {
  for (const [index, solo] of DEMO_SOLO_ACCOUNTS.entries()) {
    const [license] = await db
      .insert(licenses)
      .values({
        companyId: null,
        tenantId: null,
        typeKey: solo.type,
        issueDate: now - (index + 1) * 30 * DAY,
        expirationDate: now + (200 + index * 60) * DAY,
        maxAccounts: 1,
      })
      .returning({ id: licenses.id });
    const { key, digest, partial } = newLicenseKey();
    await db.insert(accounts).values({
      licenseId: license!.id,
      tenantId: null,
      solo: true,
      keyDigest: digest,
      partialKey: partial,
      sealedKey: sealKey(key, signingKey),
      fullName: solo.fullName,
      emailAddress: solo.emailAddress,
      macAddresses: macsFor(900 + index, 2),
      hostname: `${solo.fullName.split(' ')[0]!.toLowerCase()}-laptop`,
      createdAt: now - (index + 1) * 30 * DAY,
    });
  }
}
