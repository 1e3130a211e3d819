import type { ReactNode } from 'react';
import { useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { DateRange, RangePreset } from '../search-bar/date-range';
import { type ListDefaults, type ListParams, parseListParams, rangeOf, serializeListParams } from './list-params';
import type { SortChange, SortState } from './table-state';

/** What the search bar reports: the text and the range, as a preset and its custom ends. */
export interface ListSearch {
  search: string;
  preset: RangePreset;
  custom: DateRange;
}

export interface ListState extends ListParams {
  /** The range to filter on, in epoch milliseconds. */
  range: DateRange;
  /** A new search or range starts again at page 1. */
  setSearch: (search: ListSearch | string) => void;
  /** A sort, or a change of the sort in force (a header click: DataTable's onSortChange). */
  setSort: (sort: SortState | SortChange) => void;
  setPage: (page: number) => void;
  /** Spread on DataTable (`<DataTable {...list.table} …/>`), in client or server mode. */
  table: {
    page: number;
    onPageChange: (page: number) => void;
    sort: SortState | null;
    onSortChange: (change: SortChange) => void;
  };
}

/**
 * One list page's search, range, sort and page, read from and written to the URL's query string.
 * A change of page or sort pushes a history entry, so that Back undoes it as a user expects; a
 * search pushes one when it starts and replaces it while it is typed on, so that typing does not
 * fill the back button. Leaving the page and coming back restores the list. `defaults` must be
 * stable (a module constant).
 */
/**
 * A tenant's list shown both as a page of its own and as a section of a company's page for the
 * provider (webhook endpoints, alert rules): whose rows, what goes above the table, and the page's
 * search and table state (a section keeps its own).
 */
export interface TenantSectionProps {
  /** Whose rows: undefined the stored tenant's (the viewer's own), or a company's (X-Tenant-Id). */
  tenant: string | undefined;
  /** What goes above the table, given the create dialog's opener: the page's header, or a section's title. */
  header: (create: () => void) => ReactNode;
  search?: string;
  table?: ListState['table'];
}

export function useListParams(defaults: ListDefaults = {}): ListState {
  const [query, setQuery] = useSearchParams();
  const params = useMemo(() => parseListParams(query, defaults), [query, defaults]);
  // The router renders a navigation in a transition: on a busy machine a second change (a sort
  // right after a search) can come before the first is rendered, and building it on the rendered
  // query lost the first. Changes build on the newest query written; a new location (the back
  // button, a link) replaces it.
  const written = useRef(query);
  const rendered = useRef(query);
  // The kind of the last change written: a search typed on replaces the entry its start pushed.
  const lastChange = useRef<'search' | 'other' | null>(null);
  if (rendered.current !== query) {
    rendered.current = query;
    // A location this hook did not write (Back, a link): the next search starts a new entry.
    if (written.current.toString() !== query.toString()) lastChange.current = null;
    written.current = query;
  }

  const update = (patch: Partial<ListParams>, kind: 'search' | 'other') => {
    const base = written.current;
    const next = serializeListParams({ ...parseListParams(base, defaults), ...patch }, defaults, base);
    if (next.toString() === base.toString()) return;
    const replace = kind === 'search' && lastChange.current === 'search';
    written.current = next;
    lastChange.current = kind;
    setQuery(next, { replace });
  };

  const setSearch = (search: ListSearch | string) => {
    const next =
      typeof search === 'string' ? { search } : { search: search.search, preset: search.preset, custom: search.custom };
    update({ ...next, page: 1 }, 'search');
  };
  // A change applies to the newest sort written, not the one rendered (see `written`).
  const setSort = (sort: SortState | SortChange) =>
    update(
      { sort: typeof sort === 'function' ? sort(parseListParams(written.current, defaults).sort) : sort, page: 1 },
      'other',
    );
  const setPage = (page: number) => update({ page }, 'other');

  return {
    ...params,
    range: rangeOf(params),
    setSearch,
    setSort,
    setPage,
    table: { page: params.page, onPageChange: setPage, sort: params.sort, onSortChange: setSort },
  };
}
