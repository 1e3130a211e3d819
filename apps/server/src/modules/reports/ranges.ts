import { BUCKET_MS, DAY_MS } from '../execution-logs/queries';

/** A half-open span of epoch milliseconds: `from` included, `to` excluded. */
export type Span = { from: number; to: number };

/**
 * The pieces a report range is read from (docs/reports.md): whole UTC days from the daily rollups,
 * whole 15-minute buckets from the 15-minute rollups, and what is left at the two ends (each under
 * 15 minutes) from the raw rows. Together they cover the range exactly once.
 */
export type RangePieces = {
  /** Whole UTC days (both ends multiples of DAY_MS), or null. */
  days: Span | null;
  /** Whole 15-minute buckets outside `days` (both ends multiples of BUCKET_MS): at most two. */
  buckets: Span[];
  /** The ends shorter than a bucket: at most two, each under BUCKET_MS long. */
  raw: Span[];
};

const floorTo = (value: number, unit: number) => value - (((value % unit) + unit) % unit);
const ceilTo = (value: number, unit: number) => floorTo(value + unit - 1, unit);
const nonEmpty = (spans: Span[]) => spans.filter((span) => span.from < span.to);

/**
 * Splits `from`..`to` (epoch ms, both inclusive, as the report calls take them) into the rollups'
 * pieces. The range is [from, to + 1): the buckets fully inside it, and among those the whole UTC
 * days, are read from the rollups; the rest (the sub-bucket ends) from the raw rows.
 */
export function decomposeRange(from: number, to: number): RangePieces {
  const end = to + 1;
  const bucketsFrom = ceilTo(from, BUCKET_MS);
  const bucketsTo = floorTo(end, BUCKET_MS);
  // Not one whole bucket inside: all of it is raw (under 30 minutes).
  if (bucketsFrom >= bucketsTo) return { days: null, buckets: [], raw: [{ from, to: end }] };
  const raw = nonEmpty([
    { from, to: bucketsFrom },
    { from: bucketsTo, to: end },
  ]);
  const daysFrom = ceilTo(bucketsFrom, DAY_MS);
  const daysTo = floorTo(bucketsTo, DAY_MS);
  if (daysFrom >= daysTo) return { days: null, buckets: [{ from: bucketsFrom, to: bucketsTo }], raw };
  const buckets = nonEmpty([
    { from: bucketsFrom, to: daysFrom },
    { from: daysTo, to: bucketsTo },
  ]);
  return { days: { from: daysFrom, to: daysTo }, buckets, raw };
}

/** One calendar day of a time zone: its 'YYYY-MM-DD' and its first millisecond and the next day's. */
export type ZonedDay = { date: string; start: number; end: number };

/** The range of a JavaScript Date (±8.64e15 ms): Intl refuses anything past it. */
const TIME_MAX = 8_640_000_000_000_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    // Time zone names are few (about 600), and the contract lets through only known ones.
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallOf(at: number, timeZone: string): Wall {
  const wall: Wall = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterOf(timeZone).formatToParts(at)) {
    if (part.type in wall) wall[part.type as keyof Wall] = Number(part.value);
  }
  return wall;
}

/**
 * Epoch milliseconds of a wall-clock date and time read as UTC, by arithmetic (Howard Hinnant's
 * days_from_civil): Date.UTC answers NaN past ±8.64e15, which a wall clock ahead of UTC reaches.
 */
function utcOf(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146_097 + dayOfEra - 719_468;
  return days * DAY_MS + hour * 3_600_000 + minute * 60_000 + second * 1000;
}

/** The wall clock of `timeZone` at `at`, as epoch milliseconds read as UTC (milliseconds kept). */
function wallClock(at: number, timeZone: string): number {
  const wall = wallOf(at, timeZone);
  const millis = ((at % 1000) + 1000) % 1000;
  return utcOf(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second) + millis;
}

/** The local date at `at`, as its midnight read as UTC (comparable, and steps of calendar days). */
function localDate(at: number, timeZone: string): number {
  const wall = wallOf(at, timeZone);
  return utcOf(wall.year, wall.month, wall.day);
}

const clampTime = (at: number) => Math.max(-TIME_MAX, Math.min(TIME_MAX, at));

/**
 * The first millisecond of the local day whose midnight, read as UTC, is `midnight`. Usually the
 * instant whose wall clock shows 00:00:00 (found from the offset, guessed first as `offsetGuess`);
 * where midnight does not exist (a clock moved forward at 00:00, as in Havana or Santiago), the
 * first instant of that date, found by bisection. Offsets are whole seconds, so a day starts on a
 * whole second.
 */
function dayStart(midnight: number, timeZone: string, offsetGuess: number): number {
  let at = midnight - offsetGuess;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const wall = wallClock(clampTime(at), timeZone);
    if (wall === midnight) return at;
    at = midnight - (wall - clampTime(at));
  }
  // Bisection on whole seconds between the offsets' extremes (−12 h to +14 h, and then some).
  let low = Math.floor(clampTime(midnight - 30 * 3_600_000) / 1000);
  let high = Math.ceil(clampTime(midnight + 30 * 3_600_000) / 1000);
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (localDate(mid * 1000, timeZone) >= midnight) high = mid;
    else low = mid + 1;
  }
  return low * 1000;
}

/** 'YYYY-MM-DD' of a local midnight read as UTC (years past 9999 as ISO 8601 writes them, '+275760-09-13'). */
const isoDate = (midnight: number) => new Date(midnight).toISOString().split('T')[0]!;

/**
 * The calendar days of `timeZone` from the one holding `from` to the one holding `to`, each with
 * its exact bounds (a day when clocks move is 23 or 25 hours long; every day starts where the one
 * before ends). `timeZone` must be one Intl knows (the contract checks it).
 */
export function zonedDays(from: number, to: number, timeZone: string): ZonedDay[] {
  const first = localDate(from, timeZone);
  const last = localDate(to, timeZone);
  const days: ZonedDay[] = [];
  let offset = wallClock(from, timeZone) - from;
  let start = dayStart(first, timeZone, offset);
  for (let midnight = first; midnight <= last; midnight += DAY_MS) {
    const nextMidnight = midnight + DAY_MS;
    // Past the last instant a Date can hold, the last day ends there.
    const end = nextMidnight - offset > TIME_MAX ? TIME_MAX + 1 : dayStart(nextMidnight, timeZone, offset);
    days.push({ date: isoDate(midnight), start, end });
    offset = nextMidnight - end;
    start = end;
  }
  return days;
}
