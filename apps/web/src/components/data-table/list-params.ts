import { type DateRange, presetRange, RANGE_PRESETS, type RangePreset } from '../search-bar/date-range';
import type { SortState } from './table-state';

/**
 * A list page's state as the URL holds it (docs/conventions.md, "14. The URL holds the list";
 * react-admin's useListParams), so that a reload, a shared link and the back button show the same
 * rows:
 * `?q=text&range=thisWeek&sort=-name&page=3`, or `range=custom&from=…&to=…` (epoch milliseconds).
 * A value equal to the page's default is left out of the URL.
 */
export interface ListParams {
  search: string;
  /** The date range's preset; 'custom' takes its ends from `custom`. */
  preset: RangePreset;
  custom: DateRange;
  sort: SortState | null;
  page: number;
}

export interface ListDefaults {
  sort?: SortState | null;
  /** The range a page opens on (spec: the log pages start on today). */
  preset?: RangePreset;
  /** The sort keys the page knows; another key in the URL falls back to the default sort. */
  sortKeys?: readonly string[];
}

/** The query-string keys a list owns; other keys of the URL are left alone. */
export const LIST_KEYS = { search: 'q', range: 'range', from: 'from', to: 'to', sort: 'sort', page: 'page' } as const;

function parseEpoch(value: string | null): number | null {
  if (value === null || !/^-?\d{1,15}$/.test(value)) return null;
  return Number(value);
}

function parseSort(value: string | null, defaults: ListDefaults): SortState | null {
  const fallback = defaults.sort ?? null;
  if (!value) return fallback;
  const direction = value.startsWith('-') ? 'desc' : 'asc';
  const key = value.replace(/^-/, '');
  if (!key || (defaults.sortKeys && !defaults.sortKeys.includes(key))) return fallback;
  return { key, direction };
}

function formatSort(sort: SortState): string {
  return sort.direction === 'desc' ? `-${sort.key}` : sort.key;
}

const sameSort = (a: SortState | null, b: SortState | null) =>
  a === b || (a !== null && b !== null && a.key === b.key && a.direction === b.direction);

export function parseListParams(query: URLSearchParams, defaults: ListDefaults = {}): ListParams {
  const range = query.get(LIST_KEYS.range);
  const preset = (RANGE_PRESETS as readonly string[]).includes(range ?? '')
    ? (range as RangePreset)
    : (defaults.preset ?? 'all');
  const page = Number(query.get(LIST_KEYS.page));
  return {
    search: query.get(LIST_KEYS.search)?.trim() ?? '',
    preset,
    custom: { from: parseEpoch(query.get(LIST_KEYS.from)), to: parseEpoch(query.get(LIST_KEYS.to)) },
    sort: parseSort(query.get(LIST_KEYS.sort), defaults),
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/** `query` with the list's keys rewritten from `params`; the other keys are kept. */
export function serializeListParams(
  params: ListParams,
  defaults: ListDefaults = {},
  query: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const key of Object.values(LIST_KEYS)) next.delete(key);
  if (params.search) next.set(LIST_KEYS.search, params.search);
  if (params.preset !== (defaults.preset ?? 'all')) next.set(LIST_KEYS.range, params.preset);
  if (params.preset === 'custom') {
    if (params.custom.from !== null) next.set(LIST_KEYS.from, String(params.custom.from));
    if (params.custom.to !== null) next.set(LIST_KEYS.to, String(params.custom.to));
  }
  if (params.sort && !sameSort(params.sort, defaults.sort ?? null)) next.set(LIST_KEYS.sort, formatSort(params.sort));
  if (params.page > 1) next.set(LIST_KEYS.page, String(params.page));
  return next;
}

/** The range the list filters on, in epoch milliseconds (a preset is resolved at `now`). */
export function rangeOf(params: Pick<ListParams, 'preset' | 'custom'>, now: number = Date.now()): DateRange {
  return params.preset === 'custom' ? params.custom : presetRange(params.preset, now);
}
