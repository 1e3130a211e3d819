import type { Notification } from '@opsdeck/contract/alerts';
import type { ExecutionNotice } from '@opsdeck/contract/live';
import { act } from '@testing-library/react';
import { vi } from 'vitest';
import { ApiError } from '../lib/api-client';
import {
  type ExecutionListener,
  INITIAL_SNAPSHOT,
  type LiveSnapshot,
  type LiveSource,
  type NotificationListener,
} from '../lib/live/live-source';
import { EMPTY_LIVE_STATE, type LiveEvent, liveReducer } from '../lib/live/live-state';
import type { buildAgent } from './live-builders';

/**
 * A live source the test drives in place of the live channel (provide it with LiveSourceContext):
 * its state goes through the real reducer, and `execution` plays a run the server stored.
 */
export class FakeLiveSource implements LiveSource {
  snapshot: LiveSnapshot = INITIAL_SNAPSHOT;
  readonly listeners = new Set<() => void>();
  readonly executionListeners = new Set<ExecutionListener>();
  readonly notificationListeners = new Set<NotificationListener>();
  /** As the live client: a command without a connection fails at once. */
  readonly execute = vi.fn(async (_sessionId: string, _workflowId: number) => this.connectedOrFail());
  readonly terminate = vi.fn(async (_sessionId: string, _workflowId: number, _queueId: number) =>
    this.connectedOrFail(),
  );
  readonly retry = vi.fn();

  getSnapshot = () => this.snapshot;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  onExecution = (listener: ExecutionListener) => {
    this.executionListeners.add(listener);
    return () => {
      this.executionListeners.delete(listener);
    };
  };

  onNotification = (listener: NotificationListener) => {
    this.notificationListeners.add(listener);
    return () => {
      this.notificationListeners.delete(listener);
    };
  };

  connectedOrFail() {
    if (this.snapshot.connection.status !== 'connected')
      throw new ApiError(0, 'ERROR_WEBSOCKET_CONNECTION_FAILURE', 'not connected');
  }
  set(next: Partial<LiveSnapshot>) {
    act(() => {
      this.snapshot = { ...this.snapshot, ...next };
      for (const listener of this.listeners) listener();
    });
  }
  status(status: LiveSnapshot['connection']['status'], errorKey: string | null = null) {
    this.set({ connection: { status, errorKey } });
  }
  send(...events: LiveEvent[]) {
    this.set({ live: events.reduce(liveReducer, this.snapshot.live) });
  }
  /** Connected as the console of `tenantId` (null: an admin watching every company), with these agents. */
  connect(agents: ReturnType<typeof buildAgent>[], tenantId: string | null = 'tenant-acme') {
    this.set({
      connection: { status: 'connected', errorKey: null },
      live: liveReducer(liveReducer(EMPTY_LIVE_STATE, { type: 'identity', identity: { tenantId, sessionId: 'c-1' } }), {
        type: 'activeAgents',
        agents,
      }),
    });
  }
  /** A run stored by the server, as `/topic/executions/{t}` tells it. */
  execution(overrides: Partial<ExecutionNotice> = {}) {
    const notice: ExecutionNotice = {
      id: 'run-1',
      tenantId: 'tenant-acme',
      workflowId: 1,
      executionStart: Date.now() - 60_000,
      executionEnd: Date.now(),
      statusType: 'success',
      ...overrides,
    };
    act(() => {
      for (const listener of this.executionListeners) listener(notice);
    });
  }
  /** A new notification of the signed-in person, as `/user/topic/notifications` tells it. */
  notification(notification: Notification) {
    act(() => {
      for (const listener of this.notificationListeners) listener(notification);
    });
  }
}
