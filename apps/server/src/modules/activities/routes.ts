import {
  Activity,
  ActivityIdParams,
  CatalogueActivity,
  LicenseTypeActivities,
  LicenseTypeActivityQuery,
  SaveActivity,
} from '@opsdeck/contract/activities';
import { Ok } from '@opsdeck/contract/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import { isoTime } from '../../platform/csv-export';
import { resourceRoutes } from '../../platform/resource-routes';
import type { ActivitiesService } from './service';

const ACTIVITY_READERS = ['VIEW_ACTIVITY', 'ACCESS_ACTIVITY_TAB', 'MANAGE_LICENSING'] as const;

export const activityRoutes: FastifyPluginAsyncZod<{ activities: ActivitiesService }> = async (app, { activities }) => {
  resourceRoutes(app, {
    path: '/activity',
    entity: 'activity',
    tags: ['activities'],
    params: ActivityIdParams,
    row: Activity,
    body: SaveActivity,
    service: activities,
    csv: {
      table: 'activities',
      columns: {
        createDate: (row) => isoTime(row.createDate),
        name: (row) => row.name,
        key: (row) => row.key,
        category: (row) => row.category,
      },
    },
    list: {
      anyOf: ACTIVITY_READERS,
      summary: "The provider's activity catalogue",
      description: 'Archived activities are left out. Ordered by name.',
    },
    get: { anyOf: ACTIVITY_READERS, summary: 'One live activity' },
    create: {
      anyOf: ['CREATE_ACTIVITY'],
      summary: 'Add an activity to the catalogue',
      description: 'The key is unique among live activities (409 ERROR_ACTIVITY_KEY_DUPLICATE).',
    },
    update: { anyOf: ['EDIT_ACTIVITY'], summary: 'Change a live activity' },
    remove: { anyOf: ['DELETE_ACTIVITY'], summary: 'Archive an activity (spec section 4)' },
  });

  app.get(
    '/license-type/premium',
    {
      config: { access: access.anyOf(...ACTIVITY_READERS) },
      schema: {
        tags: ['activities'],
        summary: "The catalogue for the premium page: each activity says whether it is premium (unlocked by 'pro')",
        description: 'Archived activities are left out. Ordered by name.',
        response: { 200: CatalogueActivity.array() },
      },
    },
    async () => activities.premium(),
  );

  app.get(
    '/license-type/activity',
    {
      config: { access: access.anyOf(...ACTIVITY_READERS) },
      schema: {
        tags: ['activities'],
        summary: 'The activities a licence type unlocks (`key=pro`: the premium list)',
        querystring: LicenseTypeActivityQuery,
        response: { 200: Activity.array() },
      },
    },
    async (request) => activities.ofLicenseType(request.query.key),
  );

  for (const [path, unlock] of [
    ['/license-type/add-activity', true],
    ['/license-type/remove-activity', false],
  ] as const) {
    app.post(
      path,
      {
        config: {
          access: access.anyOf('EDIT_ACTIVITY'),
          audit: unlock ? audit.action('activity.premium') : audit.action('activity.regular'),
        },
        schema: {
          tags: ['activities'],
          summary: unlock
            ? 'Make activities premium: the licence type unlocks them (the premium toggle)'
            : 'Make activities regular again: the licence type no longer unlocks them',
          description:
            'Provider administrators only. Every id must be a live activity (404 ERROR_ACTIVITY_NOT_EXIST), or nothing changes.',
          body: LicenseTypeActivities,
          response: { 200: Ok },
        },
      },
      async (request) => {
        await activities.setUnlocked(requireAuth(request), request.body, unlock);
        return { ok: true as const };
      },
    );
  }
};
