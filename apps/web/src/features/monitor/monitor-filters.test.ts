import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { filterWindow, isDay, parseMonitorFilters, serializeMonitorFilters, withDefaultDates } from './monitor-filters';

const NOW = new Date(2026, 3, 15, 10, 30).getTime();
/** The URL's dates: the first millisecond of a day and the last of another, in the browser's zone. */
const start = (day: string) => dayjs(day).startOf('day').valueOf();
const end = (day: string) => dayjs(day).endOf('day').valueOf();

describe('parseMonitorFilters', () => {
  it('reads the ids and the days of the epoch milliseconds', () => {
    const query = `user=7&department=3&role=2&dateFrom=${start('2026-04-01')}&dateTo=${end('2026-04-15')}`;
    expect(parseMonitorFilters(new URLSearchParams(query))).toEqual({
      user: 7,
      department: 3,
      role: 2,
      dateFrom: '2026-04-01',
      dateTo: '2026-04-15',
    });
    // Any millisecond of a day names that day.
    expect(
      parseMonitorFilters(new URLSearchParams(`dateFrom=${start('2026-04-01') + 3_600_000}&dateTo=${NOW}`)),
    ).toMatchObject({ dateFrom: '2026-04-01', dateTo: '2026-04-15' });
  });

  it('reads a missing or broken id as every one', () => {
    expect(
      parseMonitorFilters(new URLSearchParams(`user=abc&department=0&role=99999999999&dateFrom=${NOW}&dateTo=${NOW}`)),
    ).toMatchObject({ user: null, department: null, role: null });
  });

  it.each([
    ['no dates', ''],
    ['one date', `dateFrom=${NOW}`],
    ['days instead of milliseconds', 'dateFrom=2026-04-01&dateTo=2026-04-02'],
    ['a negative or fractional time', 'dateFrom=-5&dateTo=1.5'],
    ['a time past what a date holds', 'dateFrom=0&dateTo=9999999999999999'],
    ['the first after the last', `dateFrom=${NOW}&dateTo=${NOW - 1}`],
  ])('answers null for %s', (_case, query) => {
    expect(parseMonitorFilters(new URLSearchParams(query))).toBeNull();
  });
});

describe('withDefaultDates', () => {
  it('puts today in both dates and keeps the other filters and keys', () => {
    const next = withDefaultDates(new URLSearchParams('user=7&role=x&other=1'), NOW);
    expect(Object.fromEntries(next)).toEqual({
      user: '7',
      other: '1',
      dateFrom: String(start('2026-04-15')),
      dateTo: String(end('2026-04-15')),
    });
  });
});

describe('serializeMonitorFilters', () => {
  it('leaves out the "All" choices and keeps other keys', () => {
    const next = serializeMonitorFilters(
      { user: null, department: 4, role: null, dateFrom: '2026-04-01', dateTo: '2026-04-02' },
      new URLSearchParams('user=9&keep=yes'),
    );
    expect(next.toString()).toBe(`keep=yes&department=4&dateFrom=${start('2026-04-01')}&dateTo=${end('2026-04-02')}`);
  });
});

describe('filterWindow', () => {
  it("covers the days from the first to the last millisecond in the browser's zone", () => {
    expect(filterWindow({ dateFrom: '2026-04-01', dateTo: '2026-04-02' })).toEqual({
      from: dayjs('2026-04-01').valueOf(),
      to: dayjs('2026-04-03').valueOf() - 1,
    });
  });
});

describe('isDay', () => {
  it('knows a day from a string that is not one', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2025-02-29')).toBe(false);
    expect(isDay('2025-1-5')).toBe(false);
    expect(isDay(null)).toBe(false);
  });
});
