import {
  ACTIVITY_MAX_AGE_MS,
  ACTIVITY_MAX_EVENTS,
  ACTIVITY_MAX_SPAN_MS,
  type Activity,
} from '@opsdeck/contract/activity';
import { retryDelay } from './backoff';
import { TRANSIENT_REPORT_REFUSALS } from './report-outbox';
import type { PlannedSpan } from './workday';

/**
 * Sends a plan of activity spans as their times come (docs/monitor.md, "Activity from the agents"):
 * a span is sent open (end null) when it starts and again, the same id, with its end when it ends
 * (one already over when it is first sent goes closed at once). Every frame asks for a receipt; a
 * span's latest word stays pending until receipted. After a reconnect, the words not receipted are
 * sent again, and so is every span still open (the server ended them at the last heart-beat it
 * heard: sending them open again reopens them).
 *
 * A frame the server refuses whole (a refusal on `/agent/activity` without a span id: the database
 * away, the server busy) gets no receipt: its words are sent again after a back-off on the same
 * connection, as execution reports are (report-outbox.ts). A refusal that waiting will not heal
 * drops the frame's words. A refusal with a span id is about that span alone, and the frame's
 * receipt still comes.
 */

/** How the reporter sends a frame: false (nothing sent) when not connected; `onReceipt` when the server receipts it. */
export interface ActivityTransport {
  send(events: Activity[], onReceipt: () => void): boolean;
}

export interface ActivityReporterOptions {
  now?: () => number;
  /**
   * A plan's spans that started before the reporter was made are sent only if they started at
   * most this long before (default a day: today's spans, so an agent started mid-shift goes on
   * with its day).
   */
  catchUpMs?: number;
  log?: (message: string) => void;
  /** Numbers in [0, 1): the jitter of the back-off after a refusal. */
  random?: () => number;
}

/** A frame's body stays well under the live channel's 64 KiB (a span is about 130 bytes of JSON). */
const MAX_FRAME_CHARS = 48_000;
/** A word on a span is sent on at most this many connections without a receipt, then dropped. */
const MAX_SENDS = 10;
/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

type Tracked = {
  span: PlannedSpan;
  /** Open: started, not yet ended. */
  open: boolean;
  /** The latest word (open or closed) was receipted. */
  acked: boolean;
  /** Sent in a frame whose receipt has not come: which word. */
  inFlight: 'open' | 'closed' | null;
  sends: number;
};

type Word = 'open' | 'closed';
/** A frame sent on this connection and not answered yet: its spans and what it said of each. */
type Frame = { batch: Tracked[]; words: Word[] };

export class ActivityReporter {
  private readonly now: () => number;
  private readonly catchUpFrom: number;
  /** Spans not started yet, by start. */
  private upcoming: PlannedSpan[] = [];
  /** Started spans: open ones, and closed ones not yet receipted. */
  private readonly live = new Map<string, Tracked>();
  /**
   * Ids of spans ended and receipted, with their end: a plan read again (hourly, a day back) does
   * not send them again. Forgotten once the server would refuse them anyway (7 days).
   */
  private readonly done = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** Frames sent on this connection and not answered yet, oldest first (refusals carry no frame id). */
  private unanswered: Frame[] = [];
  /** Whole frames refused in a row for now: the back-off's exponent. */
  private refusals = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private generation = 0;
  private stopped = false;

  constructor(
    private readonly transport: ActivityTransport,
    private readonly options: ActivityReporterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.catchUpFrom = this.now() - (options.catchUpMs ?? ACTIVITY_MAX_SPAN_MS);
  }

  /** Spans started and not ended. */
  get openSpans(): number {
    return [...this.live.values()].filter((item) => item.open).length;
  }

  /** Spans whose latest word is not receipted yet. */
  get pendingSpans(): number {
    return [...this.live.values()].filter((item) => !item.acked).length;
  }

  /**
   * A new plan: its spans not started yet replace the ones waiting (a schedule changed or removed
   * changes them); spans already started go on as they were. Spans of it that should have started
   * already (and have not been sent) are sent now, if not older than the catch-up.
   */
  setPlan(spans: PlannedSpan[]) {
    if (this.stopped) return;
    this.upcoming = spans
      .filter((span) => !this.live.has(span.id) && !this.done.has(span.id))
      .sort((a, b) => a.start - b.start);
    this.tick();
  }

  /** A new connection: nothing sent on the old one will be receipted; the open spans are sent again. */
  onConnected() {
    this.generation += 1;
    this.unanswered = [];
    this.refusals = 0;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const item of this.live.values()) {
      if (item.inFlight) item.acked = false;
      item.inFlight = null;
      if (item.open) {
        item.acked = false;
        item.sends = 0;
      } else if (!item.acked && item.sends >= MAX_SENDS) {
        // A span the server never receipts (a frame it refuses whole): not sent for ever.
        this.live.delete(item.span.id);
        this.options.log?.(`dropped activity span ${item.span.id}: never receipted in ${MAX_SENDS} sends`);
      }
    }
    this.flush();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.retryTimer);
  }

  /**
   * A refusal of a whole frame on `/agent/activity`: the answer to the oldest frame not answered.
   * For now (TRANSIENT_REPORT_REFUSALS): its words are sent again after a back-off (1 s doubling to
   * 30 s, with jitter). Otherwise they are dropped: a closed span is forgotten, an open one waits
   * for its end to be said.
   */
  onRefusal(key: string) {
    const frame = this.unanswered.shift();
    if (!frame) return;
    const released = frame.batch.filter((item, i) => {
      if (item.inFlight !== frame.words[i]) return false;
      item.inFlight = null;
      return true;
    });
    if (!TRANSIENT_REPORT_REFUSALS.has(key)) {
      for (const item of released) {
        if (item.open) item.acked = true;
        else this.live.delete(item.span.id);
      }
      this.options.log?.(`dropped the words on ${released.length} activity spans: refused (${key})`);
      return;
    }
    if (this.retryTimer || this.stopped) return;
    const delay = retryDelay(this.refusals, this.options.random);
    this.refusals += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.flush();
    }, delay);
  }

  private tick() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const now = this.now();
    while (this.upcoming.length && this.upcoming[0]!.start <= now) {
      const span = this.upcoming.shift()!;
      if (span.start < this.catchUpFrom && span.end <= now) continue;
      this.live.set(span.id, { span, open: span.end > now, acked: false, inFlight: null, sends: 0 });
    }
    for (const item of this.live.values()) {
      if (item.open && item.span.end <= now) {
        item.open = false;
        item.acked = false;
      }
    }
    for (const [id, end] of this.done) if (end < now - ACTIVITY_MAX_AGE_MS) this.done.delete(id);
    this.flush();
    // Wake at the next start or end.
    let next = this.upcoming[0]?.start ?? Number.POSITIVE_INFINITY;
    for (const item of this.live.values()) if (item.open) next = Math.min(next, item.span.end);
    if (Number.isFinite(next)) {
      this.timer = setTimeout(() => this.tick(), Math.min(MAX_TIMER_MS, Math.max(0, next - now)));
    }
  }

  /** Sends the words not receipted nor in flight, in frames of at most 500 spans. */
  private flush() {
    const waiting = [...this.live.values()].filter((item) => !item.acked && !item.inFlight);
    while (waiting.length) {
      const batch: Tracked[] = [];
      let chars = 0;
      while (waiting.length && batch.length < ACTIVITY_MAX_EVENTS) {
        const size = JSON.stringify(this.word(waiting[0]!)).length + 1;
        if (batch.length && chars + size > MAX_FRAME_CHARS) break;
        chars += size;
        batch.push(waiting.shift()!);
      }
      const generation = this.generation;
      const frame: Frame = { batch, words: batch.map((item) => (item.open ? 'open' : 'closed')) };
      const sent = this.transport.send(
        batch.map((item) => this.word(item)),
        () => this.receipted(generation, frame),
      );
      if (!sent) return;
      this.unanswered.push(frame);
      const { words } = frame;
      batch.forEach((item, i) => {
        item.inFlight = words[i]!;
        item.sends += 1;
      });
    }
  }

  private receipted(generation: number, { batch, words }: Frame) {
    if (generation !== this.generation) return;
    this.unanswered = this.unanswered.filter((frame) => frame.batch !== batch);
    this.refusals = 0;
    let changed = false;
    batch.forEach((item, i) => {
      if (item.inFlight !== words[i]) return;
      item.inFlight = null;
      item.sends = 0;
      // Receipted as it is now (not ended since it was sent open): done with this word.
      if ((item.open ? 'open' : 'closed') === words[i]) item.acked = true;
      else changed = true;
      if (!item.open && item.acked) {
        this.live.delete(item.span.id);
        this.done.set(item.span.id, item.span.end);
      }
    });
    if (changed) this.flush();
  }

  /** What is said of a span now: open (end null) or closed. */
  private word(item: Tracked): Activity {
    return { ...item.span, end: item.open ? null : item.span.end } as Activity;
  }
}
