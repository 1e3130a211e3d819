import { UpdateVisibleWidgets, VisibleWidget, Widget } from '@opsdeck/contract/monitor';
import { UserIdParams } from '@opsdeck/contract/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import type { WidgetsService } from './service';

const tags = ['monitor'];

const WHOSE =
  "A user's own layout always (any signed-in user: widget visibility is per user, spec section 6); another " +
  "user's only with EDIT_USER (403 without it, whether the user exists or not) and only a user of the caller's " +
  "company (an admin: X-Tenant-Id's, or any company without it), else 404 ERROR_USER_NOT_EXIST.";

export const widgetRoutes: FastifyPluginAsyncZod<{ widgets: WidgetsService }> = async (app, { widgets }) => {
  app.get(
    '/widget',
    {
      // The catalogue is the contract's fixed list, the same titles every user's own layout carries.
      config: { access: access.session },
      schema: {
        tags,
        summary: 'The sixteen widgets of the monitor dashboard, in the catalogue order',
        response: { 200: Widget.array() },
      },
    },
    async () => widgets.catalogue(),
  );

  app.get(
    '/user/getVisibleWidgets/:id',
    {
      config: { access: access.session },
      schema: {
        tags,
        summary: "A user's monitor dashboard layout: the sixteen widgets with their order and column",
        description:
          '`widgetOrder` 0 = hidden, else its place (1 first); `widgetColumnNumber` 1 or 2. The visible widgets ' +
          'come first in their order, then the hidden ones in the catalogue order. A user who never chose a layout ' +
          `gets the default six (docs/monitor.md). ${WHOSE}`,
        params: UserIdParams,
        response: { 200: VisibleWidget.array() },
      },
    },
    async (request) => widgets.visibleWidgets(requireAuth(request), request.params.id),
  );

  app.post(
    '/user/updateVisibleWidgets/:id',
    {
      config: { access: access.session, audit: audit.action('widget.save') },
      schema: {
        tags,
        summary: "Sets a user's monitor dashboard layout; answers the new sixteen",
        description:
          'The visible set becomes `currentVisibleWidgets` in their `widgetOrder` (stored renumbered 1, 2, …) with ' +
          'their columns, then `toAdd` at the end of column 1; a widget in neither is hidden (an empty set stays ' +
          'empty). 400 ERROR_WIDGET_NOT_EXIST for an unknown key; 400 ERROR_WIDGET_LAYOUT_INVALID for a key listed ' +
          `twice, two widgets with one order, an order below 1 or a column other than 1 or 2. ${WHOSE}`,
        params: UserIdParams,
        body: UpdateVisibleWidgets,
        response: { 200: VisibleWidget.array() },
      },
    },
    async (request) => widgets.updateVisibleWidgets(requireAuth(request), request.params.id, request.body),
  );
};
