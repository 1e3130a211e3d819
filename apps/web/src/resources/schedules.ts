import type { Schedule } from '@opsdeck/contract/schedules';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

export type ScheduleFilter = { from: number | null; to: number | null; userName: string };

export const scheduleKeys = {
  all: ['schedules'] as const,
  list: (filter: ScheduleFilter) => ['schedules', 'list', filter] as const,
};

/** The tenant's schedules overlapping the range, whose user's name contains the text. */
/** The query of the schedules list, and of its CSV export: the same filter. */
export const scheduleListQuery = (filter: ScheduleFilter) => ({
  from: filter.from,
  to: filter.to,
  userName: filter.userName || undefined,
});

export function schedulesQueryOptions(filter: ScheduleFilter) {
  return queryOptions({
    queryKey: scheduleKeys.list(filter),
    queryFn: ({ signal }) =>
      apiRequest<Schedule[]>('/schedule', {
        signal,
        query: scheduleListQuery(filter),
      }),
  });
}
