import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

/** The signed-in user's profile: name, company and authorities (spec section 3). */
export const profileKeys = { all: ['profile'] as const };

export function profileQueryOptions() {
  return queryOptions({
    queryKey: profileKeys.all,
    queryFn: ({ signal }) => apiRequest<CurrentUserProfile>('/user/profile/current-user', { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}
