import { LIMITS } from '@opsdeck/contract/limits';
import { lazy, Suspense } from 'react';
import { useAuthToken } from '../lib/session';

/** The toasts' container, with its transitions and scroll handling; shared with the preload of the shell. */
export const loadToasts = async () => ({ default: (await import('@mantine/notifications')).Notifications });

const Notifications = lazy(loadToasts);

/**
 * The toasts (spec section 8), mounted once someone is signed in: only the signed-in pages raise
 * one, and the container is a tenth of the login page's JavaScript otherwise (docs/performance.md,
 * the console's initial JavaScript). A toast raised before it has loaded waits in Mantine's store.
 */
export function Toasts() {
  const token = useAuthToken();
  if (token === null) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" autoClose={LIMITS.toastCloseMs} />
    </Suspense>
  );
}
