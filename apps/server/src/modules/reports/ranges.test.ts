import { describe, expect, it } from 'vitest';
import { BUCKET_MS, DAY_MS } from '../execution-logs/queries';
import { decomposeRange, type RangePieces, type Span, zonedDays } from './ranges';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const at = (iso: string) => Date.parse(iso);

/** Every piece, in time order. */
const pieces = (split: RangePieces): Span[] =>
  [...(split.days ? [split.days] : []), ...split.buckets, ...split.raw].sort((a, b) => a.from - b.from);

/** The properties every decomposition has, whatever the range. */
function expectExactCover(from: number, to: number) {
  const split = decomposeRange(from, to);
  const all = pieces(split);
  expect(all[0]!.from).toBe(from);
  expect(all.at(-1)!.to).toBe(to + 1);
  for (let i = 1; i < all.length; i += 1) expect(all[i]!.from).toBe(all[i - 1]!.to);
  for (const span of all) expect(span.from).toBeLessThan(span.to);
  if (split.days) {
    expect(split.days.from % DAY_MS).toBe(0);
    expect(split.days.to % DAY_MS).toBe(0);
  }
  for (const span of split.buckets) {
    expect(span.from % BUCKET_MS).toBe(0);
    expect(span.to % BUCKET_MS).toBe(0);
    // No whole UTC day is read by bucket: those come from the daily rollups.
    expect(Math.ceil(span.from / DAY_MS) * DAY_MS + DAY_MS).toBeGreaterThan(span.to);
  }
  expect(split.buckets.length).toBeLessThanOrEqual(2);
  expect(split.raw.length).toBeLessThanOrEqual(2);
  // Raw pieces are short, unless the range holds no whole bucket at all (then under two buckets).
  const wholeBucket = split.days !== null || split.buckets.length > 0;
  for (const span of split.raw) expect(span.to - span.from).toBeLessThan(wholeBucket ? BUCKET_MS : 2 * BUCKET_MS);
  return split;
}

describe('decomposeRange', () => {
  it('reads a single millisecond (from = to) from the raw rows', () => {
    const t = at('2024-05-01T10:07:00.123Z');
    expect(expectExactCover(t, t)).toEqual({ days: null, buckets: [], raw: [{ from: t, to: t + 1 }] });
  });

  it('reads a range inside one bucket, or across one boundary without a whole bucket, from the raw rows', () => {
    const t = at('2024-05-01T10:00:00Z');
    expect(decomposeRange(t + 1, t + 5 * MINUTE)).toEqual({
      days: null,
      buckets: [],
      raw: [{ from: t + 1, to: t + 5 * MINUTE + 1 }],
    });
    // 10:10 to 10:20: the boundary at 10:15 splits no whole bucket off.
    expect(decomposeRange(t + 10 * MINUTE, t + 20 * MINUTE)).toEqual({
      days: null,
      buckets: [],
      raw: [{ from: t + 10 * MINUTE, to: t + 20 * MINUTE + 1 }],
    });
  });

  it('reads exactly one aligned bucket from the bucket rollups (to = the bucket end − 1 ms)', () => {
    const t = at('2024-05-01T10:15:00Z');
    expect(expectExactCover(t, t + BUCKET_MS - 1)).toEqual({
      days: null,
      buckets: [{ from: t, to: t + BUCKET_MS }],
      raw: [],
    });
  });

  it('cuts unaligned ends off at the ms, whole buckets between them', () => {
    const from = at('2024-05-01T10:07:31.250Z');
    const to = at('2024-05-01T13:44:59.998Z');
    expect(expectExactCover(from, to)).toEqual({
      days: null,
      buckets: [{ from: at('2024-05-01T10:15:00Z'), to: at('2024-05-01T13:30:00Z') }],
      raw: [
        { from, to: at('2024-05-01T10:15:00Z') },
        { from: at('2024-05-01T13:30:00Z'), to: to + 1 },
      ],
    });
  });

  it('reads whole days from the daily rollups, the partial days around them by bucket', () => {
    const from = at('2024-03-04T22:50:00.001Z');
    const to = at('2024-03-08T01:02:03.004Z');
    expect(expectExactCover(from, to)).toEqual({
      days: { from: at('2024-03-05T00:00:00Z'), to: at('2024-03-08T00:00:00Z') },
      buckets: [
        { from: at('2024-03-04T23:00:00Z'), to: at('2024-03-05T00:00:00Z') },
        { from: at('2024-03-08T00:00:00Z'), to: at('2024-03-08T01:00:00Z') },
      ],
      raw: [
        { from, to: at('2024-03-04T23:00:00Z') },
        { from: at('2024-03-08T01:00:00Z'), to: to + 1 },
      ],
    });
  });

  it('reads an aligned month as days only (the console asks for the month start to its last ms)', () => {
    const from = at('2024-02-01T00:00:00Z');
    const to = at('2024-03-01T00:00:00Z') - 1;
    expect(expectExactCover(from, to)).toEqual({ days: { from, to: to + 1 }, buckets: [], raw: [] });
  });

  it('reads a day of another zone (aligned on buckets, not on UTC days) by bucket', () => {
    // A day of Asia/Kathmandu (+05:45): 18:15 UTC to 18:15 UTC.
    const from = at('2024-05-01T18:15:00Z');
    const split = expectExactCover(from, from + DAY_MS - 1);
    expect(split).toEqual({ days: null, buckets: [{ from, to: from + DAY_MS }], raw: [] });
  });

  it('covers random ranges exactly once, from the epoch on', () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const lengths = [0, 1, MINUTE, BUCKET_MS - 1, BUCKET_MS, 2 * BUCKET_MS + 7, HOUR * 30, DAY_MS * 40];
    for (let i = 0; i < 2_000; i += 1) {
      const align = [1, 1000, BUCKET_MS, DAY_MS][i % 4]!;
      const from = Math.floor((random() * 2e12) / align) * align;
      const to = from + Math.floor(random() * lengths[i % lengths.length]!) - (i % 3 === 0 ? 1 : 0);
      expectExactCover(from, Math.max(from, to));
    }
    expectExactCover(0, 0);
    expectExactCover(0, 8_640_000_000_000_000);
  });
});

describe('zonedDays', () => {
  const lengths = (days: { start: number; end: number }[]) => days.map((day) => (day.end - day.start) / HOUR);

  it('answers the UTC days from the day holding `from` to the day holding `to`', () => {
    const days = zonedDays(at('2024-05-01T23:59:59.999Z'), at('2024-05-03T00:00:00Z'), 'UTC');
    expect(days).toEqual([
      { date: '2024-05-01', start: at('2024-05-01T00:00:00Z'), end: at('2024-05-02T00:00:00Z') },
      { date: '2024-05-02', start: at('2024-05-02T00:00:00Z'), end: at('2024-05-03T00:00:00Z') },
      { date: '2024-05-03', start: at('2024-05-03T00:00:00Z'), end: at('2024-05-04T00:00:00Z') },
    ]);
    expect(zonedDays(at('2024-05-01T12:00:00Z'), at('2024-05-01T12:00:00Z'), 'UTC')).toHaveLength(1);
  });

  it('makes the day clocks go forward 23 hours long and the day they go back 25 (Europe/Berlin)', () => {
    const march = zonedDays(at('2024-03-30T12:00:00Z'), at('2024-04-01T12:00:00Z'), 'Europe/Berlin');
    expect(march.map((day) => day.date)).toEqual(['2024-03-30', '2024-03-31', '2024-04-01']);
    expect(march[1]).toMatchObject({ start: at('2024-03-30T23:00:00Z'), end: at('2024-03-31T22:00:00Z') });
    expect(lengths(march)).toEqual([24, 23, 24]);
    const october = zonedDays(at('2024-10-26T12:00:00Z'), at('2024-10-28T12:00:00Z'), 'Europe/Berlin');
    expect(october[1]).toMatchObject({
      date: '2024-10-27',
      start: at('2024-10-26T22:00:00Z'),
      end: at('2024-10-27T23:00:00Z'),
    });
    expect(lengths(october)).toEqual([24, 25, 24]);
  });

  it('does the same west of Greenwich (America/New_York), whose days start after UTC midnight', () => {
    const days = zonedDays(at('2024-03-01T05:00:00Z'), at('2024-04-01T03:59:59.999Z'), 'America/New_York');
    expect(days).toHaveLength(31);
    expect(days[0]).toMatchObject({ date: '2024-03-01', start: at('2024-03-01T05:00:00Z') });
    expect(days.at(-1)).toMatchObject({ date: '2024-03-31', end: at('2024-04-01T04:00:00Z') });
    expect(days.find((day) => day.date === '2024-03-10')).toMatchObject({
      start: at('2024-03-10T05:00:00Z'),
      end: at('2024-03-11T04:00:00Z'),
    });
    expect(lengths(days).filter((hours) => hours !== 24)).toEqual([23]);
    const november = zonedDays(at('2024-11-03T12:00:00Z'), at('2024-11-03T12:00:00Z'), 'America/New_York');
    expect(november).toEqual([
      { date: '2024-11-03', start: at('2024-11-03T04:00:00Z'), end: at('2024-11-04T05:00:00Z') },
    ]);
  });

  it('starts the days of a +05:45 zone (Asia/Kathmandu) at 18:15 UTC the day before', () => {
    const days = zonedDays(at('2024-05-01T18:14:59.999Z'), at('2024-05-01T18:15:00Z'), 'Asia/Kathmandu');
    expect(days).toEqual([
      { date: '2024-05-01', start: at('2024-04-30T18:15:00Z'), end: at('2024-05-01T18:15:00Z') },
      { date: '2024-05-02', start: at('2024-05-01T18:15:00Z'), end: at('2024-05-02T18:15:00Z') },
    ]);
  });

  it('starts a day whose midnight does not exist (clocks forward at 00:00) when its clock starts', () => {
    // Havana, 10 March 2024: 00:00 CST became 01:00 CDT, at 05:00 UTC.
    const havana = zonedDays(at('2024-03-09T12:00:00Z'), at('2024-03-10T12:00:00Z'), 'America/Havana');
    expect(havana).toEqual([
      { date: '2024-03-09', start: at('2024-03-09T05:00:00Z'), end: at('2024-03-10T05:00:00Z') },
      { date: '2024-03-10', start: at('2024-03-10T05:00:00Z'), end: at('2024-03-11T04:00:00Z') },
    ]);
    // Santiago, 8 September 2024: 00:00 −04 became 01:00 −03, at 04:00 UTC.
    const santiago = zonedDays(at('2024-09-08T12:00:00Z'), at('2024-09-08T12:00:00Z'), 'America/Santiago');
    expect(santiago).toEqual([
      { date: '2024-09-08', start: at('2024-09-08T04:00:00Z'), end: at('2024-09-09T03:00:00Z') },
    ]);
  });

  it('answers a year of days, contiguous, quickly', () => {
    const started = performance.now();
    const days = zonedDays(at('2024-01-01T00:00:00Z'), at('2024-12-31T12:00:00Z'), 'Europe/Berlin');
    expect(performance.now() - started).toBeLessThan(200);
    expect(days).toHaveLength(366);
    for (let i = 1; i < days.length; i += 1) expect(days[i]!.start).toBe(days[i - 1]!.end);
  });

  it('answers at the ends of time without failing', () => {
    expect(zonedDays(0, 0, 'America/New_York')).toEqual([{ date: '1969-12-31', start: -19 * HOUR, end: 5 * HOUR }]);
    const last = zonedDays(8_640_000_000_000_000, 8_640_000_000_000_000, 'Asia/Tokyo');
    expect(last).toHaveLength(1);
    expect(last[0]!.end).toBe(8_640_000_000_000_001);
  });
});
