import type { Notification, NotificationPage, NotificationPreferences } from '@opsdeck/contract/alerts';
import type { Ok } from '@opsdeck/contract/auth';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import { useResourceMutation } from '../../lib/resource-mutation';

/**
 * The signed-in person's notification centre (docs/alerts.md): their own notifications, newest
 * first, with how many are unread, and which kinds reach them by e-mail. No tenant: a person's
 * notifications are theirs whichever company an admin acts on.
 */
export const notificationKeys = {
  all: ['notifications'] as const,
  /** The bell: its newest entries and the unread count, one call. */
  bell: ['notifications', 'bell'] as const,
  preferences: ['notifications', 'preferences'] as const,
};

/** How many of the newest the bell lists. */
export const BELL_PAGE_SIZE = 20;

/** GET /api/notification: the newest page, and `unread` of them all. */
export const bellQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.bell,
    queryFn: ({ signal }) =>
      apiRequest<NotificationPage>('/notification', { signal, query: { page: 1, size: BELL_PAGE_SIZE } }),
  });

/**
 * A notification the live channel brought: first in the bell's list, and one more unread. False
 * when the bell has nothing loaded to add it to (it is then read again).
 */
export function addArrived(queryClient: QueryClient, notification: Notification): boolean {
  let loaded = false;
  queryClient.setQueryData<NotificationPage>(notificationKeys.bell, (page) => {
    if (!page) return page;
    loaded = true;
    if (page.items.some((item) => item.id === notification.id)) return page;
    return {
      ...page,
      items: [notification, ...page.items].slice(0, page.size),
      total: page.total + 1,
      unread: page.unread + (notification.readAt === null ? 1 : 0),
    };
  });
  return loaded;
}

/** The bell's entries `ids` (all of them when none) shown read at once, before the server answers. */
function showRead(queryClient: QueryClient, ids: readonly number[] | 'all') {
  const now = Date.now();
  queryClient.setQueryData<NotificationPage>(notificationKeys.bell, (page) => {
    if (!page) return page;
    const marks = (item: Notification) => item.readAt === null && (ids === 'all' || ids.includes(item.id));
    const marked = page.items.filter(marks).length;
    return {
      ...page,
      items: page.items.map((item) => (marks(item) ? { ...item, readAt: now } : item)),
      unread: ids === 'all' ? 0 : Math.max(0, page.unread - marked),
    };
  });
}

/**
 * POST /api/notification/read: `{ ids }` or `{ all: true }`. Shown read at once; the bell reloads
 * when the server has answered, so a failure puts back what is so.
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (which: readonly number[] | 'all') =>
      apiRequest<Ok>('/notification/read', {
        method: 'POST',
        body: which === 'all' ? { all: true } : { ids: [...which] },
      }),
    onMutate: async (which) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.bell });
      showRead(queryClient, which);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.bell }),
  });
}

/** GET /api/notification/preferences: `{ email: { kind: false } }` for the kinds turned off (absent: on). */
export const preferencesQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.preferences,
    queryFn: ({ signal }) => apiRequest<NotificationPreferences>('/notification/preferences', { signal }),
  });

/** PUT /api/notification/preferences. */
export const useSavePreferences = () =>
  useResourceMutation(
    (body: NotificationPreferences) =>
      apiRequest<NotificationPreferences>('/notification/preferences', { method: 'PUT', body }),
    [notificationKeys.preferences],
  );
