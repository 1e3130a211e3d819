import { MONITOR_PATHS, type UpdateVisibleWidgets, type VisibleWidget, type Widget } from '@opsdeck/contract/monitor';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

/** The monitor dashboard's reads, under one root key: invalidating ['monitor'] refreshes them all. */
export const monitorKeys = {
  all: ['monitor'] as const,
  catalogue: ['monitor', 'catalogue'] as const,
  layout: (userId: number) => ['monitor', 'layout', userId] as const,
};

/** GET /api/widget: the sixteen widgets; a fixed list, read once a session. */
export function widgetCatalogueQueryOptions() {
  return queryOptions({
    queryKey: monitorKeys.catalogue,
    queryFn: ({ signal }) => apiRequest<Widget[]>(MONITOR_PATHS.widgets, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * GET /api/user/getVisibleWidgets/{id}: the user's sixteen widgets. The page owns the layout once
 * it is shown (its saves write the answer back here), so it is not refetched behind its back.
 */
export function visibleWidgetsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: monitorKeys.layout(userId),
    queryFn: ({ signal }) => apiRequest<VisibleWidget[]>(MONITOR_PATHS.visibleWidgets(userId), { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** POST /api/user/updateVisibleWidgets/{id}: answers the new sixteen. */
export function updateVisibleWidgets(userId: number, body: UpdateVisibleWidgets) {
  return apiRequest<VisibleWidget[]>(MONITOR_PATHS.updateVisibleWidgets(userId), { method: 'POST', body });
}
