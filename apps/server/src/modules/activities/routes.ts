import { Activity, ActivityIdParams, SaveActivity } from '@opsdeck/contract/activities';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceRoutes } from '../../platform/resource-routes';
import type { ActivitiesService } from './service';

const ACTIVITY_READERS = ['VIEW_ACTIVITY', 'ACCESS_ACTIVITY_TAB', 'MANAGE_LICENSING'] as const;

export const activityRoutes: FastifyPluginAsyncZod<{ activities: ActivitiesService }> = async (app, { activities }) => {
  resourceRoutes(app, {
    path: '/activity',
    tags: ['activities'],
    params: ActivityIdParams,
    row: Activity,
    body: SaveActivity,
    service: activities,
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
};
