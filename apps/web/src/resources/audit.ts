import { AUDIT_PATHS, type AuditRecord } from '@opsdeck/contract/audit';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Page } from '@opsdeck/contract/paging';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

/** The audit page's filter: the search bar's text and range, and the three selects and one entity. */
export interface AuditFilter {
  search: string;
  /** Epoch milliseconds, both ends included; null is unbounded. */
  from: number | null;
  to: number | null;
  /** A user id, as the URL and the select hold it. */
  actor: string | null;
  action: string | null;
  entityType: string | null;
  /** One entity's history ('History' in an area's row actions). */
  entityId: string | null;
}

export interface AuditPageParams extends AuditFilter {
  page: number;
}

/** The audit log's keys, all under ['audit']. */
export const auditKeys = {
  all: ['audit'] as const,
  page: (params: AuditPageParams) => ['audit', 'page', params] as const,
  detail: (id: number) => ['audit', 'detail', id] as const,
};

/** The query string of the filter, and (without `page` and `size`) of its CSV export. */
export function auditListQuery(filter: AuditFilter) {
  return {
    search: filter.search || undefined,
    from: filter.from ?? undefined,
    to: filter.to ?? undefined,
    actor: filter.actor ?? undefined,
    action: filter.action ?? undefined,
    entityType: filter.entityType ?? undefined,
    entityId: filter.entityId ?? undefined,
  };
}

/**
 * One page of the log, newest first (GET /api/audit?page=&size=10&…), the previous page shown while
 * the next loads. Every change anywhere (another tab, another person, an agent) writes to the log,
 * and no write of this console can name every view it makes stale, so opening the page always asks
 * again; paging within it uses what it has.
 */
export function auditPageQueryOptions(params: AuditPageParams) {
  return queryOptions({
    queryKey: auditKeys.page(params),
    queryFn: ({ signal }) =>
      apiRequest<Page<AuditRecord>>(AUDIT_PATHS.list, {
        signal,
        query: { ...auditListQuery(params), page: params.page, size: LIMITS.pageSize },
      }),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}

/** One record (GET /api/audit/{id}); records never change, so a record read once stays good. */
export function auditRecordQueryOptions(id: number) {
  return queryOptions({
    queryKey: auditKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<AuditRecord>(AUDIT_PATHS.one.replace(':id', String(id)), { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
