import type { Activity, SaveActivity } from '@opsdeck/contract/activities';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { crudMutations, useResourceMutation } from '../../lib/resource-mutation';
import { activityKeys } from '../../resources/activities';

const mutations = crudMutations<Activity, SaveActivity>({ create: '/activity', one: '/activity' }, [activityKeys.all]);
export const useCreateActivity = mutations.useCreate;
export const useUpdateActivity = mutations.useUpdate;
export const useDeleteActivity = mutations.useDelete;

/** Spec section 8, Activity create: the field keys go on their fields; others are the general error. */
export const CREATE_ACTIVITY_FAILURE: FailurePolicy = { otherwise: 'general' };
/** Update: the same, and a missing (or archived) activity toasts ERROR_ACTIVITY_NOT_EXIST. */
export const UPDATE_ACTIVITY_FAILURE: FailurePolicy = { toast: ['ERROR_ACTIVITY_NOT_EXIST'], otherwise: 'general' };
/** Archive: a missing one toasts ERROR_ACTIVITY_NOT_EXIST, anything else ERROR_ACTIVITY_GENERAL_INTERNAL. */
export const ARCHIVE_ACTIVITY_FAILURE: FailurePolicy = {
  toast: ['ERROR_ACTIVITY_NOT_EXIST'],
  otherwise: 'general',
  general: 'ERROR_ACTIVITY_GENERAL_INTERNAL',
};

/** The premium toggle (spec section 4): into the premium list adds the activity to 'pro', out removes it. */
export function useSetPremium() {
  return useResourceMutation(
    ({ id, premium }: { id: number; premium: boolean }) =>
      apiRequest(`/license-type/${premium ? 'add-activity' : 'remove-activity'}`, {
        method: 'POST',
        body: { licenseType: 'pro', activities: [{ id }] },
      }),
    [activityKeys.all],
  );
}
