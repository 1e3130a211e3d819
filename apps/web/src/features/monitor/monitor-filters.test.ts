import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { filterWindow, isDay, parseMonitorFilters, serializeMonitorFilters, withDefaultDates } from './monitor-filters';

const NOW = new Date(2026, 3, 15, 10, 30).getTime();

describe('parseMonitorFilters', () => {
  it('reads the ids and the days', () => {
    expect(
      parseMonitorFilters(new URLSearchParams('user=7&department=3&role=2&dateFrom=2026-04-01&dateTo=2026-04-15')),
    ).toEqual({ user: 7, department: 3, role: 2, dateFrom: '2026-04-01', dateTo: '2026-04-15' });
  });

  it('reads a missing or broken id as every one', () => {
    expect(
      parseMonitorFilters(
        new URLSearchParams('user=abc&department=0&role=99999999999&dateFrom=2026-04-01&dateTo=2026-04-01'),
      ),
    ).toMatchObject({ user: null, department: null, role: null });
  });

  it.each([
    ['no dates', ''],
    ['one date', 'dateFrom=2026-04-01'],
    ['a day that is not one', 'dateFrom=2026-02-30&dateTo=2026-03-01'],
    ['epoch milliseconds', 'dateFrom=1775000000000&dateTo=1775100000000'],
    ['the first day after the last', 'dateFrom=2026-04-02&dateTo=2026-04-01'],
  ])('answers null for %s', (_case, query) => {
    expect(parseMonitorFilters(new URLSearchParams(query))).toBeNull();
  });
});

describe('withDefaultDates', () => {
  it('puts today in both dates and keeps the other filters and keys', () => {
    const next = withDefaultDates(new URLSearchParams('user=7&role=x&other=1'), NOW);
    expect(Object.fromEntries(next)).toEqual({ user: '7', other: '1', dateFrom: '2026-04-15', dateTo: '2026-04-15' });
  });
});

describe('serializeMonitorFilters', () => {
  it('leaves out the "All" choices and keeps other keys', () => {
    const next = serializeMonitorFilters(
      { user: null, department: 4, role: null, dateFrom: '2026-04-01', dateTo: '2026-04-02' },
      new URLSearchParams('user=9&keep=yes'),
    );
    expect(next.toString()).toBe('keep=yes&department=4&dateFrom=2026-04-01&dateTo=2026-04-02');
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
