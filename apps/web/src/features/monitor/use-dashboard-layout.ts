import type { VisibleWidget } from '@opsdeck/contract/monitor';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../lib/api-client';
import { errorText, i18n } from '../../lib/i18n';
import { notifyErrorKey } from '../../lib/notify';
import { monitorKeys, updateVisibleWidgets, visibleWidgetsQueryOptions } from '../../resources/monitor';
import { type Layout, layoutFromWidgets, layoutToBody } from './layout';
import { createLayoutSaver } from './layout-saver';

/** Spec section 7 and 9: the visible widgets are loaded after a 200 ms delay. */
export const LOAD_DELAY_MS = 200;

/**
 * The signed-in user's layout: read 200 ms after the page opens, changed on screen at once, saved
 * 500 ms after the last change; a failed save says so and puts back the layout the server has.
 * `onRead` hears each layout read from the server before the page draws it.
 */
export function useDashboardLayout(userId: number, onRead?: (layout: Layout) => void) {
  const onReadRef = useRef(onRead);
  onReadRef.current = onRead;
  const queryClient = useQueryClient();
  const [started, setStarted] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setStarted(true), LOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const query = useQuery({ ...visibleWidgetsQueryOptions(userId), enabled: started });
  const [layout, setLayout] = useState<Layout | null>(null);

  const saverRef = useRef<ReturnType<typeof createLayoutSaver<VisibleWidget[]>> | null>(null);
  if (saverRef.current === null) {
    saverRef.current = createLayoutSaver<VisibleWidget[]>({
      save: (next) => updateVisibleWidgets(userId, layoutToBody(next)),
      onSaved: (answer) => queryClient.setQueryData(monitorKeys.layout(userId), answer),
      onFailed: (error, restore) => {
        setLayout(restore);
        const reason = errorText(isApiError(error) ? error.errorKey : 'ERROR_GENERAL_INTERNAL');
        notifyErrorKey(i18n.t('monitor.saveFailed', { reason }));
      },
    });
  }
  const saver = saverRef.current;

  // The server's layout shows unless a change of ours waits or is on its way.
  useEffect(() => {
    if (!query.data || saver.busy()) return;
    const read = layoutFromWidgets(query.data);
    onReadRef.current?.(read);
    saver.confirm(read);
    setLayout(read);
  }, [query.data, saver]);

  // Leaving the page within the delay still saves the last change.
  useEffect(
    () => () => {
      void saver.flush();
    },
    [saver],
  );

  const change = useCallback(
    (next: Layout) => {
      setLayout(next);
      saver.change(next);
    },
    [saver],
  );

  return { layout, change, isError: query.isError, refetch: query.refetch };
}
