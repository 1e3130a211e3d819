import { randomUUID } from 'node:crypto';
import { type Authority, BUILT_IN_ROLES } from '@opsdeck/contract/authorities';
import type {
  Company,
  CompanyListQuery,
  CompanySortField,
  CreateCompany,
  IndustryType,
  UpdateCompany,
} from '@opsdeck/contract/companies';
import { type Page, parseSort } from '@opsdeck/contract/paging';
import { and, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { type RequestAuth, requireProvider } from '../../platform/access';
import { hasSqlState, SQLSTATE, violatedConstraint } from '../../platform/database-errors';
import { badRequest, conflict, notFound } from '../../platform/errors';
import type { EventBus, Resource } from '../../platform/events';
import { ANCHOR_SPACING, type Anchor, seekFrom } from '../../platform/list-anchors';
import { createListCounts, createListPages, ListCache } from '../../platform/list-counts';
import { hashPassword, requireAcceptablePassword } from '../../platform/passwords';
import { inIdOrder, likePattern } from '../../platform/search';
import { EVERY_TENANT, oneTenant, scopeOf, type TenantScope } from '../../platform/tenancy';
import { setPassword } from '../auth/queries';
import { assignRole, ensureBuiltInRole } from '../roles/queries';
import { completeName } from '../users/names';
import { emailTaken, insertUser } from '../users/queries';
import { ensureTreeRoot } from '../workflows/queries';
import * as q from './queries';

type LicenseSummary = Awaited<ReturnType<typeof q.currentLicenses>>[number];

function toCompany(row: q.CompanyRow, license: LicenseSummary | undefined): Company {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    emailAddress: row.emailAddress,
    industryType: { key: row.industryKey, name: row.industryName },
    head:
      row.headId !== null && row.headFirstName !== null && row.headLastName !== null && row.headEmailAddress !== null
        ? {
            id: row.headId,
            firstName: row.headFirstName,
            lastName: row.headLastName,
            completeName: completeName({ firstName: row.headFirstName, lastName: row.headLastName }),
            emailAddress: row.headEmailAddress,
          }
        : null,
    license: license
      ? {
          type: { key: license.typeKey as 'pro' | 'enterprise', name: license.typeName },
          issueDate: license.issueDate,
          expirationDate: license.expirationDate,
        }
      : null,
  };
}

/** Rows with their current licences (read in the caller's licence scope), with one more query. */
async function withLicenses(db: Executor, scope: TenantScope, rows: q.CompanyRow[]): Promise<Company[]> {
  const licenses = await q.currentLicenses(
    db,
    scope,
    rows.map((row) => row.id),
  );
  const byCompany = new Map(licenses.map((license) => [license.companyId, license]));
  return rows.map((row) => toCompany(row, byCompany.get(row.id)));
}

/**
 * What the companies table's count, anchors and pages depend on: the companies (made, renamed,
 * deleted) and their heads' names, which the search and the order by head read (a user edited).
 */
const LIST_DEPENDS_ON: readonly Resource[] = ['companies', 'users'];

/** Whether the head's role (Company Administrator) holds ADMIN_ACCESS_LEVEL: the password rule's 12 characters. */
const HEAD_IS_ADMIN = (BUILT_IN_ROLES.COMPANY_ADMINISTRATOR.authorities as readonly Authority[]).includes(
  'ADMIN_ACCESS_LEVEL',
);
const NAME_DUPLICATE = () => conflict('ERROR_COMPANY_NAME_DUPLICATE', { name: 'ERROR_COMPANY_NAME_DUPLICATE' });
const EMAIL_DUPLICATE = () =>
  conflict('ERROR_COMPANY_EMAIL_DUPLICATE', { 'head.emailAddress': 'ERROR_COMPANY_EMAIL_DUPLICATE' });

export type CompaniesService = ReturnType<typeof createCompaniesService>;

/**
 * Companies (spec sections 2 to 8): the provider creates, edits and deletes them; a company's
 * own users read only their company. A company comes with its head, its Company Administrator,
 * and goes with its whole tenant.
 */
export function createCompaniesService(deps: { db: Db; events: EventBus }) {
  const { db, events } = deps;
  /** The table's exact totals and deep pages' anchors (docs/performance.md, "Lists at 500 requests a second"). */
  const counts = createListCounts(events, LIST_DEPENDS_ON);
  const anchors = new ListCache<Anchor[]>(events, { dependsOn: LIST_DEPENDS_ON });
  const pages = createListPages(events, LIST_DEPENDS_ON);

  /**
   * The scope of the companies (and their licences) a caller reads: every company for admins,
   * whichever tenant they picked; their own for anyone else.
   */
  const seen = (caller: RequestAuth): TenantScope => (caller.isAdmin ? EVERY_TENANT : scopeOf(caller));

  /** What the caller may see: every company for admins, their own for anyone else. */
  function visible(caller: RequestAuth): SQL | undefined | null {
    if (caller.isAdmin) return undefined;
    return caller.companyId === null ? null : q.byId(caller.companyId);
  }

  async function get(caller: RequestAuth, id: number): Promise<Company> {
    const scope = visible(caller);
    const [row] = scope === null ? [] : await q.selectCompanies(db, seen(caller), and(q.byId(id), scope));
    if (!row) throw notFound('ERROR_COMPANY_NOT_EXIST');
    const [company] = await withLicenses(db, seen(caller), [row]);
    return company!;
  }

  async function checkIndustry(key: string) {
    if (!(await q.industryExists(db, key)))
      throw badRequest('ERROR_COMPANY_INDUSTRY_INVALID', { industryType: 'ERROR_COMPANY_INDUSTRY_INVALID' });
  }

  /** Two requests racing past the checks: the unique indexes decide, with the same keys. */
  async function uniquely<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!hasSqlState(error, SQLSTATE.uniqueViolation)) throw error;
      throw violatedConstraint(error) === 'users_email_lower_key' ? EMAIL_DUPLICATE() : NAME_DUPLICATE();
    }
  }

  return {
    get,

    /**
     * GET /api/company: the spec's plain array (the company selectors), or with `page` one page
     * of the companies table, searched and sorted on the server.
     */
    async list(caller: RequestAuth, query: CompanyListQuery): Promise<Company[] | Page<Company>> {
      const scope = visible(caller);
      if (scope === null)
        return query.page === undefined ? [] : { items: [], total: 0, page: query.page, size: query.size };
      const where = and(scope, query.search ? await q.searchCondition(db, query.search) : undefined);
      if (query.page === undefined)
        return withLicenses(db, seen(caller), await q.selectCompanies(db, seen(caller), where));
      const parsed = parseSort(query.sort);
      const sort = { field: (parsed?.field ?? 'name') as CompanySortField, direction: parsed?.direction ?? 'asc' };
      const offset = (query.page - 1) * query.size;
      // Admins see every company whichever tenant they picked; the others their own company.
      const kept = seen(caller);
      const filter = {
        company: caller.isAdmin ? null : caller.companyId,
        search: query.search ? likePattern(query.search) : null,
      };
      const total = await counts.get(kept, filter, () => q.countCompanies(db, where));
      // A deep page by name seeks past the nearest anchor instead of skipping rows.
      const seek =
        offset >= ANCHOR_SPACING && offset < total && q.ANCHORED_SORTS.has(sort.field)
          ? seekFrom(
              await anchors.get(kept, { filter, direction: sort.direction }, () =>
                q.companyAnchors(db, where, sort.direction),
              ),
              offset,
            )
          : { after: undefined, skip: offset };
      const ids =
        offset < total
          ? await pages.get(kept, { filter, sort, offset, size: query.size }, () =>
              q.pageCompanyIds(db, where, sort, query.size, seek.skip, seek.after),
            )
          : [];
      const rows = ids.length ? await q.selectCompanies(db, kept, q.byIds(ids)) : [];
      return { items: await withLicenses(db, kept, inIdOrder(ids, rows)), total, page: query.page, size: query.size };
    },

    /** GET /api/company/find-by-name/{name}: the company of that name (case-insensitive). */
    async findByName(caller: RequestAuth, name: string): Promise<Company> {
      const scope = visible(caller);
      const [row] = scope === null ? [] : await q.selectCompanies(db, seen(caller), and(q.byName(name), scope));
      if (!row) throw notFound('ERROR_COMPANY_NOT_EXIST');
      const [company] = await withLicenses(db, seen(caller), [row]);
      return company!;
    },

    /**
     * POST /api/company: the company, its built-in roles and its head (a Company Administrator
     * who signs in with the e-mail and password given), in one transaction.
     */
    async create(caller: RequestAuth, body: CreateCompany): Promise<Company> {
      requireProvider(caller);
      await checkIndustry(body.industryType);
      if (await q.nameTaken(db, body.name)) throw NAME_DUPLICATE();
      if (await emailTaken(db, body.head.emailAddress)) throw EMAIL_DUPLICATE();
      // The password rule (docs/security.md): the head's role decides whether 8 or 12 characters.
      await requireAcceptablePassword(body.head.credential.newPassword, {
        admin: HEAD_IS_ADMIN,
        person: body.head,
        field: 'head.credential.newPassword',
      });
      const passwordHash = await hashPassword(body.head.credential.newPassword);
      const tenantId = randomUUID();
      const id = await uniquely(() =>
        db.transaction(async (tx) => {
          const companyId = await q.insertCompany(tx, {
            tenantId,
            name: body.name,
            industryTypeKey: body.industryType,
          });
          const adminRoleId = await ensureBuiltInRole(tx, tenantId, 'COMPANY_ADMINISTRATOR');
          await ensureBuiltInRole(tx, tenantId, 'DEPARTMENT_HEAD');
          await ensureBuiltInRole(tx, tenantId, 'EMPLOYEE');
          await ensureTreeRoot(tx, tenantId);
          const headId = await insertUser(tx, {
            tenantId,
            companyId,
            departmentId: null,
            firstName: body.head.firstName,
            lastName: body.head.lastName,
            emailAddress: body.head.emailAddress,
          });
          await setPassword(tx, headId, passwordHash, Date.now());
          await assignRole(tx, headId, adminRoleId);
          await q.updateCompany(tx, oneTenant(tenantId), companyId, {
            name: body.name,
            industryTypeKey: body.industryType,
            headId,
          });
          return companyId;
        }),
      );
      events.publish({ resource: 'companies', kind: 'created', ids: [id], tenantId });
      return get(caller, id);
    },

    /** PUT /api/company/{id}: name, industry and head; the head is one of the company's own users. */
    async update(caller: RequestAuth, id: number, body: UpdateCompany): Promise<Company> {
      requireProvider(caller);
      // The provider edits any company, whichever it acts on (X-Tenant-Id), as it lists them all.
      const company = await q.findCompany(db, EVERY_TENANT, { id });
      if (!company) throw notFound('ERROR_COMPANY_NOT_EXIST');
      await checkIndustry(body.industryType);
      if (await q.nameTaken(db, body.name, id)) throw NAME_DUPLICATE();
      const own = oneTenant(company.tenantId);
      // A head of another company, an archived user or no user at all: refused alike.
      if (!(await q.isActiveMember(db, own, body.headId, id)))
        throw badRequest('ERROR_COMPANY_HEAD_INVALID', { headId: 'ERROR_COMPANY_HEAD_INVALID' });
      await uniquely(() =>
        q.updateCompany(db, own, id, { name: body.name, industryTypeKey: body.industryType, headId: body.headId }),
      );
      events.publish({ resource: 'companies', kind: 'updated', ids: [id], tenantId: company.tenantId });
      return get(caller, id);
    },

    /**
     * DELETE /api/company/{id}: refused while the company has licences; otherwise the company and
     * everything of its tenant go in one transaction, so its users can no longer sign in.
     */
    async remove(caller: RequestAuth, id: number): Promise<void> {
      requireProvider(caller);
      const company = await q.findCompany(db, scopeOf(caller), { id });
      if (!company) throw notFound('ERROR_COMPANY_NOT_EXIST');
      const userIds = await db
        .transaction(async (tx) => {
          // The licence check and the delete see the same rows: a licence added meanwhile fails the
          // delete on its foreign key, answered below with the same key.
          if (await q.hasLicenses(tx, seen(caller), id)) throw conflict('ERROR_COMPANY_HAS_LICENSE');
          return q.deleteTenant(tx, company);
        })
        .catch((error: unknown) => {
          if (hasSqlState(error, SQLSTATE.foreignKeyViolation)) throw conflict('ERROR_COMPANY_HAS_LICENSE');
          throw error;
        });
      events.publish({ resource: 'users', kind: 'deleted', ids: userIds, tenantId: company.tenantId });
      events.publish({ resource: 'companies', kind: 'deleted', ids: [id], tenantId: company.tenantId });
    },

    industryTypes: (): Promise<IndustryType[]> => q.listIndustryTypes(db),
  };
}
