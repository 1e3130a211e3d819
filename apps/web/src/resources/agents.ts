import type { AgentConnection } from '@opsdeck/contract/live';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

export const agentKeys = {
  all: ['agents'] as const,
  active: () => ['agents', 'active'] as const,
};

/**
 * GET /api/active-agents: the agents connected now, the list the live channel sends on request;
 * for a page that shows agents while its live connection is not up.
 */
export function activeAgentsQueryOptions() {
  return queryOptions({
    queryKey: agentKeys.active(),
    queryFn: ({ signal }) => apiRequest<AgentConnection[]>('/active-agents', { signal }),
  });
}
