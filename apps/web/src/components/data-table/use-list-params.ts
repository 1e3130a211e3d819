import { useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { DateRange, RangePreset } from '../search-bar/date-range';
import { type ListDefaults, type ListParams, parseListParams, rangeOf, serializeListParams } from './list-params';
import type { SortState } from './table-state';

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
  setSort: (sort: SortState) => void;
  setPage: (page: number) => void;
  /** Spread on DataTable (`<DataTable {...list.table} …/>`), in client or server mode. */
  table: {
    page: number;
    onPageChange: (page: number) => void;
    sort: SortState | null;
    onSortChange: (sort: SortState) => void;
  };
}

/**
 * One list page's search, range, sort and page, read from and written to the URL's query string.
 * Changes replace the history entry rather than push one, so that typing a search does not fill the
 * back button; leaving the page and coming back restores the list. `defaults` must be stable (a
 * module constant).
 */
export function useListParams(defaults: ListDefaults = {}): ListState {
  const [query, setQuery] = useSearchParams();
  const params = useMemo(() => parseListParams(query, defaults), [query, defaults]);
  // The router renders a navigation in a transition: on a busy machine a second change (a sort
  // right after a search) can come before the first is rendered, and building it on the rendered
  // query lost the first. Changes build on the newest query written; a new location (the back
  // button, a link) replaces it.
  const written = useRef(query);
  const rendered = useRef(query);
  if (rendered.current !== query) {
    rendered.current = query;
    written.current = query;
  }

  const update = (patch: Partial<ListParams>) => {
    const base = written.current;
    const next = serializeListParams({ ...parseListParams(base, defaults), ...patch }, defaults, base);
    written.current = next;
    setQuery(next, { replace: true });
  };

  const setSearch = (search: ListSearch | string) => {
    const next =
      typeof search === 'string' ? { search } : { search: search.search, preset: search.preset, custom: search.custom };
    update({ ...next, page: 1 });
  };
  const setSort = (sort: SortState) => update({ sort, page: 1 });
  const setPage = (page: number) => update({ page });

  return {
    ...params,
    range: rangeOf(params),
    setSearch,
    setSort,
    setPage,
    table: { page: params.page, onPageChange: setPage, sort: params.sort, onSortChange: setSort },
  };
}
