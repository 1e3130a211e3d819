import type { CompanySortField } from '@opsdeck/contract/companies';
import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, selectRows } from '../../db/client';
import {
  companies,
  departments,
  directories,
  executionLogs,
  industryTypes,
  licenses,
  licenseTypes,
  roles,
  schedules,
  statuses,
  tasks,
  users,
  workflows,
} from '../../db/schema';
import { type Anchor, anchorsQuery, pastAnchor } from '../../platform/list-anchors';
import { likePattern } from '../../platform/search';
import { inScope, type TenantScope } from '../../platform/tenancy';
import { databaseBlobStore } from '../workflows/blob-store';

const head = alias(users, 'head');

const companyColumns = {
  id: companies.id,
  tenantId: companies.tenantId,
  name: companies.name,
  emailAddress: companies.emailAddress,
  createdAt: companies.createdAt,
  industryKey: industryTypes.key,
  industryName: industryTypes.name,
  headId: head.id,
  headFirstName: head.firstName,
  headLastName: head.lastName,
  headEmailAddress: head.emailAddress,
};

export type CompanyRow = Awaited<ReturnType<typeof selectCompanies>>[number];

/** Companies of the scope with their industry and head, by a condition, in the order of their names. */
export async function selectCompanies(db: Executor, scope: TenantScope, where?: SQL) {
  return db
    .select(companyColumns)
    .from(companies)
    .innerJoin(industryTypes, eq(industryTypes.key, companies.industryTypeKey))
    .leftJoin(head, eq(head.id, companies.headId))
    .where(and(where, inScope(companies.tenantId, scope)))
    .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id));
}

export const byId = (id: number) => eq(companies.id, id);
export const byIds = (ids: readonly number[]) => inArray(companies.id, [...ids]);
export const byTenantIds = (tenantIds: readonly string[]) => inArray(companies.tenantId, [...tenantIds]);
export const byName = (name: string) => eq(sql`lower(${companies.name})`, name.trim().toLowerCase());

/**
 * The search of the companies table (spec section 2): the company's name, its head's first or
 * last name, or its industry, as a case-insensitive substring. The industries come from their
 * small table first; the name is served by the trigram index companies_name_trgm_idx, the head's
 * name by the users' (users_full_name_trgm_idx: heads are never archived).
 */
export async function searchCondition(db: Executor, search: string): Promise<SQL> {
  const pattern = likePattern(search);
  const industries = await db
    .select({ key: industryTypes.key })
    .from(industryTypes)
    .where(sql`lower(${industryTypes.name}) like ${pattern}`);
  return sql`(lower(${companies.name}) like ${pattern}
    or ${companies.headId} in (select ${users.id} from ${users}
      where ${users.archived} = false
        and lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern})
    ${
      industries.length
        ? sql`or ${inArray(
            companies.industryTypeKey,
            industries.map((row) => row.key),
          )}`
        : sql``
    })`;
}

const SORT_KEYS: Record<CompanySortField, SQL> = {
  name: sql`lower(${companies.name})`,
  head: sql`lower(${head.firstName} || ' ' || ${head.lastName})`,
  industry: sql`lower(${industryTypes.name})`,
};

/** The order a deep page seeks from anchors (platform/list-anchors.ts): the name, unique and never null. */
export const ANCHORED_SORTS: ReadonlySet<CompanySortField> = new Set(['name']);

/** Every ANCHOR_SPACING-th company by name, in `direction`. */
export async function companyAnchors(db: Executor, where: SQL | undefined, direction: 'asc' | 'desc') {
  const rows = db
    .select({ sortKey: sql`${SORT_KEYS.name}`.as('sort_key'), id: companies.id })
    .from(companies)
    .where(where)
    .getSQL();
  const anchors = await selectRows<Anchor>(db, anchorsQuery(rows, direction));
  return anchors.map((anchor) => ({ key: anchor.key, id: Number(anchor.id) }));
}

/**
 * One page of company ids, sorted (companies without a head last), ties by id; after `after`, an
 * anchor of the name order (companyAnchors), when given.
 */
export async function pageCompanyIds(
  db: Executor,
  where: SQL | undefined,
  sort: { field: CompanySortField; direction: 'asc' | 'desc' },
  limit: number,
  offset: number,
  after?: Anchor,
) {
  const order = sort.direction === 'desc' ? desc : asc;
  // Joined only for the order that reads them: by name, the walk of companies_name_lower_key
  // stops after one page.
  let query = db.select({ id: companies.id }).from(companies).$dynamic();
  if (sort.field === 'industry')
    query = query.innerJoin(industryTypes, eq(industryTypes.key, companies.industryTypeKey));
  if (sort.field === 'head') query = query.leftJoin(head, eq(head.id, companies.headId));
  const rows = await query
    .where(after ? and(where, pastAnchor(SORT_KEYS.name, companies.id, after, sort.direction)) : where)
    .orderBy(
      sort.field === 'head'
        ? sql`${SORT_KEYS.head} ${sql.raw(sort.direction)} nulls last`
        : order(SORT_KEYS[sort.field]),
      order(companies.id),
    )
    .limit(limit)
    .offset(offset);
  return rows.map((row) => row.id);
}

export async function countCompanies(db: Executor, where: SQL | undefined) {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(companies).where(where);
  return Number(row?.count ?? 0);
}

/**
 * The licence a company's card shows (spec section 2): of its licences not invalidated, the one
 * that runs longest. One row per company, for the companies asked.
 */
export async function currentLicenses(db: Executor, scope: TenantScope, companyIds: readonly number[]) {
  if (companyIds.length === 0) return [];
  return db
    .selectDistinctOn([licenses.companyId], {
      companyId: licenses.companyId,
      typeKey: licenses.typeKey,
      typeName: licenseTypes.name,
      issueDate: licenses.issueDate,
      expirationDate: licenses.expirationDate,
    })
    .from(licenses)
    .innerJoin(licenseTypes, eq(licenseTypes.key, licenses.typeKey))
    .where(
      and(
        inArray(licenses.companyId, [...companyIds]),
        isNull(licenses.invalidatedAt),
        inScope(licenses.tenantId, scope),
      ),
    )
    .orderBy(licenses.companyId, desc(licenses.expirationDate), desc(licenses.id));
}

export async function hasLicenses(db: Executor, scope: TenantScope, companyId: number) {
  const [row] = await db
    .select({ id: licenses.id })
    .from(licenses)
    .where(and(eq(licenses.companyId, companyId), inScope(licenses.tenantId, scope)))
    .limit(1);
  return row !== undefined;
}

export async function listIndustryTypes(db: Executor) {
  return db.select().from(industryTypes).orderBy(asc(industryTypes.name));
}

export async function industryExists(db: Executor, key: string) {
  const [row] = await db.select({ key: industryTypes.key }).from(industryTypes).where(eq(industryTypes.key, key));
  return row !== undefined;
}

export async function nameTaken(db: Executor, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(byName(name), exceptId === undefined ? undefined : sql`${companies.id} <> ${exceptId}`))
    .limit(1);
  return row !== undefined;
}

export async function insertCompany(db: Executor, values: { tenantId: string; name: string; industryTypeKey: string }) {
  const [row] = await db.insert(companies).values(values).returning({ id: companies.id });
  return row!.id;
}

export async function updateCompany(
  db: Executor,
  scope: TenantScope,
  id: number,
  values: { name: string; industryTypeKey: string; headId?: number },
) {
  await db
    .update(companies)
    .set(values)
    .where(and(eq(companies.id, id), inScope(companies.tenantId, scope)));
}

/**
 * Removes a company and everything of its tenant (spec section 4: companies are hard-deleted),
 * children before parents. A new area that keeps rows per tenant adds its table here. Licences
 * are not among them: a company with licences is refused before this runs.
 */
export async function deleteTenant(db: Executor, company: { id: number; tenantId: string }) {
  const { tenantId } = company;
  await db.update(companies).set({ headId: null }).where(eq(companies.id, company.id));
  // First the logs: each row below would otherwise clear its id in every log line before the cascade.
  await db.delete(executionLogs).where(eq(executionLogs.tenantId, tenantId));
  await db.delete(tasks).where(eq(tasks.tenantId, tenantId));
  await db.delete(statuses).where(eq(statuses.tenantId, tenantId));
  await db.delete(schedules).where(eq(schedules.tenantId, tenantId));
  // Workflows go with their versions; the directories' tree with its root; then the files no one holds.
  await db.delete(workflows).where(eq(workflows.tenantId, tenantId));
  await db.delete(directories).where(eq(directories.tenantId, tenantId));
  await databaseBlobStore.sweep(db);
  // Sessions, credentials, reset keys and role grants go with their users.
  const removed = await db.delete(users).where(eq(users.companyId, company.id)).returning({ id: users.id });
  await db.update(departments).set({ parentId: null }).where(eq(departments.tenantId, tenantId));
  await db.delete(departments).where(eq(departments.tenantId, tenantId));
  await db.delete(roles).where(eq(roles.tenantId, tenantId));
  await db.delete(companies).where(eq(companies.id, company.id));
  return removed.map((row) => row.id);
}

/**
 * The one company lookup every area uses: a company of the scope by its id, its tenant id or its
 * name (case-insensitive). A company outside the scope reads as missing.
 */
export async function findCompany(
  db: Executor,
  scope: TenantScope,
  key: { id: number } | { tenantId: string } | { name: string },
) {
  const [row] = await db
    .select({ id: companies.id, tenantId: companies.tenantId, headId: companies.headId, name: companies.name })
    .from(companies)
    .where(
      and(
        'id' in key
          ? eq(companies.id, key.id)
          : 'tenantId' in key
            ? eq(companies.tenantId, key.tenantId)
            : byName(key.name),
        inScope(companies.tenantId, scope),
      ),
    )
    .limit(1);
  return row;
}

/** Whether the user is one of the company's users (of the scope), not archived. */
export async function isActiveMember(db: Executor, scope: TenantScope, userId: number, companyId: number) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        eq(users.companyId, companyId),
        eq(users.archived, false),
        inScope(users.tenantId, scope),
      ),
    );
  return row !== undefined;
}

/** Whether the user heads a company of the scope. */
export async function headsCompany(db: Executor, scope: TenantScope, userId: number) {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.headId, userId), inScope(companies.tenantId, scope)))
    .limit(1);
  return row !== undefined;
}
