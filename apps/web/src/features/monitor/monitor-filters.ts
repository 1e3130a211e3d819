import dayjs from 'dayjs';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The monitor's filters (spec section 2): `user`, `department`, `role` (an id; absent = every one,
 * the selects' "All …" option) and the days from `dateFrom` to `dateTo`, both included, in the
 * browser's zone. The URL holds the dates as the spec says, epoch milliseconds (the first
 * millisecond of the first day and the last of the last); the page works with the days
 * ('YYYY-MM-DD') they fall in, and the widget calls get their range back from those days.
 */
export interface MonitorFilters {
  user: number | null;
  department: number | null;
  role: number | null;
  dateFrom: string;
  dateTo: string;
}

export const FILTER_KEYS = ['user', 'department', 'role', 'dateFrom', 'dateTo'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A 'YYYY-MM-DD' that is a real day ('2026-02-30' is not). */
export function isDay(value: string | null): value is string {
  return value !== null && DAY.test(value) && dayjs(value).format('YYYY-MM-DD') === value;
}

/** A date of the URL: whole epoch milliseconds within what a Date holds. */
function parseMs(value: string | null): number | null {
  if (value === null || !/^\d{1,16}$/.test(value)) return null;
  const ms = Number(value);
  return ms <= 8_640_000_000_000_000 ? ms : null;
}

const dayOf = (ms: number) => dayjs(ms).format('YYYY-MM-DD');

function parseId(value: string | null): number | null {
  if (value === null || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** The filters of a query string, or null when its dates are missing or not a range (the page then goes to today). */
export function parseMonitorFilters(query: URLSearchParams): MonitorFilters | null {
  const from = parseMs(query.get('dateFrom'));
  const to = parseMs(query.get('dateTo'));
  if (from === null || to === null || from > to) return null;
  const dateFrom = dayOf(from);
  const dateTo = dayOf(to);
  return {
    user: parseId(query.get('user')),
    department: parseId(query.get('department')),
    role: parseId(query.get('role')),
    dateFrom,
    dateTo,
  };
}

/** `query` with the filters written in; other keys are kept, a filter on every one is left out. */
export function serializeMonitorFilters(filters: MonitorFilters, query = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const key of FILTER_KEYS) next.delete(key);
  for (const key of ['user', 'department', 'role'] as const) {
    const value = filters[key];
    if (value !== null) next.set(key, String(value));
  }
  const window = filterWindow(filters);
  next.set('dateFrom', String(window.from));
  next.set('dateTo', String(window.to));
  return next;
}

/** Today in the browser's zone, as both ends. */
export function todayFilters(now: number = Date.now()): Pick<MonitorFilters, 'dateFrom' | 'dateTo'> {
  const today = dayjs(now).format('YYYY-MM-DD');
  return { dateFrom: today, dateTo: today };
}

/** `query` made whole: the person, department and role it names, and today when its dates are not a range. */
export function withDefaultDates(query: URLSearchParams, now: number = Date.now()): URLSearchParams {
  const ids = {
    user: parseId(query.get('user')),
    department: parseId(query.get('department')),
    role: parseId(query.get('role')),
  };
  return serializeMonitorFilters({ ...ids, ...todayFilters(now) }, query);
}

/** The epoch-millisecond range the widget calls are asked for: the first to the last millisecond of the days. */
export function filterWindow(filters: Pick<MonitorFilters, 'dateFrom' | 'dateTo'>) {
  return { from: dayjs(filters.dateFrom).startOf('day').valueOf(), to: dayjs(filters.dateTo).endOf('day').valueOf() };
}

/**
 * The page's filters from the URL. Without a date range it replaces the URL with today's (the
 * spec's redirect) and answers null until that is rendered.
 */
export function useMonitorFilters() {
  const [query, setQuery] = useSearchParams();
  const filters = useMemo(() => parseMonitorFilters(query), [query]);
  useEffect(() => {
    if (filters === null) setQuery(withDefaultDates(query), { replace: true });
  }, [filters, query, setQuery]);
  const setFilters = (next: MonitorFilters) => setQuery(serializeMonitorFilters(next, query));
  return { filters, setFilters };
}
