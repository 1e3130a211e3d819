export type SortDirection = 'asc' | 'desc';

export interface SortState {
  key: string;
  direction: SortDirection;
}

export type SortValue = string | number | boolean | null | undefined;

/**
 * A header click, as what the sort becomes from the one in force when it is applied: a second
 * click that comes before the first one's render (the router renders navigations in a
 * transition) must flip the sort the first click made, not the one still on screen.
 */
export type SortChange = (current: SortState | null) => SortState;

/** Clicking a header sorts by it ascending; clicking it again flips the direction. */
export function nextSort(current: SortState | null, key: string): SortState {
  if (current?.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Empty values sort last in both directions, so that they never crowd the top of a table. */
export function compareValues(a: SortValue, b: SortValue, direction: SortDirection): number {
  const aEmpty = a === null || a === undefined || a === '';
  const bEmpty = b === null || b === undefined || b === '';
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  const order = typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));
  return direction === 'asc' ? order : -order;
}

export function sortRows<T>(
  rows: readonly T[],
  sort: SortState | null,
  valueAt: (row: T, key: string) => SortValue,
): T[] {
  if (!sort) return [...rows];
  return [...rows].sort((a, b) => compareValues(valueAt(a, sort.key), valueAt(b, sort.key), sort.direction));
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A page number kept inside 1..pageCount (a filter can shrink the list under the current page). */
export function clampPage(page: number, total: number, pageSize: number): number {
  return Math.min(Math.max(1, page), pageCount(total, pageSize));
}

export function pageSlice<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  const start = (page - 1) * pageSize;
  return rows.slice(start, start + pageSize);
}
