import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { LiveSource } from '../../lib/live/live-source';
import { useLiveSnapshot } from '../../lib/live/live-source';
import { type ReportWindow, reportKeys } from '../../resources/reports';
import { includesNow } from './report-range';

/** Runs announced together (a fleet finishing at once) refresh the page once per this many ms at most. */
export const LIVE_REFRESH_MS = 1_500;
/** Without the live channel, a window that includes now is read again this often. */
export const POLL_MS = 15_000;

export type RefreshMode = 'live' | 'polling' | 'past';

export interface ReportRefresh {
  mode: RefreshMode;
  /** For the window's queries: poll while no live connection tells of new runs. */
  refetchInterval: number | false;
}

/**
 * Keeps a report page's views current while its window includes now (spec: new runs appear
 * without a reload). With a live source, each run the server stores (`/topic/executions/{t}`)
 * whose start lies in the window invalidates every ['reports'] query, coalesced to once per
 * LIVE_REFRESH_MS; a reconnection invalidates once too, for the runs told while it was away.
 * Without one (no VIEW_WORKFLOW_EVENTS), or while it is down, the queries poll every POLL_MS.
 */
export function useReportRefresh(source: LiveSource | null, window: ReportWindow): ReportRefresh {
  const queryClient = useQueryClient();
  const { connection } = useLiveSnapshot(source);
  const connected = source !== null && connection.status === 'connected';
  const windowRef = useRef(window);
  windowRef.current = window;

  useEffect(() => {
    if (!source) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = Number.NEGATIVE_INFINITY;
    const flush = () => {
      timer = undefined;
      last = Date.now();
      void queryClient.invalidateQueries({ queryKey: reportKeys.all });
    };
    const stop = source.onExecution((notice) => {
      const { from, to } = windowRef.current;
      if (notice.executionStart < from || notice.executionStart > to || timer !== undefined) return;
      timer = setTimeout(flush, Math.max(0, last + LIVE_REFRESH_MS - Date.now()));
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [source, queryClient]);

  // Back after a loss: what was stored meanwhile was told to nobody.
  const wasConnected = useRef(false);
  const lostSince = useRef(false);
  useEffect(() => {
    if (connected) {
      if (lostSince.current && includesNow(windowRef.current))
        void queryClient.invalidateQueries({ queryKey: reportKeys.all });
      wasConnected.current = true;
      lostSince.current = false;
    } else if (wasConnected.current) {
      lostSince.current = true;
    }
  }, [connected, queryClient]);

  if (!includesNow(window)) return { mode: 'past', refetchInterval: false };
  return connected ? { mode: 'live', refetchInterval: false } : { mode: 'polling', refetchInterval: POLL_MS };
}
