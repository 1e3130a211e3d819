import type { Activity } from '@opsdeck/contract/activities';
import { restResource } from './rest-resource';

/** The provider's activity catalogue: the activities page, and next the premium lists. */
const activities = restResource<Activity>('activities', { list: '/activity', one: '/activity' });

export const activityKeys = activities.keys;
export const activitiesQueryOptions = activities.listOptions;
export const activityQueryOptions = activities.oneOptions;
