import { isWidgetKey, MONITOR_PATHS, WIDGET_ANSWERS, type WidgetKey, WidgetQuery } from '@opsdeck/contract/monitor';
import { and, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { roles, userRoles, users } from '../../db/schema';
import { access, requireAuth } from '../../platform/access';
import { notFound } from '../../platform/errors';
import { inScope, scopeOf, type TenantScope } from '../../platform/tenancy';
import { findDepartment, subtreeIds } from '../departments/queries';
import { createRollupWidgets, type RollupWidgetDeps } from './rollup-widgets';
import { spanWidgets } from './span-widgets';
import type { WidgetHandler, WidgetHandlers, WidgetInput } from './widget-input';

/** The filters of a widget query as the user ids they leave, or null without any (docs/monitor.md). */
export async function resolvePeople(
  db: Db,
  scope: TenantScope,
  query: Pick<WidgetQuery, 'user' | 'department' | 'role'>,
): Promise<number[] | null> {
  if (query.user === undefined && query.department === undefined && query.role === undefined) return null;
  const conditions: (SQL | undefined)[] = [inScope(users.tenantId, scope), isNotNull(users.tenantId)];
  if (query.user !== undefined) {
    const [user] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, query.user), inScope(users.tenantId, scope), isNotNull(users.tenantId)));
    if (!user) throw notFound('ERROR_USER_NOT_EXIST');
    conditions.push(eq(users.id, query.user));
  }
  if (query.department !== undefined) {
    const department = await findDepartment(db, scope, query.department);
    if (!department) throw notFound('ERROR_DEPARTMENT_NOT_EXIST');
    conditions.push(inArray(users.departmentId, [...(await subtreeIds(db, scope, query.department))]));
  }
  if (query.role !== undefined) {
    const [role] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.id, query.role), inScope(roles.tenantId, scope), isNotNull(roles.tenantId)));
    if (!role) throw notFound('ERROR_ROLE_NOT_EXIST');
    conditions.push(
      sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.roleId} = ${query.role})`,
    );
  }
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(...conditions))
    .orderBy(users.id);
  return rows.map((row) => row.id);
}

export const monitorRoutes: FastifyPluginAsyncZod<{ db: Db } & RollupWidgetDeps> = async (app, options) => {
  const handlers: WidgetHandlers = { ...spanWidgets, ...createRollupWidgets(options) };
  const served = (Object.keys(handlers) as WidgetKey[]).filter((key) => handlers[key] !== undefined);
  // Any text: a key that is not served (unknown, or not built yet) is 404, not a 400 of the params.
  const params = z.object({ widgetKey: z.string() });

  app.get(
    MONITOR_PATHS.widget(':widgetKey' as WidgetKey),
    {
      config: { access: access.anyOf('ACCESS_MONITOR_REPORT_TAB') },
      schema: {
        tags: ['monitor'],
        summary: 'One widget of the monitor dashboard',
        description:
          'The widget `widgetKey` over [from, to] (epoch ms, both included, at most 366 days), for the people of the filters ' +
          '(`user`, `department` with the ones below it, `role`), days and hours in `tz` (docs/monitor.md, "The widgets"). ' +
          `Served keys: ${served.join(', ')}; any other key is 404 ERROR_WIDGET_NOT_EXIST. A user, department or role ` +
          'outside the caller’s company is 404 ERROR_USER_NOT_EXIST, ERROR_DEPARTMENT_NOT_EXIST or ERROR_ROLE_NOT_EXIST.',
        params,
        querystring: WidgetQuery,
        // Each key's answer is its WIDGET_ANSWERS shape, checked in the handler: a union here would
        // parse a status_summary as the top_statuses it extends, and strip its fields.
        response: { 200: z.unknown() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      const key = request.params.widgetKey;
      const handler = isWidgetKey(key) ? (handlers[key] as WidgetHandler<WidgetKey> | undefined) : undefined;
      if (!handler || !isWidgetKey(key)) throw notFound('ERROR_WIDGET_NOT_EXIST');
      const widgetKey: WidgetKey = key;
      const query = request.query;
      const input: WidgetInput = {
        db: options.db,
        scope,
        people: await resolvePeople(options.db, scope, query),
        from: query.from,
        to: query.to,
        tz: query.tz,
        now: Date.now(),
      };
      const answer = await handler(input);
      return WIDGET_ANSWERS[widgetKey].parse(answer);
    },
  );
};
