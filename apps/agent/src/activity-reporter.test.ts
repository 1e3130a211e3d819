import { ACTIVITY_MAX_EVENTS, type Activity, ActivityFrame } from '@opsdeck/contract/activity';
import { MAX_FRAME_BYTES } from '@opsdeck/contract/live';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActivityReporter } from './activity-reporter';
import type { PlannedSpan } from './workday';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 10, 9);

/** A transport that records frames and receipts them when told (or at once). */
function fakeTransport() {
  const frames: { events: Activity[]; receipt: () => void }[] = [];
  let connected = true;
  let autoReceipt = true;
  return {
    frames,
    transport: {
      send(events: Activity[], onReceipt: () => void) {
        if (!connected) return false;
        frames.push({ events, receipt: onReceipt });
        if (autoReceipt) queueMicrotask(onReceipt);
        return true;
      },
    },
    set connected(on: boolean) {
      connected = on;
    },
    set autoReceipt(on: boolean) {
      autoReceipt = on;
    },
    /** Every span sent, in order, as `id:end`. */
    words: () => frames.flatMap((frame) => frame.events.map((event) => `${event.id.slice(0, 8)}:${event.end}`)),
  };
}

let serial = 0;
const span = (start: number, end: number, kind: 'session' | 'idle' = 'session'): PlannedSpan => {
  serial += 1;
  return { id: `${String(serial).padStart(8, '0')}-0000-4000-8000-000000000000`, kind, start, end };
};
const short = (item: PlannedSpan) => item.id.slice(0, 8);
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ActivityReporter', () => {
  it('sends a span open when it starts and again with its end when it ends', async () => {
    const fake = fakeTransport();
    const reporter = new ActivityReporter(fake.transport);
    const session = span(T0 + MINUTE, T0 + 2 * HOUR);
    const idle = span(T0 + 10 * MINUTE, T0 + 15 * MINUTE, 'idle');
    reporter.setPlan([idle, session]);
    await flush();
    expect(fake.frames).toEqual([]);

    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fake.words()).toEqual([`${short(session)}:null`]);
    expect(reporter.openSpans).toBe(1);
    expect(reporter.pendingSpans).toBe(0);

    await vi.advanceTimersByTimeAsync(9 * MINUTE);
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(fake.words()).toEqual([
      `${short(session)}:null`,
      `${short(idle)}:null`,
      `${short(idle)}:${idle.end}`,
      `${short(session)}:${session.end}`,
    ]);
    expect(reporter.openSpans).toBe(0);
    // Every frame is a contract frame.
    for (const frame of fake.frames) expect(ActivityFrame.safeParse({ events: frame.events }).success).toBe(true);
    reporter.stop();
  });

  it("catches up on the plan's spans of the last day: over ones closed, going ones open; older ones not", async () => {
    const fake = fakeTransport();
    const reporter = new ActivityReporter(fake.transport, { catchUpMs: 12 * HOUR });
    const old = span(T0 - 20 * HOUR, T0 - 19 * HOUR);
    const over = span(T0 - 2 * HOUR, T0 - HOUR);
    const going = span(T0 - HOUR, T0 + HOUR);
    reporter.setPlan([old, over, going]);
    await flush();
    expect(fake.words()).toEqual([`${short(over)}:${over.end}`, `${short(going)}:null`]);
    // The same plan again (a refresh) sends nothing new.
    reporter.setPlan([old, over, going]);
    await flush();
    expect(fake.frames).toHaveLength(1);
    reporter.stop();
  });

  it('sends again after a reconnect what was not receipted, and every span still open', async () => {
    const fake = fakeTransport();
    fake.autoReceipt = false;
    const reporter = new ActivityReporter(fake.transport);
    const a = span(T0, T0 + HOUR);
    const b = span(T0, T0 + 5 * MINUTE);
    const c = span(T0 + 6 * MINUTE, T0 + 7 * MINUTE);
    reporter.setPlan([a, b, c]);
    await flush();
    fake.frames[0]!.receipt();
    expect(reporter.pendingSpans).toBe(0);
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    // b's end is not receipted: the connection drops.
    expect(fake.words().slice(-1)).toEqual([`${short(b)}:${b.end}`]);
    fake.connected = false;
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(reporter.pendingSpans).toBe(2);
    fake.connected = true;
    fake.autoReceipt = true;
    const before = fake.frames.length;
    reporter.onConnected();
    await flush();
    // a is open (sent again though receipted), b's end and c (started and ended while away).
    expect(fake.words().slice(-3).sort()).toEqual(
      [`${short(a)}:null`, `${short(b)}:${b.end}`, `${short(c)}:${c.end}`].sort(),
    );
    expect(fake.frames.length).toBe(before + 1);
    expect(reporter.pendingSpans).toBe(0);
    // A receipt of the old connection, late, changes nothing.
    fake.frames[1]!.receipt();
    expect(reporter.pendingSpans).toBe(0);
    reporter.stop();
  });

  it('sends the end of a span that ended while its open word was in flight once that is receipted', async () => {
    const fake = fakeTransport();
    fake.autoReceipt = false;
    const reporter = new ActivityReporter(fake.transport);
    const a = span(T0, T0 + MINUTE);
    reporter.setPlan([a]);
    await flush();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fake.words()).toEqual([`${short(a)}:null`]);
    fake.frames[0]!.receipt();
    expect(fake.words()).toEqual([`${short(a)}:null`, `${short(a)}:${a.end}`]);
    fake.frames[1]!.receipt();
    expect(reporter.pendingSpans).toBe(0);
    reporter.stop();
  });

  it('batches at most 500 spans and well under 64 KiB a frame', async () => {
    const fake = fakeTransport();
    const reporter = new ActivityReporter(fake.transport);
    const many = Array.from({ length: 1_200 }, (_, i) => span(T0 - HOUR + i * 1_000, T0 - HOUR + i * 1_000 + 500));
    reporter.setPlan(many);
    await flush();
    expect(fake.frames.length).toBeGreaterThanOrEqual(3);
    for (const frame of fake.frames) {
      expect(frame.events.length).toBeLessThanOrEqual(ACTIVITY_MAX_EVENTS);
      expect(JSON.stringify({ events: frame.events }).length).toBeLessThan(MAX_FRAME_BYTES - 1_024);
    }
    expect(fake.frames.flatMap((frame) => frame.events).length).toBe(1_200);
    reporter.stop();
  });

  it('replaces the spans not started with a new plan, and keeps those started', async () => {
    const fake = fakeTransport();
    const reporter = new ActivityReporter(fake.transport);
    const going = span(T0, T0 + HOUR);
    const later = span(T0 + 2 * HOUR, T0 + 3 * HOUR);
    const instead = span(T0 + 2 * HOUR, T0 + 4 * HOUR);
    reporter.setPlan([going, later]);
    await flush();
    reporter.setPlan([instead]);
    await vi.advanceTimersByTimeAsync(5 * HOUR);
    expect(fake.words()).toEqual([
      `${short(going)}:null`,
      `${short(going)}:${going.end}`,
      `${short(instead)}:null`,
      `${short(instead)}:${instead.end}`,
    ]);
    reporter.stop();
  });

  it('holds what it cannot send until connected', async () => {
    const fake = fakeTransport();
    fake.connected = false;
    const reporter = new ActivityReporter(fake.transport);
    reporter.setPlan([span(T0, T0 + HOUR)]);
    await flush();
    expect(fake.frames).toEqual([]);
    expect(reporter.pendingSpans).toBe(1);
    fake.connected = true;
    reporter.onConnected();
    await flush();
    expect(fake.frames).toHaveLength(1);
    expect(reporter.pendingSpans).toBe(0);
    reporter.stop();
  });

  it('does not send again the spans it ended and had receipted when a plan is read again days later', async () => {
    const fake = fakeTransport();
    const reporter = new ActivityReporter(fake.transport);
    const day = span(T0 + HOUR, T0 + 9 * HOUR);
    reporter.setPlan([day]);
    await vi.advanceTimersByTimeAsync(2 * 24 * HOUR);
    expect(fake.words()).toEqual([`${short(day)}:null`, `${short(day)}:${day.end}`]);
    reporter.setPlan([day]);
    await flush();
    expect(fake.frames).toHaveLength(2);
    reporter.stop();
  });

  it('sends a frame refused for now again after a back-off, on the same connection, until receipted', async () => {
    const fake = fakeTransport();
    fake.autoReceipt = false;
    // No jitter: the back-off is half its base (1 s, then 2 s).
    const reporter = new ActivityReporter(fake.transport, { random: () => 0 });
    const a = span(T0, T0 + HOUR);
    const b = span(T0 - MINUTE, T0 - 30_000);
    reporter.setPlan([a, b]);
    await flush();
    expect(fake.frames).toHaveLength(1);
    // The database is away: the whole frame is refused, twice.
    reporter.onRefusal('ERROR_SERVICE_UNAVAILABLE');
    expect(reporter.pendingSpans).toBe(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(fake.frames).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.frames).toHaveLength(2);
    reporter.onRefusal('ERROR_SERVICE_UNAVAILABLE');
    await vi.advanceTimersByTimeAsync(999);
    expect(fake.frames).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.frames).toHaveLength(3);
    expect(fake.frames[2]!.events.map((event) => event.id).sort()).toEqual([a.id, b.id].sort());
    // Back: receipted, nothing pending, and no more sends.
    fake.frames[2]!.receipt();
    expect(reporter.pendingSpans).toBe(0);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fake.frames).toHaveLength(3);
    // A refusal with nothing unanswered (a late one) changes nothing.
    reporter.onRefusal('ERROR_SERVICE_UNAVAILABLE');
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fake.frames).toHaveLength(3);
    reporter.stop();
  });

  it('drops the words of a frame refused for good: a closed span is forgotten, an open one waits for its end', async () => {
    const fake = fakeTransport();
    fake.autoReceipt = false;
    const log: string[] = [];
    const reporter = new ActivityReporter(fake.transport, { log: (message) => log.push(message) });
    const open = span(T0, T0 + HOUR);
    const closed = span(T0 - MINUTE, T0 - 30_000);
    reporter.setPlan([open, closed]);
    await flush();
    reporter.onRefusal('ERROR_GENERAL_INVALID_INPUT');
    expect(log).toEqual(['dropped the words on 2 activity spans: refused (ERROR_GENERAL_INVALID_INPUT)']);
    expect(reporter.pendingSpans).toBe(0);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fake.frames).toHaveLength(1);
    // The open span's end is still said when it comes.
    fake.autoReceipt = true;
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(fake.words().slice(-1)).toEqual([`${short(open)}:${open.end}`]);
    reporter.stop();
  });
});
