import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accounts, companies, licenses, licenseTypes } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';

/** Every key counts against the seats until it is deleted, invalidated ones too (docs/license-management.md). */
const keysInUse = sql<number>`(select count(*)::int from ${accounts} where ${accounts.licenseId} = ${licenses.id})`;

const licenseColumns = {
  id: licenses.id,
  companyId: licenses.companyId,
  tenantId: licenses.tenantId,
  companyName: companies.name,
  companyTenantId: companies.tenantId,
  typeKey: licenses.typeKey,
  typeName: licenseTypes.name,
  label: licenses.label,
  issueDate: licenses.issueDate,
  expirationDate: licenses.expirationDate,
  maxAccounts: licenses.maxAccounts,
  invalidatedAt: licenses.invalidatedAt,
  keysInUse,
};

export type LicenseRow = {
  id: number;
  companyId: number | null;
  tenantId: string | null;
  companyName: string | null;
  companyTenantId: string | null;
  typeKey: string;
  typeName: string;
  label: string;
  issueDate: number;
  expirationDate: number;
  maxAccounts: number;
  invalidatedAt: number | null;
  keysInUse: number;
};

/** Licences of the scope with their company, type name and keys in use, newest issue first (ties: newest id). */
export async function selectLicenses(db: Executor, scope: TenantScope, where: SQL | undefined): Promise<LicenseRow[]> {
  return db
    .select(licenseColumns)
    .from(licenses)
    .innerJoin(licenseTypes, eq(licenseTypes.key, licenses.typeKey))
    .leftJoin(companies, eq(companies.id, licenses.companyId))
    .where(and(where, inScope(licenses.tenantId, scope)))
    .orderBy(desc(licenses.issueDate), desc(licenses.id));
}

export const ofCompany = (companyId: number) => eq(licenses.companyId, companyId);
export const byId = (id: number) => eq(licenses.id, id);

/**
 * One licence of the scope, whatever its company (the service decides what the caller may know of
 * it; the provider's scope for licences is every tenant, see `licenceScope`).
 */
export async function findLicense(db: Executor, scope: TenantScope, id: number): Promise<LicenseRow | undefined> {
  const [row] = await selectLicenses(db, scope, byId(id));
  return row;
}

/**
 * The licence row locked until the transaction ends (SELECT … FOR UPDATE): key generations and
 * renewals of one licence take turns, so the seat count they read stays true until they commit.
 */
export async function lockLicense(tx: Executor, scope: TenantScope, id: number) {
  const [row] = await tx
    .select({
      id: licenses.id,
      companyId: licenses.companyId,
      maxAccounts: licenses.maxAccounts,
      expirationDate: licenses.expirationDate,
      invalidatedAt: licenses.invalidatedAt,
    })
    .from(licenses)
    .where(and(eq(licenses.id, id), inScope(licenses.tenantId, scope)))
    .for('update');
  return row;
}

/** The keys a licence of the scope has (invalidated ones included). */
export async function countKeys(db: Executor, scope: TenantScope, licenseId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(accounts)
    .where(and(eq(accounts.licenseId, licenseId), inScope(accounts.tenantId, scope)));
  return row?.count ?? 0;
}

export async function insertLicense(
  db: Executor,
  values: {
    companyId: number | null;
    tenantId: string | null;
    typeKey: string;
    label: string;
    issueDate: number;
    expirationDate: number;
    maxAccounts: number;
  },
): Promise<number> {
  const [row] = await db.insert(licenses).values(values).returning({ id: licenses.id });
  return row!.id;
}

/** The renewal: new expiration, allowed keys and label; a renewed licence is valid again. */
export async function renewLicense(
  db: Executor,
  scope: TenantScope,
  id: number,
  values: { expirationDate: number; maxAccounts: number; label: string },
) {
  await db
    .update(licenses)
    .set({ ...values, invalidatedAt: null })
    .where(and(eq(licenses.id, id), inScope(licenses.tenantId, scope)));
}

/** Invalidates a licence of the scope (kept: the first invalidation time stays). */
export async function invalidateLicense(db: Executor, scope: TenantScope, id: number, now: number) {
  await db
    .update(licenses)
    .set({ invalidatedAt: sql`coalesce(${licenses.invalidatedAt}, ${now})` })
    .where(and(eq(licenses.id, id), inScope(licenses.tenantId, scope)));
}

/** Deletes a licence of a company of the scope; its keys go with it (foreign key `on delete cascade`). */
export async function deleteLicense(db: Executor, scope: TenantScope, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(licenses)
    .where(and(eq(licenses.id, id), eq(licenses.companyId, companyId), inScope(licenses.tenantId, scope)))
    .returning({ id: licenses.id });
  return rows.length > 0;
}

/** Archives a solo licence's account: invalidated, and gone from the account lists. */
/** Archives (and invalidates) the licence's keys; answers those that were still working. */
export async function archiveKeysOf(db: Executor, scope: TenantScope, licenseId: number, now: number) {
  const before = await db
    .select({ id: accounts.id, partialKey: accounts.partialKey, invalidatedAt: accounts.invalidatedAt })
    .from(accounts)
    .where(and(eq(accounts.licenseId, licenseId), inScope(accounts.tenantId, scope), eq(accounts.archived, false)))
    .for('update');
  await db
    .update(accounts)
    .set({ invalidatedAt: sql`coalesce(${accounts.invalidatedAt}, ${now})`, archived: true })
    .where(and(eq(accounts.licenseId, licenseId), inScope(accounts.tenantId, scope)));
  return before.filter((key) => key.invalidatedAt === null).map(({ id, partialKey }) => ({ id, partialKey }));
}
