import { createHmac } from 'node:crypto';
import {
  WEBHOOK_GIVE_UP_MS,
  WEBHOOK_RETRY_DAILY_S,
  WEBHOOK_RETRY_DELAYS_S,
  WEBHOOK_SECRET_PREFIX,
} from '@opsdeck/contract/webhooks';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { companies, users } from '../../db/schema';
import type { EventBus } from '../../platform/events';
import { type Mailer, paragraphsMail } from '../../platform/mail';
import { type OutboundOptions, OutboundRefused, postChecked } from '../../platform/outbound';
import * as q from './queries';

/** The whole exchange with a receiver, and how much of its answer is read (docs/webhooks.md, "Safety"). */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_READ_BYTES = 64 * 1024;
/** How much of the answer the delivery log keeps. */
export const RESPONSE_KEPT_BYTES = 1024;
/** A claimed delivery is someone's for this long: past the timeout, with room for recording the result. */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 20_000;
/** Deliveries claimed at once, and in flight at once per instance. */
const BATCH = 50;
/** How long events and their delivery logs are kept, and how often the old ones are looked for. */
export const EVENT_RETENTION_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
/** How often an idle sender looks for due deliveries (a change in this instance wakes it at once). */
export const POLL_MS = 1_000;

/**
 * `webhook-signature` of the Standard Webhooks specification: `v1,` and the base64 HMAC-SHA256,
 * keyed by the secret's bytes (the base64 after `whsec_`), of `id.timestamp.body`.
 */
export function signature(secret: string, id: string, timestampS: number, body: string) {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

/** The wait before attempt `attempt + 1`, after attempt `attempt` (1-based) failed. */
export function retryDelayMs(attempt: number) {
  return (WEBHOOK_RETRY_DELAYS_S[attempt - 1] ?? WEBHOOK_RETRY_DAILY_S) * 1000;
}

export type WebhookSender = {
  /** Sends what is due now; resolves when those attempts are recorded. Answers how many were attempted. */
  runOnce: () => Promise<number>;
  /** Looks for due deliveries soon (a change just wrote some). */
  kick: () => void;
  /** Removes events past their 30 days (at most once an hour; the sender's loop calls it). */
  prune: () => Promise<void>;
  start: () => void;
  stop: () => Promise<void>;
};

/**
 * Delivers the outbox (docs/webhooks.md, "Delivery"): claims due deliveries, POSTs each signed
 * body, and records the outcome. A 2xx ends a delivery; a 410 disables its endpoint; anything else
 * (another status, no answer, a refused address) is tried again after the next delay, until three
 * days after the first attempt. An endpoint that has failed for three days is disabled and its
 * company head told by mail.
 */
export function createWebhookSender(deps: {
  db: Db;
  /** An endpoint the sender disables is told on it (the outbox's listener caches drop it). */
  events?: EventBus;
  log: FastifyBaseLogger;
  outbound: OutboundOptions;
  mailer?: Mailer;
  clock?: () => number;
}): WebhookSender {
  const { db, log, outbound, mailer } = deps;
  const now = deps.clock ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = true;

  const disabled = (delivery: q.ClaimedDelivery) =>
    deps.events?.publish({
      resource: 'webhooks',
      kind: 'updated',
      ids: [delivery.endpointId],
      tenantId: delivery.tenantId,
    });

  /** Another round once this one ends (deliveries were just made due). */
  const kickSoon = () => {
    again = true;
  };

  async function attempt(delivery: q.ClaimedDelivery) {
    const started = now();
    const timestamp = Math.floor(started / 1000);
    let statusCode: number | null = null;
    let response: string | null;
    try {
      const answer = await postChecked(
        delivery.url,
        {
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Opsdeck-Webhooks/1',
            'webhook-id': delivery.eventId,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signature(delivery.secret, delivery.eventId, timestamp, delivery.body),
          },
          body: delivery.body,
          timeoutMs: DELIVERY_TIMEOUT_MS,
          maxBytes: RESPONSE_READ_BYTES,
        },
        outbound,
      );
      statusCode = answer.statusCode;
      response = answer.body.subarray(0, RESPONSE_KEPT_BYTES).toString('utf8');
      if (answer.location !== undefined) response = `redirect to ${answer.location} (not followed)`;
    } catch (error) {
      response =
        error instanceof OutboundRefused
          ? `refused: ${error.message}`
          : `no answer: ${error instanceof Error ? error.message : String(error)}`;
    }
    const finished = now();
    const durationMs = Math.max(0, Math.round(finished - started));
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;

    if (ok) {
      await q.recordAttempt(db, delivery.id, {
        status: 'succeeded',
        statusCode,
        durationMs,
        response,
        nextAttemptAt: null,
      });
      if (delivery.failingSince !== null) {
        await q.markEndpoint(db, delivery.endpointId, null);
        await q.bringForward(db, delivery.endpointId, finished);
        kickSoon();
      }
      return;
    }
    if (statusCode === 410) {
      await q.recordAttempt(db, delivery.id, {
        status: 'failed',
        statusCode,
        durationMs,
        response,
        nextAttemptAt: null,
      });
      if (await q.disableEndpoint(db, delivery.endpointId, 'gone', finished)) {
        disabled(delivery);
        log.warn({ endpointId: delivery.endpointId }, 'webhook endpoint answered 410 Gone: disabled');
      }
      return;
    }
    // The last attempt is made three days after the first; a failure then gives it up.
    const deadline = delivery.firstAttemptAt + WEBHOOK_GIVE_UP_MS;
    const givenUp = finished >= deadline;
    const next = Math.min(finished + retryDelayMs(delivery.attempt), deadline);
    await q.recordAttempt(db, delivery.id, {
      status: givenUp ? 'failed' : 'pending',
      statusCode,
      durationMs,
      response,
      nextAttemptAt: givenUp ? null : next,
    });
    await q.markEndpoint(db, delivery.endpointId, { since: started });
    const failingSince = delivery.failingSince ?? started;
    if (
      finished - failingSince >= WEBHOOK_GIVE_UP_MS &&
      (await q.disableEndpoint(db, delivery.endpointId, 'failing', finished))
    ) {
      disabled(delivery);
      log.warn({ endpointId: delivery.endpointId }, 'webhook endpoint failing for three days: disabled');
      await tellCompanyHead(delivery).catch((error: unknown) =>
        log.error({ err: error, endpointId: delivery.endpointId }, 'the mail about a disabled webhook endpoint failed'),
      );
    }
  }

  /** Mails the company head (or, for a provider endpoint, nobody: the provider sees it in the console). */
  async function tellCompanyHead(delivery: q.ClaimedDelivery) {
    if (!mailer || delivery.tenantId === null) return;
    const [head] = await db
      .select({ email: users.emailAddress, firstName: users.firstName, company: companies.name })
      .from(companies)
      .innerJoin(users, eq(users.id, companies.headId))
      .where(eq(companies.tenantId, delivery.tenantId));
    if (!head) return;
    const host = new URL(delivery.url).host;
    await mailer.send({
      to: head.email,
      subject: `Opsdeck: webhook endpoint ${host} disabled`,
      ...paragraphsMail([
        `Hello ${head.firstName},`,
        `The webhook endpoint ${host} of ${head.company} has failed every delivery for three days, so Opsdeck has disabled it. Events are no longer sent to it.`,
        'Once the receiver works again, enable the endpoint on the Webhooks page; its delivery log shows what it answered.',
      ]),
    });
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const at = now();
      const claimed = await q.claimDue(db, at, at + LEASE_MS, BATCH);
      if (claimed.length === 0) return total;
      total += claimed.length;
      await Promise.all(
        claimed.map((delivery) =>
          attempt(delivery).catch((error: unknown) =>
            // Its lease ends and it is tried again; nothing is lost.
            log.error({ err: error, deliveryId: delivery.id }, 'recording a webhook delivery failed'),
          ),
        ),
      );
      if (claimed.length < BATCH) return total;
    }
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        runOnce().catch((error: unknown) => log.warn({ err: error }, 'webhook sender: a delivery round failed'));
      }
    });
    return running;
  }

  /** Events (with their deliveries) older than EVENT_RETENTION_MS go, looked at once an hour. */
  let prunedAt = 0;
  async function prune() {
    const at = now();
    if (at - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at;
    const removed = await q.deleteEventsBefore(db, at - EVENT_RETENTION_MS);
    if (removed > 0) log.info({ removed }, 'webhook events past their 30 days removed');
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(async () => {
      try {
        await prune();
        await runOnce();
      } catch (error) {
        // The database is away: the next round tries again.
        log.warn({ err: error }, 'webhook sender: looking for due deliveries failed');
      }
      schedule();
    }, POLL_MS);
    timer.unref();
  }

  return {
    runOnce,
    prune,
    kick() {
      if (stopped) return;
      runOnce().catch((error: unknown) => log.warn({ err: error }, 'webhook sender: a delivery round failed'));
    },
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      // Its failure was logged where it happened; stopping waits only for the round to end.
      await running?.catch((error: unknown) => log.debug({ err: error }, 'webhook sender: the last round failed'));
    },
  };
}
