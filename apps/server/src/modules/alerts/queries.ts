import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import {
  agentSightings,
  alertRules,
  alerts,
  notificationPreferences,
  notifications,
  roleAuthorities,
  userRoles,
  users,
} from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';
import { ofUserInScope } from '../users/queries';

export type RuleRow = typeof alertRules.$inferSelect;
export type AlertRow = typeof alerts.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;

// --- Rules ---------------------------------------------------------------------------------------

export function listRules(db: Executor, tenantId: string) {
  return db.select().from(alertRules).where(eq(alertRules.tenantId, tenantId)).orderBy(alertRules.id);
}

/** Every company's rules: what a check goes through. */
export function allRules(db: Executor) {
  return db.select().from(alertRules).orderBy(alertRules.tenantId, alertRules.id);
}

export async function findRule(db: Executor, tenantId: string, id: number) {
  const [row] = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.id, id), eq(alertRules.tenantId, tenantId)));
  return row;
}

export async function countRules(db: Executor, tenantId: string) {
  const [row] = await db.select({ count: count() }).from(alertRules).where(eq(alertRules.tenantId, tenantId));
  return row?.count ?? 0;
}

export async function insertRule(db: Executor, values: typeof alertRules.$inferInsert) {
  const [row] = await db.insert(alertRules).values(values).returning();
  return row!;
}

export async function updateRule(
  db: Executor,
  tenantId: string,
  id: number,
  values: Partial<typeof alertRules.$inferInsert>,
) {
  const [row] = await db
    .update(alertRules)
    .set(values)
    .where(and(eq(alertRules.id, id), eq(alertRules.tenantId, tenantId)))
    .returning();
  return row;
}

export async function deleteRule(db: Executor, tenantId: string, id: number) {
  const rows = await db
    .delete(alertRules)
    .where(and(eq(alertRules.id, id), eq(alertRules.tenantId, tenantId)))
    .returning({ id: alertRules.id });
  return rows.length > 0;
}

// --- Alerts --------------------------------------------------------------------------------------

export function openAlertsOfRule(db: Executor, scope: TenantScope, ruleId: number) {
  return db
    .select()
    .from(alerts)
    .where(and(eq(alerts.ruleId, ruleId), isNull(alerts.clearedAt), inScope(alerts.tenantId, scope)));
}

/** The open alerts of the scope, newest first. */
export function openAlerts(db: Executor, scope: TenantScope) {
  return db
    .select()
    .from(alerts)
    .where(and(inScope(alerts.tenantId, scope), isNull(alerts.clearedAt)))
    .orderBy(desc(alerts.raisedAt))
    .limit(200);
}

/** Raises the alert unless one is open for the rule and subject (another instance's): answers it, or undefined. */
export async function raise(db: Executor, values: typeof alerts.$inferInsert) {
  const [row] = await db
    .insert(alerts)
    .values(values)
    .onConflictDoNothing({ target: [alerts.ruleId, alerts.subjectKey], where: sql`${alerts.clearedAt} is null` })
    .returning();
  return row;
}

export async function clear(db: Executor, scope: TenantScope, ids: readonly number[], at: number) {
  if (ids.length === 0) return;
  await db
    .update(alerts)
    .set({ clearedAt: at })
    .where(and(inArray(alerts.id, [...ids]), isNull(alerts.clearedAt), inScope(alerts.tenantId, scope)));
}

/** The company's people who receive its alerts: not archived, holding MANAGE_ALERTS. */
export async function recipients(db: Executor, tenantId: string) {
  return db
    .selectDistinct({
      id: users.id,
      emailAddress: users.emailAddress,
      firstName: users.firstName,
      email: notificationPreferences.email,
    })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roleAuthorities, eq(roleAuthorities.roleId, userRoles.roleId))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(
      and(eq(users.tenantId, tenantId), eq(users.archived, false), eq(roleAuthorities.authorityKey, 'MANAGE_ALERTS')),
    );
}

// --- Notifications -------------------------------------------------------------------------------

export async function insertNotifications(db: Executor, rows: (typeof notifications.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return db.insert(notifications).values(rows).returning();
}

/** Notifications of the scope by id, with whether their alert is still open. */
export function notificationsByIds(db: Executor, scope: TenantScope, ids: readonly number[]) {
  return db
    .select({
      notification: notifications,
      open: sql<boolean>`${alerts.id} is not null and ${alerts.clearedAt} is null`,
    })
    .from(notifications)
    .leftJoin(alerts, eq(alerts.id, notifications.alertId))
    .where(and(inArray(notifications.id, [...ids]), inScope(notifications.tenantId, scope)));
}

/** A user's notifications; `scope` is the user's own tenant. */
export function notificationPage(
  db: Executor,
  scope: TenantScope,
  userId: number,
  unreadOnly: boolean,
  offset: number,
  size: number,
) {
  return db
    .select({
      notification: notifications,
      open: sql<boolean>`${alerts.id} is not null and ${alerts.clearedAt} is null`,
    })
    .from(notifications)
    .leftJoin(alerts, eq(alerts.id, notifications.alertId))
    .where(
      and(
        eq(notifications.userId, userId),
        unreadOnly ? isNull(notifications.readAt) : undefined,
        inScope(notifications.tenantId, scope),
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(size)
    .offset(offset);
}

export async function countNotifications(db: Executor, scope: TenantScope, userId: number, unreadOnly: boolean) {
  const [row] = await db
    .select({ count: count() })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        unreadOnly ? isNull(notifications.readAt) : undefined,
        inScope(notifications.tenantId, scope),
      ),
    );
  return row?.count ?? 0;
}

export async function markRead(
  db: Executor,
  scope: TenantScope,
  userId: number,
  ids: readonly number[] | 'all',
  at: number,
) {
  await db
    .update(notifications)
    .set({ readAt: at })
    .where(
      and(
        eq(notifications.userId, userId),
        inScope(notifications.tenantId, scope),
        isNull(notifications.readAt),
        ids === 'all' ? undefined : inArray(notifications.id, [...ids]),
      ),
    );
}

export async function preferencesOf(db: Executor, scope: TenantScope, userId: number) {
  const [row] = await db
    .select({ email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(ofUserInScope(notificationPreferences.userId, userId, scope));
  return row?.email ?? {};
}

export async function savePreferences(db: Executor, userId: number, email: Record<string, boolean>) {
  await db
    .insert(notificationPreferences)
    .values({ userId, email })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { email } });
}

// --- Agent sightings -----------------------------------------------------------------------------

export async function sawAgent(
  db: Executor,
  sighting: { accountId: number; tenantId: string | null; connected: boolean; at: number },
) {
  await db
    .insert(agentSightings)
    .values({
      accountId: sighting.accountId,
      tenantId: sighting.tenantId,
      connected: sighting.connected,
      seenAt: sighting.at,
    })
    .onConflictDoUpdate({
      target: agentSightings.accountId,
      set: { connected: sighting.connected, seenAt: sighting.at },
    });
}

/** The company's keys seen within `since`, last seen before `before`: with their partial form. */
export function agentsLastSeen(db: Executor, tenantId: string, since: number, before: number) {
  return selectRows<{ accountId: number; partialKey: string; connected: boolean; seenAt: string }>(
    db,
    sql`select s.account_id as "accountId", a.partial_key as "partialKey", s.connected, s.seen_at as "seenAt"
        from agent_sightings s join accounts a on a.id = s.account_id
        where s.tenant_id = ${tenantId} and s.seen_at > ${since} and s.seen_at < ${before}`,
  );
}

/** The company's workflows that faulted at least `count` times since `since`. */
export function faultedWorkflows(db: Executor, tenantId: string, since: number, atLeast: number) {
  return selectRows<{ workflowId: number | null; workflowName: string; faults: number }>(
    db,
    sql`select workflow_id as "workflowId", workflow_name as "workflowName", count(*)::int as faults
        from execution_logs
        where tenant_id = ${tenantId} and status_type = 'faulted'
          and execution_start >= ${since - 7 * 86_400_000} and execution_end >= ${since}
        group by workflow_id, workflow_name
        having count(*) >= ${atLeast}`,
  );
}
