import type { AccountSortField } from '@opsdeck/contract/accounts';
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { accounts, companies, licenses, licenseTypes } from '../../db/schema';
import { orEmpty } from '../../db/schema/columns';
import { type Anchor, anchorsQuery, pastAnchor } from '../../platform/list-anchors';
import { containsPattern, likePattern } from '../../platform/search';
import { inScope, type TenantScope } from '../../platform/tenancy';

const accountColumns = {
  id: accounts.id,
  solo: accounts.solo,
  tenantId: accounts.tenantId,
  partialKey: accounts.partialKey,
  departmentId: accounts.departmentId,
  departmentName: accounts.departmentName,
  fullName: accounts.fullName,
  emailAddress: accounts.emailAddress,
  macAddresses: accounts.macAddresses,
  hostname: accounts.hostname,
  hasFile: sql<boolean>`${accounts.sealedKey} is not null`,
  invalidatedAt: accounts.invalidatedAt,
  createdAt: accounts.createdAt,
  licenseId: licenses.id,
  licenseTypeKey: licenses.typeKey,
  licenseTypeName: licenseTypes.name,
  licenseLabel: licenses.label,
  expirationDate: licenses.expirationDate,
  licenseInvalidatedAt: licenses.invalidatedAt,
  companyId: companies.id,
  companyName: companies.name,
  companyTenantId: companies.tenantId,
};

export type AccountRow = Awaited<ReturnType<typeof selectAccounts>>[number];

/** Accounts of the scope with their licence, licence type and company, by a condition, in id order (or newest first). */
export async function selectAccounts(db: Executor, scope: TenantScope, where: SQL | undefined, newestFirst = false) {
  return db
    .select(accountColumns)
    .from(accounts)
    .innerJoin(licenses, eq(licenses.id, accounts.licenseId))
    .innerJoin(licenseTypes, eq(licenseTypes.key, licenses.typeKey))
    .leftJoin(companies, eq(companies.id, licenses.companyId))
    .where(and(where, inScope(accounts.tenantId, scope)))
    .orderBy(newestFirst ? desc(accounts.id) : asc(accounts.id));
}

export const ofLicense = (licenseId: number) => eq(accounts.licenseId, licenseId);
export const byIds = (ids: readonly number[]) => inArray(accounts.id, [...ids]);
export const inTenantScope = (scope: TenantScope) => inScope(accounts.tenantId, scope);
export const soloAccounts = and(eq(accounts.solo, true), eq(accounts.archived, false));

/** One key of the scope, with the sealed key (for its licence file). */
export async function findKey(db: Executor, scope: TenantScope, where: SQL | undefined) {
  const [row] = await db
    .select({ ...accountColumns, sealedKey: accounts.sealedKey })
    .from(accounts)
    .innerJoin(licenses, eq(licenses.id, accounts.licenseId))
    .innerJoin(licenseTypes, eq(licenseTypes.key, licenses.typeKey))
    .leftJoin(companies, eq(companies.id, licenses.companyId))
    .where(and(where, inScope(accounts.tenantId, scope)))
    .limit(1);
  return row;
}

export const keyOfLicense = (licenseId: number, accountId: number) =>
  and(eq(accounts.id, accountId), eq(accounts.licenseId, licenseId));

export async function insertKey(
  db: Executor,
  values: {
    licenseId: number;
    tenantId: string | null;
    solo: boolean;
    departmentId: number | null;
    departmentName: string | null;
    keyDigest: string;
    partialKey: string;
    sealedKey: Uint8Array | null;
    fullName: string | null;
    emailAddress: string | null;
    macAddresses: string[];
    hostname: string | null;
    createdBy: number;
  },
): Promise<number> {
  const [row] = await db.insert(accounts).values(values).returning({ id: accounts.id });
  return row!.id;
}

/** Invalidates a key of a licence of the scope (the first invalidation time stays); false when there is none. */
export async function invalidateKey(
  db: Executor,
  scope: TenantScope,
  licenseId: number,
  accountId: number,
  now: number,
) {
  const rows = await db
    .update(accounts)
    .set({ invalidatedAt: sql`coalesce(${accounts.invalidatedAt}, ${now})` })
    .where(and(keyOfLicense(licenseId, accountId), inScope(accounts.tenantId, scope)))
    .returning({ id: accounts.id });
  return rows.length > 0;
}

/** Deletes a key of a licence of the scope: its seat is free again. False when there was none. */
export async function deleteKey(db: Executor, scope: TenantScope, licenseId: number, accountId: number) {
  const rows = await db
    .delete(accounts)
    .where(and(keyOfLicense(licenseId, accountId), inScope(accounts.tenantId, scope)))
    .returning({ id: accounts.id });
  return rows.length > 0;
}

// The accounts page (GET /api/account): paged, sorted and searched in the database.

const fullNameKey = sql`lower(${orEmpty(accounts.fullName)})`;
const emailKey = sql`lower(${orEmpty(accounts.emailAddress)})`;

/** Only what looks like part of a MAC address (hex pairs and separators) is matched against them. */
const MAC_LIKE = /^(?=.*[0-9a-f])[0-9a-f:-]{2,17}$/i;
/** Only what could be part of a partial key (`ODK-7F3Q-…-XW2D`) is matched against them. */
const KEY_LIKE = /^[0-9A-Z…-]+$/i;

export type AccountSearch = {
  scope: TenantScope;
  search?: {
    pattern: string;
    tenantIds: string[];
    mac: { compact: string; exact: string } | null;
    keyPattern: string | null;
  };
};

/**
 * The search (full name, e-mail, any MAC address, company name, partial key; case-insensitive
 * substring) starts with the small table: the tenants of the companies whose name matches. Names
 * and e-mails are served by their trigram indexes; MAC addresses and partial keys, which have
 * none, are only tested when the text could be part of one (docs/license-management.md).
 */
export async function resolveAccountSearch(db: Executor, scope: TenantScope, search: string | undefined) {
  if (!search) return { scope } satisfies AccountSearch;
  const pattern = likePattern(search);
  const tenantIds = (
    await db
      .select({ tenantId: companies.tenantId })
      .from(companies)
      .where(and(sql`lower(${companies.name}) like ${pattern}`, inScope(companies.tenantId, scope)))
  ).map((row) => row.tenantId);
  const macText = search.toUpperCase().replaceAll('-', ':');
  // The index holds the addresses without colons; the exact pattern then keeps the colons' places.
  const mac = MAC_LIKE.test(search)
    ? { compact: containsPattern(macText.replaceAll(':', '')), exact: containsPattern(macText) }
    : null;
  const keyPattern = KEY_LIKE.test(search) ? containsPattern(search.toUpperCase()) : null;
  return { scope, search: { pattern, tenantIds, mac, keyPattern } } satisfies AccountSearch;
}

/** The WHERE of the accounts page: the scope, no archived solo account, and the search. */
export function accountCondition(scope: AccountSearch): SQL {
  const conditions: (SQL | undefined)[] = [
    inScope(accounts.tenantId, scope.scope),
    // An archived solo account is hidden (the partial indexes hold only the others).
    eq(accounts.archived, false),
  ];
  const { search } = scope;
  if (search) {
    conditions.push(
      or(
        sql`${fullNameKey} like ${search.pattern}`,
        sql`${emailKey} like ${search.pattern}`,
        search.tenantIds.length ? inArray(accounts.tenantId, search.tenantIds) : undefined,
        search.mac
          ? sql`(mac_compact(${accounts.macAddresses}) like ${search.mac.compact}
              and array_to_string(${accounts.macAddresses}, ',') like ${search.mac.exact})`
          : undefined,
        search.keyPattern ? sql`${accounts.partialKey} like ${search.keyPattern}` : undefined,
      ),
    );
  }
  return and(...conditions)!;
}

export async function countAccounts(db: Executor, scope: AccountSearch) {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(accounts).where(accountCondition(scope));
  return Number(row?.count ?? 0);
}

const SORT_KEYS: Record<AccountSortField, SQL> = {
  type: sql`${accounts.solo}`,
  fullName: fullNameKey,
  email: emailKey,
  expiration: sql`${licenses.expirationDate}`,
};

/**
 * What makes two resolved searches list the same accounts, as the page's count and anchors are
 * kept under (platform/list-counts.ts): the patterns and the companies' tenants the text resolved
 * to, so that a company renamed changes the key rather than needing an event.
 */
export const filterKey = (scope: AccountSearch) => scope.search ?? null;

/**
 * The orders a deep page seeks from anchors (platform/list-anchors.ts): the full name and the
 * e-mail, never null (coalesced) and indexed with the id. The type and expiration orders stay on
 * OFFSET.
 */
export const ANCHORED_SORTS: ReadonlySet<AccountSortField> = new Set(['fullName', 'email']);

/** Every ANCHOR_SPACING-th account of an anchored order (see ANCHORED_SORTS). */
export async function accountAnchors(
  db: Executor,
  scope: AccountSearch,
  sort: { field: AccountSortField; direction: 'asc' | 'desc' },
): Promise<Anchor[]> {
  const rows = db
    .select({ sortKey: sql`${SORT_KEYS[sort.field]}`.as('sort_key'), id: accounts.id })
    .from(accounts)
    .where(accountCondition(scope))
    .getSQL();
  const anchors = await selectRows<Anchor>(db, anchorsQuery(rows, sort.direction));
  return anchors.map((anchor) => ({ key: anchor.key, id: Number(anchor.id) }));
}

/**
 * One page of account ids, sorted, ties broken by id; the rows are then read for these few. The
 * full name has an index in that order (accounts_full_name_idx), so the default page stops early;
 * a deep page starts after `after`, an anchor of its order (accountAnchors), when given.
 */
export async function pageAccountIds(
  db: Executor,
  scope: AccountSearch,
  sort: { field: AccountSortField; direction: 'asc' | 'desc' },
  limit: number,
  offset: number,
  after?: Anchor,
) {
  const order = sort.direction === 'desc' ? desc : asc;
  let query = db.select({ id: accounts.id }).from(accounts).$dynamic();
  if (sort.field === 'expiration') query = query.innerJoin(licenses, eq(licenses.id, accounts.licenseId));
  const condition = accountCondition(scope);
  const rows = await query
    .where(after ? and(condition, pastAnchor(SORT_KEYS[sort.field], accounts.id, after, sort.direction)) : condition)
    .orderBy(order(SORT_KEYS[sort.field]), order(accounts.id))
    .limit(limit)
    .offset(offset);
  return rows.map((row) => row.id);
}
