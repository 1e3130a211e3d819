import { useSearchParams } from 'react-router';
import { LIST_KEYS } from '../../components/data-table/list-params';
import { HISTORY_KEYS } from '../../components/history-link';

/** The audit page's own query-string keys, beside the list's (q, range, from, to, page). */
export const AUDIT_FILTER_KEYS = {
  actor: 'actor',
  action: 'action',
  entityType: HISTORY_KEYS.entityType,
  entityId: HISTORY_KEYS.entityId,
  /** The record open in the before/after view. */
  record: 'record',
} as const;

export interface AuditFilters {
  actor: string | null;
  action: string | null;
  entityType: string | null;
  entityId: string | null;
}

type FilterKey = keyof AuditFilters;

const read = (query: URLSearchParams, key: string) => {
  const value = query.get(key)?.trim();
  return value ? value : null;
};

function positiveId(value: string | null): number | null {
  if (value === null || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 ? id : null;
}

/**
 * The person, action and entity filters and the open record, in the URL like the list's search
 * and range (useListParams), so that a reload, a shared link and 'History' of an area's row show
 * the same records. A filter change goes back to page 1 and pushes a history entry; opening and
 * closing a record replaces the entry, so Back leaves the page rather than reopening a record.
 */
export function useAuditFilters() {
  const [query, setQuery] = useSearchParams();
  const filters: AuditFilters = {
    actor: positiveId(read(query, AUDIT_FILTER_KEYS.actor)) === null ? null : read(query, AUDIT_FILTER_KEYS.actor),
    action: read(query, AUDIT_FILTER_KEYS.action),
    entityType: read(query, AUDIT_FILTER_KEYS.entityType),
    entityId: read(query, AUDIT_FILTER_KEYS.entityId),
  };
  const record = positiveId(read(query, AUDIT_FILTER_KEYS.record));

  const setFilters = (patch: Partial<AuditFilters>) =>
    setQuery((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(patch) as [FilterKey, string | null][]) {
        if (value) next.set(AUDIT_FILTER_KEYS[key], value);
        else next.delete(AUDIT_FILTER_KEYS[key]);
      }
      next.delete(LIST_KEYS.page);
      next.delete(AUDIT_FILTER_KEYS.record);
      return next;
    });

  const setRecord = (id: number | null) =>
    setQuery(
      (current) => {
        const next = new URLSearchParams(current);
        if (id === null) next.delete(AUDIT_FILTER_KEYS.record);
        else next.set(AUDIT_FILTER_KEYS.record, String(id));
        return next;
      },
      { replace: true },
    );

  return { filters, setFilters, record, setRecord };
}
