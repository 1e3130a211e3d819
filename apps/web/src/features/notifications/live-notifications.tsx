import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type ConnectionStatus, useLiveSnapshot } from '../../lib/live/live-source';
import { useLiveSource } from '../../lib/live/use-live-source';
import { alertKeys } from '../alerts/api';
import { addArrived, notificationKeys } from './api';

/**
 * The signed-in shell's one live connection, for the person's notifications only (no agents, no
 * runs): each one arriving goes first in the bell's list and counts as unread at once, and the open
 * alerts reload. Each (re)connection reads the bell again, for what came while it was away. Tells
 * the bell the connection's state (it polls while not connected). Loaded apart from the shell: the
 * live client, STOMP and zod are not in the shell's first chunk.
 */
export function LiveNotifications({ onStatus }: { onStatus: (status: ConnectionStatus) => void }) {
  const queryClient = useQueryClient();
  const source = useLiveSource(true, { agents: false, runs: false, notifications: true });
  const { status } = useLiveSnapshot(source).connection;

  useEffect(() => {
    if (!source) return;
    return source.onNotification((notification) => {
      if (!addArrived(queryClient, notification))
        void queryClient.invalidateQueries({ queryKey: notificationKeys.bell });
      void queryClient.invalidateQueries({ queryKey: alertKeys.all });
    });
  }, [source, queryClient]);

  useEffect(() => {
    onStatus(status);
    if (status === 'connected') void queryClient.invalidateQueries({ queryKey: notificationKeys.bell });
  }, [status, onStatus, queryClient]);

  return null;
}
