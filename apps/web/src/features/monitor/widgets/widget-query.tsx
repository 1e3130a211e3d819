import { MONITOR_PATHS, type WidgetAnswer, type WidgetKey } from '@opsdeck/contract/monitor';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { apiRequest } from '../../../lib/api-client';
import { monitorKeys } from '../../../resources/monitor';
import { browserTimeZone } from '../../reports/report-range';
import { filterWindow, type MonitorFilters } from '../monitor-filters';

/**
 * What every widget call of the page asks for (docs/monitor.md, "The widgets"): the filter days as
 * epoch milliseconds (`filterWindow`), the browser's zone, and the person, department and role
 * (left out when every one is meant).
 */
export interface WidgetParams {
  from: number;
  to: number;
  tz: string;
  user?: number;
  department?: number;
  role?: number;
}

export function widgetParams(filters: MonitorFilters): WidgetParams {
  const { from, to } = filterWindow(filters);
  return {
    from,
    to,
    tz: browserTimeZone(),
    ...(filters.user !== null && { user: filters.user }),
    ...(filters.department !== null && { department: filters.department }),
    ...(filters.role !== null && { role: filters.role }),
  };
}

/**
 * GET /api/report/monitor/{widgetKey}, keyed by the widget and everything it was asked for: a
 * change of filters is a new entry, and the card being dragged (the overlay) reads the same one.
 */
export function widgetQueryOptions<K extends WidgetKey>(widgetKey: K, params: WidgetParams) {
  return queryOptions({
    queryKey: [...monitorKeys.all, 'widget', widgetKey, params] as const,
    queryFn: ({ signal }) =>
      apiRequest<WidgetAnswer<K>>(MONITOR_PATHS.widget(widgetKey), { signal, query: { ...params } }),
  });
}

/**
 * The page's filters, handed to every card body through context rather than through the grid,
 * the sortable columns and the drag overlay, which have no use for them.
 */
const WidgetParamsContext = createContext<WidgetParams | null>(null);

export function WidgetParamsProvider({ filters, children }: { filters: MonitorFilters; children: ReactNode }) {
  const params = useMemo(() => widgetParams(filters), [filters]);
  return <WidgetParamsContext.Provider value={params}>{children}</WidgetParamsContext.Provider>;
}

/** One widget's answer for the page's filters. */
export function useWidgetQuery<K extends WidgetKey>(widgetKey: K) {
  const params = useContext(WidgetParamsContext);
  if (params === null) throw new Error('useWidgetQuery needs a WidgetParamsProvider (the monitor page).');
  return useQuery(widgetQueryOptions(widgetKey, params));
}
