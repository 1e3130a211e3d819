import { LIMITS } from '@opsdeck/contract/limits';
import type { Page } from '@opsdeck/contract/paging';
import {
  type ExecutionException,
  type ExecutionLog,
  type ExecutionTimeEntry,
  type Metrics,
  REPORT_PATHS,
  USE_COUNT_LIMIT_DEFAULT,
  type UseCount,
} from '@opsdeck/contract/reports';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

/** A report's window: epoch milliseconds, both ends inclusive and both known (the API needs them). */
export interface ReportWindow {
  from: number;
  to: number;
}

/** The two lists of runs: the exceptions (faulted runs) and every execution log. */
export type ExecutionListKind = 'exceptions' | 'logs';

/** What a page of the exceptions or logs table asks for (`sort` is on executionStart, the only key). */
export interface ExecutionPageParams extends ReportWindow {
  page: number;
  direction: 'asc' | 'desc';
  search: string;
  /** The browser's zone: the server searches dates as the table shows them. */
  tz: string;
}

/**
 * Every report view is under ['reports'], so that a run the live channel announces refreshes them
 * all with one invalidation (and a page's polling does the same).
 */
export const reportKeys = {
  all: ['reports'] as const,
  metrics: (window: ReportWindow) => ['reports', 'metrics', window.from, window.to] as const,
  useCounts: (window: ReportWindow, limit: number) => ['reports', 'use-counts', window.from, window.to, limit] as const,
  totalHours: (window: ReportWindow, tz: string) => ['reports', 'total-hours', window.from, window.to, tz] as const,
  newest: (kind: ExecutionListKind, window: ReportWindow, limit: number) =>
    ['reports', kind, 'newest', window.from, window.to, limit] as const,
  page: (kind: ExecutionListKind, params: ExecutionPageParams) => ['reports', kind, 'page', params] as const,
};

const range = ({ from, to }: ReportWindow) => ({ from, to });

/** GET /api/report/agent/metrics: completed, failed and scheduled runs of the window. */
export function metricsQueryOptions(window: ReportWindow) {
  return queryOptions({
    queryKey: reportKeys.metrics(window),
    queryFn: ({ signal }) => apiRequest<Metrics>(REPORT_PATHS.metrics, { signal, query: range(window) }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/report/agent/use-counts: the most used workflows, most used first. */
export function useCountsQueryOptions(window: ReportWindow, limit: number = USE_COUNT_LIMIT_DEFAULT) {
  return queryOptions({
    queryKey: reportKeys.useCounts(window, limit),
    queryFn: ({ signal }) =>
      apiRequest<UseCount[]>(REPORT_PATHS.useCounts, { signal, query: { ...range(window), limit } }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/report/agent/total-hours: executed milliseconds per day of `tz`, zero days included. */
export function totalHoursQueryOptions(window: ReportWindow, tz: string) {
  return queryOptions({
    queryKey: reportKeys.totalHours(window, tz),
    queryFn: ({ signal }) =>
      apiRequest<ExecutionTimeEntry[]>(REPORT_PATHS.totalHours, { signal, query: { ...range(window), tz } }),
    placeholderData: keepPreviousData,
  });
}

type RowOf<K extends ExecutionListKind> = K extends 'logs' ? ExecutionLog : ExecutionException;

/** The newest `limit` runs of the window as an array (the call without `page`): the report's panels. */
export function newestExecutionsQueryOptions<K extends ExecutionListKind>(
  kind: K,
  window: ReportWindow,
  limit: number,
) {
  return queryOptions({
    queryKey: reportKeys.newest(kind, window, limit),
    queryFn: ({ signal }) => apiRequest<RowOf<K>[]>(REPORT_PATHS[kind], { signal, query: { ...range(window), limit } }),
    placeholderData: keepPreviousData,
  });
}

/** The query string of a page, and (without `page` and `size`) of its CSV export: the same filter. */
export function executionListQuery(params: Omit<ExecutionPageParams, 'page'>) {
  return {
    ...range(params),
    search: params.search || undefined,
    sort: `executionStart,${params.direction}`,
    tz: params.tz,
  };
}

/** One page of the exceptions or logs table, paged, sorted and searched by the server. */
export function executionPageQueryOptions<K extends ExecutionListKind>(kind: K, params: ExecutionPageParams) {
  return queryOptions({
    queryKey: reportKeys.page(kind, params),
    queryFn: ({ signal }) =>
      apiRequest<Page<RowOf<K>>>(REPORT_PATHS[kind], {
        signal,
        query: { ...executionListQuery(params), page: params.page, size: LIMITS.pageSize },
      }),
    placeholderData: keepPreviousData,
  });
}
