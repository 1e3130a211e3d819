import {
  DEFAULT_LAYOUT,
  type VisibleWidget,
  WIDGET_CATALOGUE,
  type Widget,
  type WidgetColumn,
  type WidgetPlacement,
} from '@opsdeck/contract/monitor';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { forbidden, notFound } from '../../platform/errors';
import { EVERY_TENANT, oneTenant, scopeOf, type TenantScope } from '../../platform/tenancy';
import { findUser } from '../users/queries';
import * as q from './queries';

const DEFAULT_ROWS: q.LayoutRow[] = DEFAULT_LAYOUT.map((widget, index) => ({ ...widget, widgetOrder: index + 1 }));

/** The sixteen, the visible ones first in their order, then the hidden ones (order 0) in the catalogue's. */
function toVisibleWidgets(rows: readonly q.LayoutRow[]): VisibleWidget[] {
  const placed = new Map(rows.map((row) => [row.widgetKey, row]));
  const visible = rows.map((row) => ({
    widgetKey: row.widgetKey,
    widgetTitle: WIDGET_CATALOGUE.find((widget) => widget.widgetKey === row.widgetKey)!.widgetTitle,
    widgetOrder: row.widgetOrder,
    widgetColumnNumber: row.widgetColumnNumber,
  }));
  const hidden = WIDGET_CATALOGUE.filter((widget) => !placed.has(widget.widgetKey)).map((widget) => ({
    ...widget,
    widgetOrder: 0,
    widgetColumnNumber: 1,
  }));
  return [...visible, ...hidden];
}

/**
 * The new visible set: the listed widgets in the order given, renumbered 1, 2, …, then `toAdd`
 * at the end of column 1 (the body's schema has refused duplicates already).
 */
export function nextLayout(current: readonly WidgetPlacement[], toAdd: readonly q.LayoutRow['widgetKey'][]) {
  const listed = [...current].sort((a, b) => a.widgetOrder - b.widgetOrder);
  return [
    ...listed.map((widget) => ({
      widgetKey: widget.widgetKey,
      widgetColumnNumber: widget.widgetColumnNumber as WidgetColumn,
    })),
    ...toAdd.map((widgetKey) => ({ widgetKey, widgetColumnNumber: 1 as const })),
  ].map((widget, index): q.LayoutRow => ({ ...widget, widgetOrder: index + 1 }));
}

export type WidgetsService = ReturnType<typeof createWidgetsService>;

export function createWidgetsService(deps: { db: Db }) {
  const { db } = deps;

  /**
   * A user's own layout always; another's only with EDIT_USER, and only a user of the caller's
   * scope (their company, or X-Tenant-Id's for an admin; every company for an admin without one),
   * else 404 as if the user did not exist. Without EDIT_USER the answer is 403 whether the user
   * exists or not, so that nobody learns which ids do.
   */
  async function requireLayoutAccess(caller: RequestAuth, userId: number): Promise<TenantScope> {
    // One's own layout is read in one's own tenant (an administrator's has none), whatever company one acts on.
    if (userId === caller.userId) return caller.ownTenantId === null ? EVERY_TENANT : oneTenant(caller.ownTenantId);
    if (!caller.authorities.has('EDIT_USER')) throw forbidden();
    const scope = scopeOf(caller);
    if (!(await findUser(db, scope, userId))) throw notFound('ERROR_USER_NOT_EXIST');
    return scope;
  }

  async function layoutOf(scope: TenantScope, userId: number) {
    const rows = await q.selectLayout(db, scope, userId);
    if (rows.length === 0 && !(await q.hasChosenLayout(db, scope, userId))) return DEFAULT_ROWS;
    return rows;
  }

  return {
    /** GET /api/widget: the catalogue, in the spec's order. */
    catalogue: (): Widget[] => WIDGET_CATALOGUE.map((widget) => ({ ...widget })),

    /** GET /api/user/getVisibleWidgets/{id}: the user's sixteen widgets (the default six if they never chose). */
    async visibleWidgets(caller: RequestAuth, userId: number): Promise<VisibleWidget[]> {
      const scope = await requireLayoutAccess(caller, userId);
      return toVisibleWidgets(await layoutOf(scope, userId));
    },

    /** POST /api/user/updateVisibleWidgets/{id}: replaces the layout in one transaction; answers the new sixteen. */
    async updateVisibleWidgets(
      caller: RequestAuth,
      userId: number,
      body: { toAdd: q.LayoutRow['widgetKey'][]; currentVisibleWidgets: WidgetPlacement[] },
    ): Promise<VisibleWidget[]> {
      const scope = await requireLayoutAccess(caller, userId);
      const rows = nextLayout(body.currentVisibleWidgets, body.toAdd);
      await db.transaction((tx) => q.replaceLayout(tx, scope, userId, rows, Date.now()));
      return toVisibleWidgets(rows);
    },
  };
}
