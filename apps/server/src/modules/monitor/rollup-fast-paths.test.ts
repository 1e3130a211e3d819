import { seededRandom as random } from '@opsdeck/agent/random';
import type { ActivityKind } from '@opsdeck/contract/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spanRow } from '../../../test/activity';
import { startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createUser, type TestCompany } from '../../../test/factories';
import { activitySpans } from '../../db/schema';
import { ensureMonthPartition } from '../../platform/partitions';
import { rebuildActivityRollups } from '../activity/rollups';
import { zonedDays } from '../reports/ranges';
import { createRollupWidgets } from './rollup-widgets';
import type { WidgetInput } from './widget-input';

/**
 * The rollup widgets' fast paths (application_duration's nearest UTC days plus and minus edge
 * buckets, hourly_activity's buckets summed by the database) against the straightforward
 * computation from the raw spans, on random spans, over ranges whose edges are not whole days, in
 * a zone with a 45-minute offset (Asia/Kathmandu) and across clock changes (Europe/Berlin and
 * America/New_York at the end of March and October 2026, Australia/Lord_Howe's 30 minutes).
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const QUARTER = 15 * MINUTE;
/** 20 March 2026 to 8 November 2026: both of Europe's and America's clock changes, in two months each. */
const STARTS = [Date.UTC(2026, 2, 20), Date.UTC(2026, 9, 20)];
const APPS = ['Excel', 'Slack', 'Chrome', 'Word', 'Outlook', 'Teams', 'Other', 'SAP'];

type Raw = { user: number | null; kind: ActivityKind; start: number; end: number | null; application: string | null };

let t: TestApp;
let company: TestCompany;
let people: number[];
const spans: Raw[] = [];
const NOW = Date.UTC(2026, 10, 8, 13, 7, 11, 5);

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  company = await createCompany(db, { name: 'Monitor Random' });
  people = [(await createUser(db, { company })).id, (await createUser(db, { company })).id];
  const next = random(17);
  for (const base of STARTS) {
    for (let day = 0; day < 19; day += 1) {
      for (const user of [...people, null]) {
        // A session of 2 to 14 hours at any time of day (across midnights of every zone), idle inside it.
        const start = base + day * DAY + Math.floor(next() * DAY);
        const end = start + 2 * HOUR + Math.floor(next() * 12 * HOUR);
        spans.push({ user, kind: 'session', start, end, application: null });
        for (let i = 0; i < 3; i += 1) {
          const at = start + Math.floor(next() * (end - start - HOUR));
          spans.push({ user, kind: 'idle', start: at, end: at + Math.floor(next() * HOUR), application: null });
        }
        for (let at = start; at < end; ) {
          const length = Math.floor(next() * 50 * MINUTE) + 1000;
          spans.push({
            user,
            kind: 'app',
            start: at,
            end: at + length,
            application: APPS[Math.floor(next() * next() * APPS.length)]!,
          });
          at += length + Math.floor(next() * 5 * MINUTE);
        }
      }
    }
  }
  // Open ones, counted up to now.
  spans.push({ user: people[0]!, kind: 'session', start: NOW - 3 * HOUR - 7, end: null, application: null });
  spans.push({ user: people[0]!, kind: 'app', start: NOW - 2 * HOUR - 11, end: null, application: 'Excel' });
  for (const base of STARTS) {
    await ensureMonthPartition(db, 'activity_spans', base);
    await ensureMonthPartition(db, 'activity_spans', base + 25 * DAY);
  }
  const rows = spans.map((span) => spanRow(company, { ...span, userId: span.user }));
  for (let i = 0; i < rows.length; i += 500) await db.insert(activitySpans).values(rows.slice(i, i + 500));
  await rebuildActivityRollups(db);
}, 120_000);

afterAll(async () => {
  await t.close();
});

const widgets = () => createRollupWidgets({ connectedAccounts: () => [] });
const inputOf = (from: number, to: number, tz: string, who: readonly number[] | null): WidgetInput => ({
  db: t.database.db,
  scope: { kind: 'one', tenantId: company.tenantId },
  people: who,
  from,
  to,
  tz,
  now: NOW,
});

/** The spans' pieces in [from, to + 1), open ones up to now, of the people (every span without). */
function clipped(from: number, to: number, who: readonly number[] | null, kinds: readonly ActivityKind[]) {
  const end = to + 1;
  return spans.flatMap((span) => {
    if (!kinds.includes(span.kind)) return [];
    if (who && (span.user === null || !who.includes(span.user))) return [];
    const a = Math.max(span.start, from);
    const b = Math.min(span.end ?? Math.min(NOW, end), end);
    return b > a ? [{ ...span, a, b }] : [];
  });
}

/** Pieces cut at the quarter hours (every zone here starts its hours on one). */
function* quartersOf(a: number, b: number) {
  for (let at = a; at < b; ) {
    const next = Math.min(b, Math.floor(at / QUARTER) * QUARTER + QUARTER);
    yield [at, next] as const;
    at = next;
  }
}

function plainDuration(from: number, to: number, tz: string, who: readonly number[] | null) {
  const pieces = clipped(from, to, who, ['app']);
  const totals = new Map<string, number>();
  for (const piece of pieces) totals.set(piece.application!, (totals.get(piece.application!) ?? 0) + piece.b - piece.a);
  const order = [...totals]
    .filter(([, ms]) => ms > 0)
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  if (order.length === 0) return [];
  const top = order.slice(0, 5).map(([name]) => name);
  return zonedDays(from, to, tz).flatMap((day) => {
    const within = (name: string | null) =>
      pieces
        .filter((piece) => (name === null ? !top.includes(piece.application!) : piece.application === name))
        .reduce((sum, piece) => sum + Math.max(0, Math.min(piece.b, day.end) - Math.max(piece.a, day.start)), 0);
    return [
      ...top.map((application) => ({ date: day.date, application, durationMs: within(application) })),
      ...(order.length > 5
        ? [{ date: day.date, application: 'Other', durationMs: within(null), other: true as const }]
        : []),
    ];
  });
}

function plainHours(from: number, to: number, tz: string, who: readonly number[] | null) {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', hour: 'numeric' });
  const session = new Array<number>(24).fill(0);
  const idle = new Array<number>(24).fill(0);
  for (const piece of clipped(from, to, who, ['session', 'idle'])) {
    for (const [a, b] of quartersOf(piece.a, piece.b)) {
      const hour = Number(format.format(a)) % 24;
      (piece.kind === 'session' ? session : idle)[hour]! += b - a;
    }
  }
  return session.map((ms, hour) => ({ hour, activeMs: Math.max(0, ms - idle[hour]!), idleMs: idle[hour]! }));
}

const ZONES = [
  'Asia/Kathmandu',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'UTC',
  'Pacific/Kiritimati',
];

describe('the fast paths equal the straightforward computation on random spans', () => {
  const next = random(99);
  const ranges: [number, number][] = [];
  for (const base of STARTS) {
    // Edges anywhere (not on buckets, not on days), ranges of an hour to 18 days.
    for (let i = 0; i < 4; i += 1) {
      const from = base + Math.floor(next() * 3 * DAY);
      ranges.push([from, from + HOUR + Math.floor(next() * 18 * DAY)]);
    }
    ranges.push([base, base + 19 * DAY - 1]);
  }
  ranges.push([NOW - 10 * DAY - 3 * HOUR - 1234, NOW + DAY]);

  for (const tz of ZONES) {
    it(`application_duration and hourly_activity in ${tz}`, async () => {
      const handlers = widgets();
      for (const [from, to] of ranges) {
        for (const who of [null, [people[0]!], people]) {
          const input = inputOf(from, to, tz, who);
          const label = `${tz} ${new Date(from).toISOString()} → ${new Date(to).toISOString()} ${JSON.stringify(who)}`;
          expect(await handlers.application_duration!(input), label).toEqual(plainDuration(from, to, tz, who));
          expect(await handlers.hourly_activity!(input), label).toEqual(plainHours(from, to, tz, who));
        }
      }
    }, 120_000);
  }
});
