import { type DirectoryItem, joinPath, pathSegments, ROOT_DIRECTORY } from '@opsdeck/contract/workflows';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { LIST_KEYS } from '../../components/data-table/list-params';
import type { Crumb } from '../../lib/breadcrumb-trail';

/** The query-string key of the directory listed: `?path=Workflows/Finance`; none is the root. */
export const PATH_PARAM = 'path';

/** The directory a URL lists. */
export function pathOf(query: URLSearchParams): string {
  const segments = pathSegments(query.get(PATH_PARAM) ?? '');
  return segments.length > 0 ? joinPath(...segments) : ROOT_DIRECTORY;
}

/**
 * The query string that lists another directory (spec section 2: drilling into a folder clears
 * the filters): its path and the list's sort; the search, the range and the page start afresh.
 */
export function queryOfPath(path: string, query: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const key of [LIST_KEYS.search, LIST_KEYS.range, LIST_KEYS.from, LIST_KEYS.to, LIST_KEYS.page]) next.delete(key);
  if (path === ROOT_DIRECTORY) next.delete(PATH_PARAM);
  else next.set(PATH_PARAM, path);
  return next;
}

/** A path's levels, each one's crumb leading back to it ('Workflows', 'Workflows/Finance', …). */
export function crumbsOfPath(path: string): Crumb[] {
  const segments = pathSegments(path);
  return segments.map((label, index) => ({ path: joinPath(...segments.slice(0, index + 1)), label }));
}

/** The path of a folder of a listing (a search lists items of folders below the current one). */
export const pathOfFolder = (item: Pick<DirectoryItem, 'parent' | 'name'>) => joinPath(item.parent, item.name);

/**
 * The directory the URL lists, a link to another, and going there (a history entry: back
 * returns); `toRoot` replaces the entry, for a directory that is not there.
 */
export function useDirectoryPath() {
  const [query, setQuery] = useSearchParams();
  const navigate = useNavigate();
  const toRoot = useCallback(() => navigate({ search: '' }, { replace: true }), [navigate]);
  return {
    path: pathOf(query),
    href: (path: string) => ({ search: `?${queryOfPath(path, query)}` }),
    open: (path: string) => setQuery(queryOfPath(path, query)),
    toRoot,
  };
}
