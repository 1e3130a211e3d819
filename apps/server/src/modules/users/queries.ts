import type { UserSortField } from '@opsdeck/contract/users';
import { and, asc, desc, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Executor, selectRows } from '../../db/client';
import { companies, departments, roleAuthorities, roles, sessions, userRoles, users } from '../../db/schema';
import { type Anchor, anchorsQuery, pastAnchor } from '../../platform/list-anchors';
import { likePattern } from '../../platform/search';
import { inScope, type TenantScope } from '../../platform/tenancy';
import { completeName } from './names';

/**
 * Rows of a table keyed by user (sessions, credentials, user_roles, …: no tenant column of their
 * own) whose user is `userId` and lives in the scope: the scope reaches them through their user,
 * one primary-key probe.
 */
export function ofUserInScope(userColumn: PgColumn, userId: number, scope: TenantScope): SQL {
  const owner = inScope(users.tenantId, scope);
  if (!owner) return eq(userColumn, userId);
  return and(eq(userColumn, userId), sql`exists (select 1 from ${users} where ${and(eq(users.id, userId), owner)})`)!;
}

/** The signed-in user's profile; `scope` is the caller's own (a provider administrator has no tenant). */
export async function findProfile(db: Executor, scope: TenantScope, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      emailAddress: users.emailAddress,
      tenantId: users.tenantId,
      companyId: companies.id,
      companyName: companies.name,
      companyTenantId: companies.tenantId,
      departmentId: departments.id,
      departmentName: departments.name,
      auths: sql<string[]>`coalesce((
        select array_agg(distinct ${roleAuthorities.authorityKey} order by ${roleAuthorities.authorityKey})
        from ${userRoles} join ${roleAuthorities} on ${roleAuthorities.roleId} = ${userRoles.roleId}
        where ${userRoles.userId} = ${users.id}
      ), '{}')`,
    })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(and(eq(users.id, userId), inScope(users.tenantId, scope)));
  return row;
}

/**
 * Which users a list reads: never archived ones (spec section 2); `tenantId` null means every
 * company (an admin who picked none). `search`, once resolved by `resolveUserScope`, carries the
 * LIKE pattern and the ids of the departments, companies and roles whose names contain it.
 */
export type UserScope = {
  scope: TenantScope;
  search?: { pattern: string; departmentIds: number[]; companyIds: number[]; roleIds: number[] };
};

/** The full name as the table shows and sorts it; the index users_tenant_full_name_idx is on the same expression. */
const fullNameKey = sql`lower(${users.firstName} || ' ' || ${users.lastName})`;

/**
 * The search of spec section 2 (full name, department, roles, company or e-mail, case-insensitive
 * substring) starts with the small tables: which departments, companies and roles have a matching
 * name. The users query then tests plain columns against those ids, so the database can answer it
 * from indexes (trigram indexes on the name and e-mail, migration 0003) or, when the text matches
 * most users, with one scan, whichever it estimates cheaper.
 */
export async function resolveUserScope(db: Executor, scope: TenantScope, search: string | undefined) {
  if (!search) return { scope } satisfies UserScope;
  const pattern = likePattern(search);
  // One round trip for the three small tables: a search is as frequent as a page.
  const named = (kind: string, table: typeof departments | typeof companies | typeof roles) =>
    sql`select ${kind}::text as kind, ${table.id} as id from ${table}
      where ${and(sql`lower(${table.name}) like ${pattern}`, inScope(table.tenantId, scope))}`;
  const rows = await selectRows<{ kind: string; id: number }>(
    db,
    sql`${named('department', departments)} union all ${named('company', companies)} union all ${named('role', roles)}
      order by kind, id`,
  );
  const ids = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => Number(row.id));
  return {
    scope,
    search: { pattern, departmentIds: ids('department'), companyIds: ids('company'), roleIds: ids('role') },
  } satisfies UserScope;
}

/**
 * What makes two resolved scopes list the same users, as the list's count and anchors are kept
 * under (platform/list-counts.ts): the search's pattern and the ids it resolved to, so that a
 * department, company or role renamed (or gone) changes the key rather than needing an event.
 */
export const filterKey = (scope: UserScope) => scope.search ?? null;

/** The WHERE of the users list for a resolved scope. */
export function scopeCondition(scope: UserScope): SQL {
  const conditions: (SQL | undefined)[] = [eq(users.archived, false), inScope(users.tenantId, scope.scope)];
  const { search } = scope;
  if (search) {
    conditions.push(
      or(
        sql`${fullNameKey} like ${search.pattern}`,
        sql`lower(${users.emailAddress}) like ${search.pattern}`,
        search.departmentIds.length ? inArray(users.departmentId, search.departmentIds) : undefined,
        search.companyIds.length ? inArray(users.companyId, search.companyIds) : undefined,
        search.roleIds.length
          ? sql`${users.id} in (select ${userRoles.userId} from ${userRoles} where ${inArray(userRoles.roleId, search.roleIds)})`
          : undefined,
      ),
    );
  }
  return and(...conditions)!;
}

/** Each sortable column as an expression, and whether the page query must join for it. */
const SORT_KEYS: Record<UserSortField, { key: SQL; join?: 'department' | 'company'; nullable?: true }> = {
  fullName: { key: fullNameKey },
  email: { key: sql`lower(${users.emailAddress})` },
  department: { key: sql`lower(${departments.name})`, join: 'department', nullable: true },
  company: { key: sql`lower(${companies.name})`, join: 'company', nullable: true },
  // A user may hold several roles: the first role name, kept in users.role_key by triggers.
  role: { key: sql`${users.roleKey}`, nullable: true },
};

/**
 * The page query of `pageUserIds` (the benchmark's EXPLAIN reads it). Usually the planner walks
 * the sort index and stops after one page. With `collectFirst` (a search with few matches) the
 * matches are collected first (a materialized CTE, served by the trigram indexes) and then
 * sorted: walking the sort index under a LIMIT, as the planner prefers, reads every user of the
 * company when only a few match.
 */
export function pageUserIdsQuery(
  db: Executor,
  scope: UserScope,
  sort: { field: UserSortField; direction: 'asc' | 'desc' },
  limit: number,
  offset: number,
  collectFirst = false,
  after?: Anchor,
): SQL {
  // Inside one company every row has the same company: the rows are in the order of their names.
  const field = sort.field === 'company' && scope.scope.kind === 'one' ? 'fullName' : sort.field;
  const direction = sql.raw(field === sort.field ? sort.direction : 'asc');
  const order = field === sort.field && sort.direction === 'desc' ? desc : asc;
  const { key, join, nullable } = SORT_KEYS[field];
  let query = db
    .select({ id: users.id, sortKey: sql`${key}`.as('sort_key'), nameKey: sql`${fullNameKey}`.as('name_key') })
    .from(users)
    .$dynamic();
  if (join === 'department') query = query.leftJoin(departments, eq(departments.id, users.departmentId));
  if (join === 'company') query = query.leftJoin(companies, eq(companies.id, users.companyId));
  const candidates = query.where(
    after ? and(scopeCondition(scope), pastAnchor(key, users.id, after, sort.direction)) : scopeCondition(scope),
  );
  // Users without a department (or company, or role) come last both ways, and users who share
  // one by name, then id (the role indexes hold that order). The full name and the e-mail are
  // never null: their plain order, ties broken by id, lets an index serve both directions.
  if (collectFirst) {
    const tieBreak = nullable ? sql`name_key asc, id asc` : sql`id ${direction}`;
    return sql`with matches as materialized ${candidates}
      select id from matches
      order by sort_key ${direction} nulls last, ${tieBreak} limit ${limit} offset ${offset}`;
  }
  const sortKeys = nullable
    ? [sql`${key} ${direction} nulls last`, asc(fullNameKey), asc(users.id)]
    : [order(key), order(users.id)];
  return candidates
    .orderBy(...sortKeys)
    .limit(limit)
    .offset(offset)
    .getSQL();
}

/**
 * The orders a deep page seeks from anchors (platform/list-anchors.ts): keys never null, ties by
 * id in the same direction. The others stay on OFFSET: the role order walks a small index per
 * page, and the department and company orders are those of a few thousand rows at most in practice.
 */
export const ANCHORED_SORTS: ReadonlySet<UserSortField> = new Set(['fullName', 'email']);

/** Every ANCHOR_SPACING-th user of an anchored order (see ANCHORED_SORTS). */
export async function userAnchors(
  db: Executor,
  scope: UserScope,
  sort: { field: UserSortField; direction: 'asc' | 'desc' },
): Promise<Anchor[]> {
  const rows = db
    .select({ sortKey: sql`${SORT_KEYS[sort.field].key}`.as('sort_key'), id: users.id })
    .from(users)
    .where(scopeCondition(scope))
    .getSQL();
  const anchors = await selectRows<Anchor>(db, anchorsQuery(rows, sort.direction));
  return anchors.map((anchor) => ({ key: anchor.key, id: Number(anchor.id) }));
}

/**
 * One page of user ids, sorted, ties broken by id. Only ids: the rows and their roles are then
 * loaded for these few (`selectUsers`, `selectUserRoles` by ids), so nothing is aggregated for
 * users outside the page.
 */
export async function pageUserIds(...args: Parameters<typeof pageUserIdsQuery>) {
  const rows = await selectRows<{ id: number }>(args[0], pageUserIdsQuery(...args));
  return rows.map((row) => row.id);
}

export function countUsersQuery(db: Executor, scope: UserScope) {
  return db.select({ count: sql<number>`count(*)::int` }).from(users).where(scopeCondition(scope));
}

export async function countUsers(db: Executor, scope: UserScope) {
  const [row] = await countUsersQuery(db, scope);
  return Number(row?.count ?? 0);
}

const userColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  emailAddress: users.emailAddress,
  departmentId: users.departmentId,
  departmentName: departments.name,
  companyId: users.companyId,
  companyName: companies.name,
  tenantId: users.tenantId,
  archived: users.archived,
  isHead: sql<boolean>`(exists (select 1 from ${departments} headed where headed.head_id = ${users.id} and not headed.archived)
    or exists (select 1 from ${companies} led where led.head_id = ${users.id}))`,
};

export type UserRow = {
  id: number;
  firstName: string;
  lastName: string;
  emailAddress: string;
  departmentId: number | null;
  departmentName: string | null;
  companyId: number | null;
  companyName: string | null;
  tenantId: string | null;
  archived: boolean;
  /** Heads a department or a company: never archived (see the service's archive). */
  isHead: boolean;
};

/** Users of the scope with their department and company names, by a condition (kept in the order asked). */
export async function selectUsers(
  db: Executor,
  scope: TenantScope,
  where: SQL | undefined,
  orderByName = false,
): Promise<UserRow[]> {
  const query = db
    .select(userColumns)
    .from(users)
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(where, inScope(users.tenantId, scope)))
    .$dynamic();
  return orderByName ? query.orderBy(asc(fullNameKey), asc(users.id)) : query;
}

export const byIds = (ids: readonly number[]) => inArray(users.id, [...ids]);

/**
 * Users by a condition with their roles (by name, then id) in the same query: a list's page reads
 * its ten rows in one round trip rather than two (docs/performance.md, "Lists at 500 requests a
 * second").
 */
export async function selectUsersWithRoles(db: Executor, scope: TenantScope, where: SQL | undefined) {
  return db
    .select({
      ...userColumns,
      groups: sql<{ id: number; name: string }[]>`coalesce((
        select json_agg(json_build_object('id', ${roles.id}, 'name', ${roles.name}) order by ${roles.name}, ${roles.id})
        from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId}
        where ${userRoles.userId} = ${users.id}
      ), '[]'::json)`,
    })
    .from(users)
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(where, inScope(users.tenantId, scope)));
}

/** The roles of these users of the scope (or of every user matching `where`), as `{ userId, id, name }`. */
export async function selectUserRoles(db: Executor, scope: TenantScope, where: SQL | undefined) {
  return db
    .select({ userId: userRoles.userId, id: roles.id, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(and(where, inScope(users.tenantId, scope)))
    .orderBy(asc(roles.name), asc(roles.id));
}

/** One user inside the scope, or undefined; archived users read as missing. */
export async function findUser(db: Executor, scope: TenantScope, id: number) {
  const rows = await selectUsers(db, scope, and(eq(users.id, id), eq(users.archived, false)));
  return rows[0];
}

/** Whether any user, archived ones included (the unique index covers them), has this e-mail. */
export async function emailTaken(db: Executor, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.emailAddress})`, email.trim().toLowerCase()))
    .limit(1);
  return row !== undefined;
}

export async function insertUser(
  db: Executor,
  values: {
    tenantId: string;
    companyId: number;
    departmentId: number | null;
    firstName: string;
    lastName: string;
    emailAddress: string;
  },
) {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row!.id;
}

export async function updateUser(
  db: Executor,
  scope: TenantScope,
  id: number,
  values: { firstName: string; lastName: string; departmentId: number | null },
) {
  await db
    .update(users)
    .set(values)
    .where(and(eq(users.id, id), inScope(users.tenantId, scope)));
}

export async function roleIdsOf(db: Executor, scope: TenantScope, userId: number) {
  const rows = await db
    .select({ roleId: userRoles.roleId })
    .from(userRoles)
    .where(ofUserInScope(userRoles.userId, userId, scope));
  return rows.map((row) => row.roleId);
}

/** Replaces the roles of a user of the scope (the caller resolved the user, and the roles, in it). */
export async function replaceUserRoles(db: Executor, scope: TenantScope, userId: number, roleIds: readonly number[]) {
  await db.delete(userRoles).where(ofUserInScope(userRoles.userId, userId, scope));
  if (roleIds.length) await db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

/** Archives a user of the scope and ends every session they hold. */
export async function archiveUser(db: Executor, scope: TenantScope, userId: number) {
  await db
    .update(users)
    .set({ archived: true })
    .where(and(eq(users.id, userId), inScope(users.tenantId, scope)));
  await db.delete(sessions).where(ofUserInScope(sessions.userId, userId, scope));
}

/** Users holding an unexpired session now. */
export const signedInNow = (now: number) =>
  sql`exists (select 1 from ${sessions} where ${sessions.userId} = ${users.id} and ${sessions.expiresAt} > ${now})`;

export const inDepartments = (ids: readonly number[]) =>
  ids.length ? inArray(users.departmentId, [...ids]) : sql`false`;

export const notUser = (id: number) => ne(users.id, id);

export const activeIn = (scope: TenantScope) => and(eq(users.archived, false), inScope(users.tenantId, scope));

export const ofCompany = (companyId: number) => and(eq(users.archived, false), eq(users.companyId, companyId));

/**
 * The complete names of users by id (who made or changed a row). A provider administrator (no
 * tenant) may have made a company's row: `scope` is the row's, and the provider's own users
 * answer in every scope.
 */
export async function completeNames(
  db: Executor,
  scope: TenantScope,
  ids: readonly (number | null)[],
): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const owner = inScope(users.tenantId, scope);
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(inArray(users.id, wanted), owner && or(owner, isNull(users.tenantId))));
  return new Map(rows.map((row) => [row.id, completeName(row)]));
}
