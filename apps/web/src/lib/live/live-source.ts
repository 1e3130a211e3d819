import type { Notification } from '@opsdeck/contract/alerts';
import type { ExecutionNotice } from '@opsdeck/contract/live';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { EMPTY_LIVE_STATE, type LiveState } from './live-state';

/**
 * connecting: the first attempt; connected: CONNECTED received; reconnecting: the socket closed
 * (or never opened) and the next attempt waits its back-off; refused: the server answered CONNECT
 * with an ERROR whose key will not change by retrying (ERROR_UNAUTHORIZED, ERROR_FORBIDDEN, …).
 */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'refused';

export interface ConnectionState {
  status: ConnectionStatus;
  /** The ERROR frame's key when refused (or the last one heard before a reconnection). */
  errorKey: string | null;
}

export interface LiveSnapshot {
  connection: ConnectionState;
  live: LiveState;
}

/** Told of each run an agent of the console's scope ended and the server stored. */
export type ExecutionListener = (notice: ExecutionNotice) => void;

/** Told of each new entry of the signed-in person's notification centre. */
export type NotificationListener = (notification: Notification) => void;

/**
 * What the Events page reads and calls: the live client (live-client.ts) or, in tests, a fake.
 * A store for useSyncExternalStore: the snapshot is a new object only when something changed.
 */
export interface LiveSource {
  getSnapshot(): LiveSnapshot;
  subscribe(listener: () => void): () => void;
  /** Asks the agent to queue the workflow; resolves on the server's RECEIPT, rejects with an ApiError keyed by the refusal. */
  execute(sessionId: string, workflowId: number): Promise<void>;
  /** Stops a running entry or unqueues a queued one; settles as execute does. */
  terminate(sessionId: string, workflowId: number, queueId: number): Promise<void>;
  /** Connects again now (after a refusal, or to skip the back-off wait). */
  retry(): void;
  /** Listens for the runs stored (`/topic/executions/{t}`) until the returned function is called. */
  onExecution(listener: ExecutionListener): () => void;
  /** Listens for the person's new notifications (`/user/topic/notifications`) until the returned function is called. */
  onNotification(listener: NotificationListener): () => void;
}

export const INITIAL_SNAPSHOT: LiveSnapshot = {
  connection: { status: 'connecting', errorKey: null },
  live: EMPTY_LIVE_STATE,
};

/** Lets a test (or a story) hand the page its own source instead of a real connection. */
export const LiveSourceContext = createContext<LiveSource | null>(null);

export function useLiveSourceOverride(): LiveSource | null {
  return useContext(LiveSourceContext);
}

const noSubscription = () => () => {};
const initial = () => INITIAL_SNAPSHOT;

/** The source's current snapshot, re-rendering on each change; the initial one while there is no source. */
export function useLiveSnapshot(source: LiveSource | null): LiveSnapshot {
  return useSyncExternalStore(
    source ? source.subscribe : noSubscription,
    source ? source.getSnapshot : initial,
    source ? source.getSnapshot : initial,
  );
}
