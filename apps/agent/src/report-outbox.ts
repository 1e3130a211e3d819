import type { ExecutionReport } from '@opsdeck/contract/live';
import { BACKOFF, retryDelay } from './backoff';

/**
 * Refusals of a report that say "not now" rather than "never" (docs/live-channel.md, Agents): the
 * database is away, the server is busy, or something failed inside it. The report is sent again
 * after a back-off, on the same connection. Any other key (a malformed report, a workflow not the
 * key's company's) is final: the same report would be refused again, so it is dropped.
 */
export const TRANSIENT_REPORT_REFUSALS: ReadonlySet<string> = new Set([
  'ERROR_SERVICE_UNAVAILABLE',
  'ERROR_TOO_MANY_REQUESTS',
  'ERROR_GENERAL_INTERNAL',
]);

/**
 * A report whose sends this many times met a closed connection before any answer, or an internal
 * error of the server, is dropped: one that breaks the server every time must not be sent for
 * ever. Waiting for the database (ERROR_SERVICE_UNAVAILABLE, however long) never counts.
 */
export const MAX_REPORT_FAILURES = 10;

export type ReportTransport = {
  /** Sends the report asking for a receipt (`onReceipt` runs when it comes); false when not connected. */
  send: (report: ExecutionReport, onReceipt: () => void) => boolean;
};

export type ReportOutboxOptions = {
  /** Numbers in [0, 1): the jitter of the back-off. */
  random?: () => number;
  /** The back-off between sends of a report refused for now: `firstMs` doubling to `maxMs` (default 1 s to 30 s). */
  retry?: { firstMs: number; maxMs: number };
  log?: (level: 'debug' | 'warn', message: string) => void;
  onReceipted?: (reportId: string) => void;
};

type Pending = { report: ExecutionReport; failures: number; refusals: number; timer?: NodeJS.Timeout };

/**
 * The execution reports an agent has sent and the server has not receipted: each is sent until it
 * is (docs/live-channel.md, Agents). The report's id makes a resend idempotent, so "until receipted"
 * stores it exactly once whatever was lost on the way: a receipt, a connection, the database.
 *
 * A report is sent at once, again after every reconnect, and again after a back-off when the
 * server refused it for now. Refusals carry no report id; they are matched by order, since the
 * server answers a connection's frames one at a time, in order: a refusal on `/agent/execution` is
 * the answer to the oldest report sent on this connection and not answered yet.
 */
export class ReportOutbox {
  private readonly pending = new Map<string, Pending>();
  /** Reports sent on this connection and not answered yet, oldest first. */
  private inFlight: string[] = [];
  private readonly random: () => number;
  private readonly retry: { firstMs: number; maxMs: number };

  constructor(
    private readonly transport: ReportTransport,
    private readonly options: ReportOutboxOptions = {},
  ) {
    this.random = options.random ?? Math.random;
    this.retry = options.retry ?? { firstMs: BACKOFF.firstMs, maxMs: BACKOFF.maxMs };
  }

  /** Reports not receipted yet. */
  get size(): number {
    return this.pending.size;
  }

  /** Keeps a new report until it is receipted, and sends it now if connected. */
  add(report: ExecutionReport) {
    const item: Pending = { report, failures: 0, refusals: 0 };
    this.pending.set(report.id, item);
    this.send(item);
  }

  /** A new connection: every report not receipted goes again (a new session answers afresh). */
  onConnected() {
    this.inFlight = [];
    for (const item of this.pending.values()) this.send(item);
  }

  /** The connection closed: what was in flight got no answer; the next connection sends everything again. */
  onDisconnected() {
    for (const id of this.inFlight) {
      const item = this.pending.get(id);
      if (item) this.fail(item, 'no answer before the connection closed');
    }
    this.inFlight = [];
    for (const item of this.pending.values()) this.cancelRetry(item);
  }

  /** A refusal on `/agent/execution`: the answer to the oldest report in flight. */
  onRefusal(key: string) {
    const id = this.inFlight.shift();
    const item = id === undefined ? undefined : this.pending.get(id);
    if (!item) return;
    if (!TRANSIENT_REPORT_REFUSALS.has(key)) {
      this.drop(item, `refused: ${key}`);
      return;
    }
    if (key === 'ERROR_GENERAL_INTERNAL' && !this.fail(item, key)) return;
    const delay = retryDelay(item.refusals, this.random, this.retry);
    item.refusals += 1;
    this.options.log?.(
      'debug',
      `execution report ${item.report.id} refused for now (${key}); sending it again in ${delay} ms`,
    );
    item.timer = setTimeout(() => {
      item.timer = undefined;
      this.send(item);
    }, delay);
  }

  /** Stops the retries (the agent stops; what is pending is not sent any more). */
  stop() {
    for (const item of this.pending.values()) this.cancelRetry(item);
  }

  private send(item: Pending) {
    const { id } = item.report;
    if (item.timer || this.inFlight.includes(id) || !this.pending.has(id)) return;
    const sent = this.transport.send(item.report, () => {
      const at = this.inFlight.indexOf(id);
      if (at >= 0) this.inFlight.splice(at, 1);
      if (!this.pending.delete(id)) return;
      this.cancelRetry(item);
      this.options.onReceipted?.(id);
    });
    if (sent) this.inFlight.push(id);
  }

  /** Counts a failure; false (and the report dropped) when it was the last one allowed. */
  private fail(item: Pending, why: string): boolean {
    item.failures += 1;
    if (item.failures < MAX_REPORT_FAILURES) return true;
    this.drop(item, `${why}, ${MAX_REPORT_FAILURES} times`);
    return false;
  }

  private drop(item: Pending, why: string) {
    this.cancelRetry(item);
    this.pending.delete(item.report.id);
    this.options.log?.('warn', `dropped execution report ${item.report.id}: ${why}`);
  }

  private cancelRetry(item: Pending) {
    clearTimeout(item.timer);
    item.timer = undefined;
  }
}
