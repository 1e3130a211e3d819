import type { Activity, CatalogueActivity } from '@opsdeck/contract/activities';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { restResource } from './rest-resource';

/** The provider's activity catalogue: the activities page, and next the premium lists. */
const activities = restResource<Activity>('activities', { list: '/activity', one: '/activity' });

export const activityKeys = { ...activities.keys, premium: ['activities', 'premium'] as const };
export const activitiesQueryOptions = activities.listOptions;
export const activityQueryOptions = activities.oneOptions;

/** The premium page's catalogue: each activity says whether the 'pro' licence type unlocks it. */
export function premiumActivitiesQueryOptions() {
  return queryOptions({
    queryKey: activityKeys.premium,
    queryFn: ({ signal }) => apiRequest<CatalogueActivity[]>('/license-type/premium', { signal }),
  });
}
