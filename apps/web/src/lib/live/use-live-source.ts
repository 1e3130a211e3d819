import { useEffect, useMemo } from 'react';
import { clearSession, useAuthToken, useTenantId } from '../session';
import { createLiveClient } from './live-client';
import { type LiveSource, useLiveSourceOverride } from './live-source';

export interface LiveSourceOptions {
  /** Follow the agents too (the Events page, the agent report); false for a page that only hears runs. */
  agents?: boolean;
  /** Hear the runs stored; false for a connection that only hears notifications. */
  runs?: boolean;
  /** Hear the person's new notifications: the signed-in shell's one connection (features/notifications). */
  notifications?: boolean;
}

/**
 * The page's live source, or null when not `enabled` (the viewer may not watch): the one a test
 * provides, else a live client of this session (token and
 * the admin's chosen company), connected while the page is shown. A new token or company is a new
 * connection, as the server scopes a console by its CONNECT headers.
 */
export function useLiveSource(
  enabled: boolean,
  { agents = true, runs = true, notifications = false }: LiveSourceOptions = {},
): LiveSource | null {
  const override = useLiveSourceOverride();
  const token = useAuthToken();
  const tenantId = useTenantId();
  const client = useMemo(
    // A CONNECT refused with ERROR_UNAUTHORIZED ends the session as a 401 does (api-client's handler).
    () =>
      override || !enabled
        ? null
        : createLiveClient({ token, tenantId, agents, runs, notifications, onUnauthorized: clearSession }),
    [override, enabled, token, tenantId, agents, runs, notifications],
  );
  useEffect(() => {
    if (!client) return;
    client.start();
    return () => client.stop();
  }, [client]);
  return enabled ? (override ?? client) : null;
}
