import dayjs from 'dayjs';
import { type DateRange, presetRange } from '../../components/search-bar/date-range';
import type { ReportWindow } from '../../resources/reports';

/**
 * The window a report call is sent for a search bar's range. The API needs both ends, so an open
 * end (the 'All' preset, or a custom range with one picker left empty) becomes 0 for `from` and,
 * for `to`, the end of tomorrow: past any run an agent could report now, whatever its clock, and
 * the same value all day long, so that the query keys (and the cache) do not change per render.
 */
export function reportWindow(range: DateRange, now: number = Date.now()): ReportWindow {
  return {
    from: range.from ?? 0,
    to: range.to ?? dayjs(now).add(1, 'day').endOf('day').valueOf(),
  };
}

/** The agent report's window: the current month of the browser's clock, its first to its last millisecond. */
export function currentMonth(now: number = Date.now()): ReportWindow {
  return reportWindow(presetRange('thisMonth', now), now);
}

/** Whether runs ending now can still land in the window (new rows may appear). */
export function includesNow(window: ReportWindow, now: number = Date.now()): boolean {
  return window.from <= now && now <= window.to;
}

/** The browser's IANA time zone, sent where the server buckets days or matches dates as shown. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
