import type { NewSchedule, Schedule, ScheduleTimes } from '@opsdeck/contract/schedules';
import type { User } from '@opsdeck/contract/users';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

export type ScheduleFilter = { from: number | null; to: number | null; userName: string };

export const scheduleKeys = {
  all: ['schedules'] as const,
  list: (filter: ScheduleFilter) => ['schedules', 'list', filter] as const,
  users: (tenantId: string | null) => ['schedules', 'users', tenantId] as const,
};

/** The tenant's schedules overlapping the range, whose user's name contains the text. */
export function schedulesQueryOptions(filter: ScheduleFilter) {
  return queryOptions({
    queryKey: scheduleKeys.list(filter),
    queryFn: ({ signal }) =>
      apiRequest<Schedule[]>('/schedule', {
        signal,
        query: { from: filter.from, to: filter.to, userName: filter.userName || undefined },
      }),
  });
}

/** The users a schedule can be made for: the own company's, or the admin's chosen company's. */
export function scheduleUsersQueryOptions(tenantId: string | null, admin: boolean) {
  return queryOptions({
    queryKey: scheduleKeys.users(tenantId),
    queryFn: ({ signal }) => apiRequest<User[]>('/user/get-user-list', { signal, ...(admin ? { tenantId } : {}) }),
    enabled: !admin || tenantId !== null,
    staleTime: 30_000,
  });
}

export function useCreateSchedules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ records, tenantId }: { records: NewSchedule[]; tenantId?: string }) =>
      apiRequest<Schedule[]>('/schedule', { method: 'POST', body: records, ...(tenantId ? { tenantId } : {}) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}

export function useUpdateSchedules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (records: ScheduleTimes[]) => apiRequest<Schedule[]>('/schedule', { method: 'PUT', body: records }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}

export function useArchiveSchedules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => apiRequest<{ ids: number[] }>('/schedule', { method: 'PATCH', body: ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all }),
  });
}
