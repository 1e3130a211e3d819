import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import type { Authority } from '@opsdeck/contract/authorities';
import { type Page, parseSort } from '@opsdeck/contract/paging';
import type { RegisterUser, UpdateUser, User, UserListQuery, UserSortField } from '@opsdeck/contract/users';
import { and, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { currentAudit } from '../../platform/audit';
import { hasSqlState, SQLSTATE } from '../../platform/database-errors';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import type { EventBus, Resource } from '../../platform/events';
import { ANCHOR_SPACING, type Anchor, seekFrom } from '../../platform/list-anchors';
import { createListCounts, createListPages, ListCache } from '../../platform/list-counts';
import { hashPassword, requireAcceptablePassword } from '../../platform/passwords';
import { inIdOrder } from '../../platform/search';
import { EVERY_TENANT, oneTenant, scopeOf, type TenantScope } from '../../platform/tenancy';
import { setPassword } from '../auth/queries';
import { findCompany, headsCompany } from '../companies/queries';
import { manageableDepartmentIds } from '../departments/access';
import { findDepartment, headsDepartment } from '../departments/queries';
import { findRolesWithAuthorities } from '../roles/queries';
import type { WebhookOutbox } from '../webhooks/service';
import { completeName } from './names';
import * as q from './queries';

/** Up to this many matches, a search's page is sorted from its matches (measured: bench/users-list.mjs). */
const COLLECT_FIRST_LIMIT = 5000;

/**
 * What the users list's count and anchors depend on: the users themselves (registered, edited,
 * archived, deleted with their company) and their roles (a role deleted takes its grants). Names
 * the search matches in departments, companies and roles are part of the key instead (filterKey).
 */
const LIST_DEPENDS_ON: readonly Resource[] = ['users', 'roles', 'companies'];
/** A page's rows and order depend on the departments too: a department renamed moves its users in that order. */
const PAGES_DEPEND_ON: readonly Resource[] = [...LIST_DEPENDS_ON, 'departments'];

function toUser(row: q.UserRow, groups: { id: number; name: string }[], viewerId: number): User {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    completeName: completeName(row),
    emailAddress: row.emailAddress,
    departmentId: row.departmentId,
    displayDepartment: row.departmentName,
    groups,
    displayGroups: groups.map((group) => group.name).join(', '),
    companyId: row.companyId,
    companyName: row.companyName,
    tenantId: row.tenantId,
    archived: row.archived,
    deletable: !row.archived && row.id !== viewerId && !row.isHead,
  };
}

/** Rows plus their roles, read with one more query over the same condition. */
async function withRoles(
  db: Executor,
  scope: TenantScope,
  rows: q.UserRow[],
  where: SQL | undefined,
  viewerId: number,
): Promise<User[]> {
  if (rows.length === 0) return [];
  const roles = await q.selectUserRoles(db, scope, where);
  const byUser = new Map<number, { id: number; name: string }[]>();
  for (const role of roles) {
    const list = byUser.get(role.userId) ?? [];
    list.push({ id: role.id, name: role.name });
    byUser.set(role.userId, list);
  }
  return rows.map((row) => toUser(row, byUser.get(row.id) ?? [], viewerId));
}

/**
 * No privilege escalation: a company user may only give (or take away) a role whose authorities
 * they hold. DEPARTMENT_ACCESS_LEVEL is a restriction (it ties a user to a department), not a
 * power: the company head does not hold it yet gives it with every Employee role.
 */
function withinAuthorities(roleAuthorities: readonly string[], held: ReadonlySet<Authority>) {
  return roleAuthorities.every((key) => key === 'DEPARTMENT_ACCESS_LEVEL' || held.has(key as Authority));
}

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(deps: { db: Db; events: EventBus; outbox: WebhookOutbox }) {
  const { db, events, outbox } = deps;
  /** The list's exact totals and deep pages' anchors (docs/performance.md, "Lists at 500 requests a second"). */
  const counts = createListCounts(events, LIST_DEPENDS_ON);
  const anchors = new ListCache<Anchor[]>(events, { dependsOn: LIST_DEPENDS_ON });
  const pages = createListPages(events, PAGES_DEPEND_ON);

  /** The signed-in user's own profile, read in their own tenant (whatever company an administrator acts on). */
  async function currentUserProfile(caller: Pick<RequestAuth, 'userId' | 'ownTenantId'>): Promise<CurrentUserProfile> {
    const own = caller.ownTenantId === null ? EVERY_TENANT : oneTenant(caller.ownTenantId);
    const row = await q.findProfile(db, own, caller.userId);
    if (!row) throw notFound('ERROR_USER_NOT_EXIST');
    const name = completeName(row);
    return {
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      completeName: name,
      fullName: name,
      emailAddress: row.emailAddress,
      tenantId: row.tenantId,
      auths: row.auths,
      company:
        row.companyId !== null && row.companyName !== null && row.companyTenantId !== null
          ? { id: row.companyId, name: row.companyName, tenantId: row.companyTenantId }
          : null,
      department:
        row.departmentId !== null && row.departmentName !== null
          ? { id: row.departmentId, name: row.departmentName }
          : null,
    };
  }

  async function usersWhere(caller: RequestAuth, where: SQL | undefined) {
    const scope = scopeOf(caller);
    return withRoles(db, scope, await q.selectUsers(db, scope, where, true), where, caller.userId);
  }

  /** GET /api/user/get-user-list: the spec's plain array, or with `page` a server-side page. */
  async function list(caller: RequestAuth, query: UserListQuery): Promise<User[] | Page<User>> {
    const scope = await q.resolveUserScope(db, scopeOf(caller), query.search || undefined);
    if (query.page === undefined) return usersWhere(caller, q.scopeCondition(scope));
    const parsed = parseSort(query.sort);
    const sort = { field: (parsed?.field ?? 'fullName') as UserSortField, direction: parsed?.direction ?? 'asc' };
    const offset = (query.page - 1) * query.size;
    const filter = q.filterKey(scope);
    const total = await counts.get(scope.scope, filter, () => q.countUsers(db, scope));
    // The count tells how to fetch the page: nothing past the end, and a rare search's matches
    // collected before sorting (see pageUserIdsQuery).
    const collectFirst = scope.search !== undefined && total <= COLLECT_FIRST_LIMIT;
    // A deep page of an anchored order seeks past the nearest anchor instead of skipping rows.
    const seek =
      offset >= ANCHOR_SPACING && offset < total && !collectFirst && q.ANCHORED_SORTS.has(sort.field)
        ? seekFrom(await anchors.get(scope.scope, { filter, sort }, () => q.userAnchors(db, scope, sort)), offset)
        : { after: undefined, skip: offset };
    const ids =
      offset < total
        ? await pages.get(scope.scope, { filter, sort, offset, size: query.size }, () =>
            q.pageUserIds(db, scope, sort, query.size, seek.skip, collectFirst, seek.after),
          )
        : [];
    const found = ids.length ? await q.selectUsersWithRoles(db, scope.scope, q.byIds(ids)) : [];
    const items = inIdOrder(ids, found).map((row) => toUser(row, row.groups, caller.userId));
    return { items, total, page: query.page, size: query.size };
  }

  async function get(caller: RequestAuth, id: number): Promise<User> {
    const row = await q.findUser(db, scopeOf(caller), id);
    if (!row) throw notFound('ERROR_USER_NOT_EXIST');
    const [user] = await withRoles(db, scopeOf(caller), [row], q.byIds([row.id]), caller.userId);
    return user!;
  }

  /**
   * The department and roles a user is given: both of the user's tenant (a foreign or archived
   * one reads as missing, 404), the department required when a role holds
   * DEPARTMENT_ACCESS_LEVEL, and no privilege escalation: a company user may only give or take
   * away roles whose authorities they hold themselves (403 ERROR_USER_ROLE_NOT_ALLOWED).
   */
  async function checkAssignment(
    caller: RequestAuth,
    tenantId: string | null,
    departmentId: number | null | undefined,
    groups: readonly number[],
    fields: { department: string },
    previousRoleIds: readonly number[] = [],
  ) {
    const wanted = [...new Set(groups)];
    const roles = await findRolesWithAuthorities(db, wanted, tenantId);
    if (roles.length !== wanted.length)
      throw new AppError(404, 'ERROR_ROLE_NOT_EXIST', { groups: 'ERROR_ROLE_NOT_EXIST' });
    if (!departmentId && roles.some((role) => role.authorities.includes('DEPARTMENT_ACCESS_LEVEL'))) {
      throw badRequest('ERROR_USER_DEPARTMENT_REQUIRED', { [fields.department]: 'ERROR_USER_DEPARTMENT_REQUIRED' });
    }
    if (departmentId && (tenantId === null || !(await findDepartment(db, oneTenant(tenantId), departmentId)))) {
      throw new AppError(404, 'ERROR_DEPARTMENT_NOT_EXIST', { [fields.department]: 'ERROR_DEPARTMENT_NOT_EXIST' });
    }
    if (!caller.isAdmin) {
      const changed = [
        ...wanted.filter((id) => !previousRoleIds.includes(id)),
        ...previousRoleIds.filter((id) => !wanted.includes(id)),
      ];
      const changedRoles = changed.length ? await findRolesWithAuthorities(db, changed, tenantId) : [];
      // A role the caller cannot see (another tenant's) is refused too: it cannot be in `changedRoles`.
      if (
        changedRoles.length !== changed.length ||
        changedRoles.some((role) => !withinAuthorities(role.authorities, caller.authorities))
      ) {
        throw forbidden('ERROR_USER_ROLE_NOT_ALLOWED');
      }
    }
    return { roleIds: wanted, admin: roles.some((role) => role.authorities.includes('ADMIN_ACCESS_LEVEL')) };
  }

  /** POST /api/user/register: company users register in their own company; admins name one. */
  async function register(caller: RequestAuth, body: RegisterUser): Promise<User> {
    let company: { id: number; tenantId: string } | undefined;
    if (caller.isAdmin) {
      const companyId = body.companyId ?? caller.tenantCompanyId;
      if (!companyId) throw badRequest('ERROR_COMPANY_REQUIRED', { companyId: 'ERROR_COMPANY_REQUIRED' });
      // The provider registers in the company it names, whichever it acts on (X-Tenant-Id).
      company = await findCompany(db, EVERY_TENANT, { id: companyId });
      if (!company) throw new AppError(404, 'ERROR_COMPANY_NOT_EXIST', { companyId: 'ERROR_COMPANY_NOT_EXIST' });
    } else {
      company =
        caller.companyId === null ? undefined : await findCompany(db, scopeOf(caller), { id: caller.companyId });
      if (!company) throw forbidden();
    }
    const { roleIds: groups, admin } = await checkAssignment(caller, company.tenantId, body.departmentId, body.groups, {
      department: 'departmentId',
    });
    if (await q.emailTaken(db, body.emailAddress)) {
      throw conflict('ERROR_USER_EMAIL_ALREADY_USED', { emailAddress: 'ERROR_USER_EMAIL_ALREADY_USED' });
    }
    // The password rule (docs/security.md): 12 characters when a role given holds ADMIN_ACCESS_LEVEL.
    await requireAcceptablePassword(body.credential.newPassword, {
      admin,
      person: body,
      field: 'credential.newPassword',
    });
    const passwordHash = await hashPassword(body.credential.newPassword);
    let id: number;
    try {
      id = await db.transaction(async (tx) => {
        const userId = await q.insertUser(tx, {
          tenantId: company.tenantId,
          companyId: company.id,
          departmentId: body.departmentId ?? null,
          firstName: body.firstName,
          lastName: body.lastName,
          emailAddress: body.emailAddress,
        });
        await setPassword(tx, userId, passwordHash, Date.now());
        await q.replaceUserRoles(tx, oneTenant(company.tenantId), userId, groups);
        return userId;
      });
    } catch (error) {
      // Two registrations of one e-mail at once: the unique index decides.
      if (hasSqlState(error, SQLSTATE.uniqueViolation)) {
        throw conflict('ERROR_USER_EMAIL_ALREADY_USED', { emailAddress: 'ERROR_USER_EMAIL_ALREADY_USED' });
      }
      throw error;
    }
    events.publish({ resource: 'users', kind: 'created', ids: [id], tenantId: company.tenantId });
    await outbox.emit('user.created', company.tenantId, {
      user: { id, firstName: body.firstName, lastName: body.lastName, emailAddress: body.emailAddress },
    });
    return get({ ...caller, tenantId: company.tenantId }, id);
  }

  /** PUT /api/user/updateUser/{id}: names, department and roles; e-mail and company are read-only. */
  async function update(caller: RequestAuth, id: number, body: UpdateUser): Promise<User> {
    const user = await get(caller, id);
    // The user as they were is the audit record's before (the route reads them no second time).
    currentAudit()?.describe({ before: user });
    const previous = user.groups.map((group) => group.id);
    const { roleIds: groups } = await checkAssignment(
      caller,
      user.tenantId,
      body.department,
      body.groups,
      { department: 'department' },
      previous,
    );
    const rolesChanged = groups.length !== previous.length || groups.some((roleId) => !previous.includes(roleId));
    await db.transaction(async (tx) => {
      await q.updateUser(tx, scopeOf(caller), id, {
        firstName: body.firstName,
        lastName: body.lastName,
        departmentId: body.department ?? null,
      });
      if (rolesChanged) await q.replaceUserRoles(tx, scopeOf(caller), id, groups);
    });
    // Said for every edit: the lists' searched counts read the names (and the department).
    events.publish({ resource: 'users', kind: 'updated', ids: [id], tenantId: user.tenantId });
    return get(caller, id);
  }

  /**
   * DELETE /api/user/archive/{id}: archives (spec section 4) and ends the user's sessions.
   * Refused (409) for a department head, the company head and the caller themself.
   */
  async function archive(caller: RequestAuth, id: number) {
    const user = await q.findUser(db, scopeOf(caller), id);
    if (!user) throw notFound('ERROR_USER_NOT_EXIST');
    if (id === caller.userId) throw conflict('ERROR_USER_ARCHIVE_SELF');
    if (await headsDepartment(db, scopeOf(caller), id)) throw conflict('ERROR_USER_DEPARTMENT_HEAD');
    if (await headsCompany(db, scopeOf(caller), id)) throw conflict('ERROR_USER_COMPANY_HEAD');
    if (!caller.isAdmin) {
      const held = await findRolesWithAuthorities(db, await q.roleIdsOf(db, scopeOf(caller), id), user.tenantId);
      if (held.some((role) => !withinAuthorities(role.authorities, caller.authorities))) {
        throw forbidden('ERROR_USER_ROLE_NOT_ALLOWED');
      }
    }
    await db.transaction((tx) => q.archiveUser(tx, scopeOf(caller), id));
    events.publish({ resource: 'users', kind: 'archived', ids: [id], tenantId: user.tenantId });
    await outbox.emit('user.archived', user.tenantId, {
      user: { id, firstName: user.firstName, lastName: user.lastName, emailAddress: user.emailAddress },
    });
    return { ok: true as const };
  }

  return {
    currentUserProfile,
    list,
    get,
    register,
    update,
    archive,
    /** GET /api/user/checkEmailExist/{email}: every user counts, archived ones too (the address stays taken). */
    checkEmailExist: (email: string) => q.emailTaken(db, email),
    /** GET /api/user/getActiveUsers/{flag}: true = signed in now, false = every user not archived. */
    activeUsers: (caller: RequestAuth, signedIn: boolean) =>
      usersWhere(
        caller,
        signedIn ? and(q.activeIn(scopeOf(caller)), q.signedInNow(Date.now())) : q.activeIn(scopeOf(caller)),
      ),
    /** GET /api/user/getSubordinates: users of the departments the caller heads and below (all for admins and the company head). */
    async subordinates(caller: RequestAuth): Promise<User[]> {
      const manageable = await manageableDepartmentIds(db, caller);
      const scope = q.activeIn(scopeOf(caller));
      return usersWhere(
        caller,
        and(scope, q.notUser(caller.userId), manageable === 'all' ? undefined : q.inDepartments([...manageable])),
      );
    },
    /** GET /api/user/find-by-company/{id}: admins any company (within X-Tenant-Id when sent); others only their own. */
    async findByCompany(caller: RequestAuth, companyId: number): Promise<User[]> {
      const company = await findCompany(db, scopeOf(caller), { id: companyId });
      if (!company) throw notFound('ERROR_COMPANY_NOT_EXIST');
      return usersWhere(caller, q.ofCompany(company.id));
    },
  };
}
