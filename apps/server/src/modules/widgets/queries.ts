import type { WidgetColumn, WidgetKey } from '@opsdeck/contract/monitor';
import { asc } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { userWidgetLayouts, userWidgets } from '../../db/schema';
import type { TenantScope } from '../../platform/tenancy';
import { ofUserInScope } from '../users/queries';

export type LayoutRow = { widgetKey: WidgetKey; widgetOrder: number; widgetColumnNumber: WidgetColumn };

/** A user's (of the scope) visible widgets, first place first. */
export async function selectLayout(db: Executor, scope: TenantScope, userId: number): Promise<LayoutRow[]> {
  const rows = await db
    .select({
      widgetKey: userWidgets.widgetKey,
      widgetOrder: userWidgets.widgetOrder,
      widgetColumnNumber: userWidgets.widgetColumnNumber,
    })
    .from(userWidgets)
    .where(ofUserInScope(userWidgets.userId, userId, scope))
    .orderBy(asc(userWidgets.widgetOrder), asc(userWidgets.widgetKey));
  return rows as LayoutRow[];
}

/** Whether the user has ever chosen a layout (one that hides every widget included). */
export async function hasChosenLayout(db: Executor, scope: TenantScope, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: userWidgetLayouts.userId })
    .from(userWidgetLayouts)
    .where(ofUserInScope(userWidgetLayouts.userId, userId, scope));
  return row !== undefined;
}

/**
 * Replaces a user's layout with `rows`. The user's layout row is written first: on PostgreSQL its
 * row lock queues two saves of one user, so the second deletes the first's rows instead of
 * colliding with them on the primary key.
 */
export async function replaceLayout(
  db: Executor,
  scope: TenantScope,
  userId: number,
  rows: readonly LayoutRow[],
  now: number,
) {
  await db
    .insert(userWidgetLayouts)
    .values({ userId, chosenAt: now })
    .onConflictDoUpdate({ target: userWidgetLayouts.userId, set: { chosenAt: now } });
  await db.delete(userWidgets).where(ofUserInScope(userWidgets.userId, userId, scope));
  if (rows.length) await db.insert(userWidgets).values(rows.map((row) => ({ userId, ...row })));
}
