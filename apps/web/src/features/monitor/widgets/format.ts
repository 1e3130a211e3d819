import dayjs from 'dayjs';
import { DATE_FORMATS } from '../../../lib/dates';
import { hoursAndMinutes } from '../../reports/report-format';

/**
 * The widgets' one way of writing numbers and times. Durations come in milliseconds and read as
 * h:mm (hours are not cut at 24: a company's month of an application is thousands of hours);
 * times are epoch milliseconds shown in the browser's zone, the zone the widgets were asked in.
 */

/** '2:05' for 2 h 5 min; '0:00' for nothing. */
export function formatDuration(milliseconds: number): string {
  const { hours, minutes } = hoursAndMinutes(milliseconds);
  return `${hours}:${String(minutes).padStart(2, '0')}`;
}

/** Hours to two decimals, the charts' unit (their ticks and tooltips are written back as h:mm). */
export function toHours(milliseconds: number): number {
  return Math.round(milliseconds / 36_000) / 100;
}

/** A chart's value in hours, written as the tables write durations. */
export const formatHours = (hours: number) => formatDuration(hours * 3_600_000);

/** '85%' of a ratio from 0 to 1; '-' when there is none (no schedule, no time). */
export function formatPercent(ratio: number | null): string {
  return ratio === null ? '-' : `${Math.round(ratio * 100)}%`;
}

/** A whole number with the browser's grouping: '1,204'. */
export const formatCount = (value: number) => value.toLocaleString();

/** A day the server named ('YYYY-MM-DD' in the browser's zone): 'MM/DD/YYYY', as the filters show days. */
export const formatDay = (date: string) => dayjs(date).format(DATE_FORMATS.date);

/** A day on a chart's axis: 'Nov 05'. */
export const formatShortDay = (date: string) => dayjs(date).format(DATE_FORMATS.activityDate);

/** A time of day: '9:05 am'. */
export const formatTime = (at: number) => dayjs(at).format(DATE_FORMATS.scheduleTime);

/** A moment of a list that may cover many days: '11/05/26 09:05 AM'. */
export const formatMoment = (at: number) => dayjs(at).format(DATE_FORMATS.shortDateTime);

/** An hour of the day on the hourly chart: '09:00'. */
export const formatHour = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
