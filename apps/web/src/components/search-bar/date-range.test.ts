import { describe, expect, it } from 'vitest';
import { epochToPicker, pickerToEpoch, presetRange } from './date-range';

// Wednesday 2026-03-18 14:30 local time.
const now = new Date(2026, 2, 18, 14, 30).getTime();
const local = (...parts: [number, number, number, number?, number?, number?, number?]) => new Date(...parts).getTime();

describe('presetRange', () => {
  it('covers whole local days, weeks and months', () => {
    expect(presetRange('all', now)).toEqual({ from: null, to: null });
    expect(presetRange('today', now)).toEqual({ from: local(2026, 2, 18), to: local(2026, 2, 18, 23, 59, 59, 999) });
    expect(presetRange('yesterday', now)).toEqual({
      from: local(2026, 2, 17),
      to: local(2026, 2, 17, 23, 59, 59, 999),
    });
    // Monday to Sunday, as the calendars show weeks.
    expect(presetRange('thisWeek', now)).toEqual({ from: local(2026, 2, 16), to: local(2026, 2, 22, 23, 59, 59, 999) });
    expect(presetRange('thisMonth', now)).toEqual({ from: local(2026, 2, 1), to: local(2026, 2, 31, 23, 59, 59, 999) });
  });

  it('keeps a Sunday in the week that began on the Monday before', () => {
    expect(presetRange('thisWeek', local(2026, 2, 22, 20))).toEqual({
      from: local(2026, 2, 16),
      to: local(2026, 2, 22, 23, 59, 59, 999),
    });
  });

  it('crosses a month boundary for yesterday', () => {
    expect(presetRange('yesterday', local(2026, 3, 1, 8)).from).toBe(local(2026, 2, 31));
  });
});

describe('picker values', () => {
  it('round-trips epoch milliseconds through the pickers’ strings', () => {
    const value = local(2026, 0, 2, 3, 4, 5);
    expect(epochToPicker(value)).toBe('2026-01-02 03:04:05');
    expect(pickerToEpoch('2026-01-02 03:04:05')).toBe(value);
    expect(pickerToEpoch(null)).toBeNull();
    expect(pickerToEpoch('not a date')).toBeNull();
  });
});
