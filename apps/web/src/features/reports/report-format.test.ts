import { describe, expect, it } from 'vitest';
import { executorName, formatRuntime, hoursAndMinutes, summarizeExecutedTime, toMinutes } from './report-format';
import { currentMonth, includesNow, reportWindow } from './report-range';

describe('report formats', () => {
  it('shows a runtime as hours:mm:ss, hours uncut past a day, never negative', () => {
    expect(formatRuntime(0)).toBe('0:00:00');
    expect(formatRuntime(59_999)).toBe('0:00:59');
    expect(formatRuntime(3_723_000)).toBe('1:02:03');
    expect(formatRuntime(27 * 3_600_000 + 5_000)).toBe('27:00:05');
    expect(formatRuntime(-5_000)).toBe('0:00:00');
  });

  it('turns milliseconds into minutes to one decimal (spec section 9), and a total into hours and minutes', () => {
    expect(toMinutes(90_000)).toBe(1.5);
    expect(toMinutes(754_321)).toBe(12.6);
    expect(toMinutes(0)).toBe(0);
    expect(hoursAndMinutes(45_270_000)).toEqual({ hours: 12, minutes: 35 });
    expect(hoursAndMinutes(29_000)).toEqual({ hours: 0, minutes: 0 });
  });

  it("names the executor, or '-' for none", () => {
    expect(executorName({ id: 1, firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(executorName({ id: null, firstName: '', lastName: '' })).toBe('-');
  });

  it('sums the month, finds its busiest day and averages over the days so far', () => {
    const entries = [
      { date: '2026-05-01', executionTime: 600_000 },
      { date: '2026-05-02', executionTime: 0 },
      { date: '2026-05-03', executionTime: 1_800_000 },
      { date: '2026-05-04', executionTime: 0 },
    ];
    expect(summarizeExecutedTime(entries, '2026-05-03')).toEqual({
      totalMs: 2_400_000,
      busiest: { date: '2026-05-03', executionTime: 1_800_000 },
      daysWithRuns: 2,
      daysSoFar: 3,
      averageMs: 800_000,
    });
    expect(summarizeExecutedTime([], '2026-05-03').busiest).toBeNull();
  });
});

describe('report windows', () => {
  const now = new Date(2026, 4, 18, 14, 30).getTime();

  it("sends 'All' as 0 to the end of tomorrow, the same value all day", () => {
    const window = reportWindow({ from: null, to: null }, now);
    expect(window).toEqual({ from: 0, to: new Date(2026, 4, 19, 23, 59, 59, 999).getTime() });
    expect(reportWindow({ from: null, to: null }, now + 3_600_000)).toEqual(window);
    expect(reportWindow({ from: 5, to: null }, now).from).toBe(5);
    expect(reportWindow({ from: null, to: 9 }, now)).toEqual({ from: 0, to: 9 });
  });

  it("covers the browser's current month, first to last millisecond", () => {
    expect(currentMonth(now)).toEqual({
      from: new Date(2026, 4, 1).getTime(),
      to: new Date(2026, 4, 31, 23, 59, 59, 999).getTime(),
    });
    expect(includesNow(currentMonth(now), now)).toBe(true);
    expect(includesNow({ from: 0, to: now - 1 }, now)).toBe(false);
  });
});
