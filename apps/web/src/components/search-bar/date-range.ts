import dayjs from 'dayjs';
import isoWeek from 'dayjs/plugin/isoWeek';

// ISO weeks run Monday to Sunday, as the date pickers' calendars do (lib/dates.ts FIRST_DAY_OF_WEEK);
// dayjs's own 'week' follows its locale, which starts on Sunday in English.
dayjs.extend(isoWeek);

export const RANGE_PRESETS = ['all', 'today', 'yesterday', 'thisWeek', 'thisMonth', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Epoch milliseconds, both ends inclusive; null means unbounded. */
export interface DateRange {
  from: number | null;
  to: number | null;
}

export const UNBOUNDED: DateRange = { from: null, to: null };

/**
 * The range a preset stands for at `now` (local time, whole days). 'custom' has no range of its
 * own: its ends come from the pickers.
 */
export function presetRange(preset: RangePreset, now: Date | number = Date.now()): DateRange {
  const today = dayjs(now);
  const span = (start: dayjs.Dayjs, end: dayjs.Dayjs): DateRange => ({ from: start.valueOf(), to: end.valueOf() });
  switch (preset) {
    case 'today':
      return span(today.startOf('day'), today.endOf('day'));
    case 'yesterday': {
      const yesterday = today.subtract(1, 'day');
      return span(yesterday.startOf('day'), yesterday.endOf('day'));
    }
    case 'thisWeek':
      return span(today.startOf('isoWeek'), today.endOf('isoWeek'));
    case 'thisMonth':
      return span(today.startOf('month'), today.endOf('month'));
    case 'all':
    case 'custom':
      return UNBOUNDED;
  }
}

/** Mantine's date pickers speak 'YYYY-MM-DD HH:mm:ss' strings; the API speaks epoch milliseconds. */
export function pickerToEpoch(value: string | null): number | null {
  if (!value) return null;
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.valueOf() : null;
}

export function epochToPicker(value: number | null): string | null {
  return value === null ? null : dayjs(value).format('YYYY-MM-DD HH:mm:ss');
}
