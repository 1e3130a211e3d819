import dayjs from 'dayjs';

/** The date formats of spec section 9, by where they are used. */
export const DATE_FORMATS = {
  dateTime: 'YYYY/MM/DD hh:mm A',
  longDateTime: 'YYYY MMM DD hh:mm A',
  date: 'MM/DD/YYYY',
  shortDateTime: 'MM/DD/YY hh:mm A',
  log: 'YYYY/MM/DD HH:mm:ss',
  scheduleDate: 'MMM DD YYYY',
  scheduleTime: 'h:mm a',
  activityDate: 'MMM DD',
} as const;

/** Weeks start on Monday: the search bar's calendars and its 'This Week' (an ISO week) agree. */
export const FIRST_DAY_OF_WEEK = 1;

/** Formats epoch milliseconds; '-' for a missing value (spec: licence expiration '-' if none). */
export function formatEpoch(value: number | null | undefined, format: string = DATE_FORMATS.date): string {
  if (value === null || value === undefined) return '-';
  return dayjs(value).format(format);
}

/** Spec section 9: execution time in minutes (ms / 60000) with one decimal. */
export function formatMinutes(milliseconds: number): string {
  return (milliseconds / 60_000).toFixed(1);
}

/** A day typed into a date input, as shown (MM/DD/YYYY) or as 'YYYY-MM-DD'; null when it is no date. */
export function parseTypedDay(value: string): string | null {
  const parsed = dayjs(value.trim());
  return value.trim() && parsed.isValid() ? parsed.format('YYYY-MM-DD') : null;
}
