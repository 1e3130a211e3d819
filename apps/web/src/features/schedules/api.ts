import type { NewSchedule, Schedule, ScheduleTimes } from '@opsdeck/contract/schedules';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { scheduleKeys } from '../../resources/schedules';

const touched = [scheduleKeys.all];

export function useCreateSchedules() {
  return useResourceMutation(
    ({ records, tenantId }: { records: NewSchedule[]; tenantId?: string }) =>
      apiRequest<Schedule[]>('/schedule', { method: 'POST', body: records, ...(tenantId ? { tenantId } : {}) }),
    touched,
  );
}

export function useUpdateSchedules() {
  return useResourceMutation(
    (records: ScheduleTimes[]) => apiRequest<Schedule[]>('/schedule', { method: 'PUT', body: records }),
    touched,
  );
}

export function useArchiveSchedules() {
  return useResourceMutation(
    (ids: number[]) => apiRequest<{ ids: number[] }>('/schedule', { method: 'PATCH', body: ids }),
    touched,
  );
}

/** The spec names no schedule keys (section 8): a refused delete says why under the question. */
export const ARCHIVE_SCHEDULES_FAILURE: FailurePolicy = { otherwise: 'form' };
