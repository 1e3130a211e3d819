import { i18n } from '../../lib/i18n';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000_000],
  ['month', 2_592_000_000],
  ['week', 604_800_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago (or ahead) `epoch` is, in the largest whole unit: "5 minutes ago", "yesterday", "now". */
export function relativeTime(epoch: number, now: number = Date.now()): string {
  const format = new Intl.RelativeTimeFormat(i18n.language || 'en', { numeric: 'auto' });
  const elapsed = epoch - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(elapsed) >= ms) return format.format(Math.round(elapsed / ms), unit);
  }
  return format.format(0, 'second');
}
