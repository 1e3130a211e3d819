import { asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { companies, industryTypes, users } from '../../db/schema';

const head = alias(users, 'head');

const companyColumns = {
  id: companies.id,
  tenantId: companies.tenantId,
  name: companies.name,
  emailAddress: companies.emailAddress,
  industryKey: industryTypes.key,
  industryName: industryTypes.name,
  headId: head.id,
  headFirstName: head.firstName,
  headLastName: head.lastName,
  headEmailAddress: head.emailAddress,
};

export type CompanyRow = Awaited<ReturnType<typeof listCompanies>>[number];

/** Companies with their industry and head; `companyId` narrows to one (a tenant's own). */
export async function listCompanies(db: Executor, companyId?: number) {
  const query = db
    .select(companyColumns)
    .from(companies)
    .innerJoin(industryTypes, eq(industryTypes.key, companies.industryTypeKey))
    .leftJoin(head, eq(head.id, companies.headId))
    .orderBy(asc(companies.name))
    .$dynamic();
  return companyId === undefined ? query : query.where(eq(companies.id, companyId));
}

export async function listIndustryTypes(db: Executor) {
  return db.select().from(industryTypes).orderBy(asc(industryTypes.name));
}

/** The one company lookup every area uses: by its id or by its tenant id. */
export async function findCompany(db: Executor, key: { id: number } | { tenantId: string }) {
  const [row] = await db
    .select({ id: companies.id, tenantId: companies.tenantId, headId: companies.headId })
    .from(companies)
    .where('id' in key ? eq(companies.id, key.id) : eq(companies.tenantId, key.tenantId))
    .limit(1);
  return row;
}

/** Whether the user heads a company. */
export async function headsCompany(db: Executor, userId: number) {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.headId, userId)).limit(1);
  return row !== undefined;
}
