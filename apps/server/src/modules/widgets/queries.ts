import type { WidgetColumn, WidgetKey } from '@opsdeck/contract/monitor';
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { userWidgetLayouts, userWidgets } from '../../db/schema';

export type LayoutRow = { widgetKey: WidgetKey; widgetOrder: number; widgetColumnNumber: WidgetColumn };

/** A user's visible widgets, first place first. */
export async function selectLayout(db: Executor, userId: number): Promise<LayoutRow[]> {
  const rows = await db
    .select({
      widgetKey: userWidgets.widgetKey,
      widgetOrder: userWidgets.widgetOrder,
      widgetColumnNumber: userWidgets.widgetColumnNumber,
    })
    .from(userWidgets)
    .where(eq(userWidgets.userId, userId))
    .orderBy(asc(userWidgets.widgetOrder), asc(userWidgets.widgetKey));
  return rows as LayoutRow[];
}

/** Whether the user has ever chosen a layout (one that hides every widget included). */
export async function hasChosenLayout(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: userWidgetLayouts.userId })
    .from(userWidgetLayouts)
    .where(eq(userWidgetLayouts.userId, userId));
  return row !== undefined;
}

/**
 * Replaces a user's layout with `rows`. The user's layout row is written first: on PostgreSQL its
 * row lock queues two saves of one user, so the second deletes the first's rows instead of
 * colliding with them on the primary key.
 */
export async function replaceLayout(db: Executor, userId: number, rows: readonly LayoutRow[], now: number) {
  await db
    .insert(userWidgetLayouts)
    .values({ userId, chosenAt: now })
    .onConflictDoUpdate({ target: userWidgetLayouts.userId, set: { chosenAt: now } });
  await db.delete(userWidgets).where(eq(userWidgets.userId, userId));
  if (rows.length) await db.insert(userWidgets).values(rows.map((row) => ({ userId, ...row })));
}
