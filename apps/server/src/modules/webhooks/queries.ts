import { and, arrayContains, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client';
import { companies, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema';
import { ownedBy } from '../../platform/tenancy';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** An owner's endpoints (a company's, or the provider's own with null), oldest first. */
export function listEndpoints(db: Executor, owner: string | null) {
  return db
    .select()
    .from(webhookEndpoints)
    .where(ownedBy(webhookEndpoints.tenantId, owner))
    .orderBy(webhookEndpoints.id);
}

export async function findEndpoint(db: Executor, owner: string | null, id: number) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), ownedBy(webhookEndpoints.tenantId, owner)));
  return row;
}

export async function countEndpoints(db: Executor, owner: string | null) {
  const [row] = await db
    .select({ count: count() })
    .from(webhookEndpoints)
    .where(ownedBy(webhookEndpoints.tenantId, owner));
  return row?.count ?? 0;
}

export async function insertEndpoint(db: Executor, values: typeof webhookEndpoints.$inferInsert) {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function updateEndpoint(
  db: Executor,
  owner: string | null,
  id: number,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
) {
  const [row] = await db
    .update(webhookEndpoints)
    .set(values)
    .where(and(eq(webhookEndpoints.id, id), ownedBy(webhookEndpoints.tenantId, owner)))
    .returning();
  return row;
}

export async function deleteEndpoint(db: Executor, owner: string | null, id: number) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), ownedBy(webhookEndpoints.tenantId, owner)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/**
 * The enabled endpoints told of `type` in `tenantId` (the company's own and the provider's), each
 * with the company's name for the payload: one round trip.
 */
export function subscribers(db: Executor, tenantId: string | null, type: string) {
  return db
    .select({
      id: webhookEndpoints.id,
      tenantId: webhookEndpoints.tenantId,
      companyName:
        tenantId === null
          ? sql<string | null>`null`
          : sql<string | null>`(select ${companies.name} from ${companies} where ${companies.tenantId} = ${tenantId})`,
    })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        arrayContains(webhookEndpoints.events, [type]),
        tenantId === null
          ? isNull(webhookEndpoints.tenantId)
          : or(eq(webhookEndpoints.tenantId, tenantId), isNull(webhookEndpoints.tenantId)),
      ),
    );
}

export type NewWebhookEvent = {
  id: string;
  tenantId: string | null;
  type: string;
  body: string;
  at: number;
  endpointIds: readonly number[];
};

/**
 * The events and one pending delivery of each to each of its endpoints, due at once. An event whose
 * id is already there is left as it is, with no new deliveries: an event named after what caused it
 * (a run's report sent again) is written once. Answers the ids written.
 */
export async function insertEvents(db: Executor, events: readonly NewWebhookEvent[]) {
  if (events.length === 0) return [];
  if (events.length === 1) return insertEvent(db, events[0]!);
  const column = <T>(pick: (event: NewWebhookEvent) => T) => sql.param(events.map(pick));
  const pairs = events.flatMap((event) => event.endpointIds.map((endpointId) => ({ eventId: event.id, endpointId })));
  // One statement (one round trip, one plan): the events, then a delivery of each event written.
  const rows = await selectRows<{ id: string }>(
    db,
    sql`
    with written as (
      insert into webhook_events (id, tenant_id, type, body, at)
      select * from unnest(${column((event) => event.id)}::text[], ${column((event) => event.tenantId)}::uuid[],
        ${column((event) => event.type)}::text[], ${column((event) => event.body)}::text[], ${column((event) => event.at)}::bigint[])
      on conflict (id) do nothing
      returning id, type, at
    ),
    delivered as (
      insert into webhook_deliveries (endpoint_id, event_id, event_type, at, next_attempt_at)
      select pair.endpoint_id, written.id, written.type, written.at, written.at
      from written
      join unnest(${sql.param(pairs.map((pair) => pair.eventId))}::text[], ${sql.param(pairs.map((pair) => pair.endpointId))}::int[])
        as pair(event_id, endpoint_id) on pair.event_id = written.id
      -- Listeners come from a cache another instance's change may not have reached yet: an endpoint
      -- deleted or disabled meanwhile gets nothing (and the change never fails on it).
      join webhook_endpoints endpoint on endpoint.id = pair.endpoint_id and endpoint.enabled
      returning event_id
    )
    select distinct event_id as id from delivered`,
  );
  return rows.map((row) => row.id);
}

/**
 * One event and a delivery of it to each of its endpoints that is still enabled, as a change
 * through the API tells it: plain values, which PGlite plans and runs in half the time of `unnest`
 * over arrays (docs/performance.md, "Webhooks"); on PGlite one text parsed once, as every
 * statement is (db/pglite-statements.ts). Answers the event's id when it wrote a delivery.
 */
async function insertEvent(db: Executor, event: NewWebhookEvent) {
  const rows = await selectRows<{ event_id: string }>(
    db,
    sql`
    with written as (
      insert into webhook_events (id, tenant_id, type, body, at)
      values (${event.id}, ${event.tenantId}::uuid, ${event.type}, ${event.body}, ${event.at}::bigint)
      on conflict (id) do nothing
      returning id, type, at
    )
    insert into webhook_deliveries (endpoint_id, event_id, event_type, at, next_attempt_at)
    select endpoint.id, written.id, written.type, written.at, written.at
    from written
    join webhook_endpoints endpoint on endpoint.id = any(${sql.param([...event.endpointIds])}::int[]) and endpoint.enabled
    returning event_id`,
  );
  return rows.length > 0 ? [event.id] : [];
}

/** A delivery claimed for one attempt: what the sender needs to make it. */
export type ClaimedDelivery = {
  id: number;
  attempt: number;
  firstAttemptAt: number;
  endpointId: number;
  tenantId: string | null;
  url: string;
  secret: string;
  failingSince: number | null;
  eventId: string;
  body: string;
};

/**
 * Claims up to `limit` due deliveries of enabled endpoints for one attempt each: the rows are
 * locked with SKIP LOCKED (another instance's claim passes over them), counted as attempted, and
 * leased until `leaseUntil` (their `next_attempt_at`), all in one statement: no other instance
 * takes them before the lease ends, and one whose sender died is taken up again after it.
 */
export async function claimDue(db: Executor, now: number, leaseUntil: number, limit: number) {
  const rows = await selectRows<ClaimedDelivery>(
    db,
    sql`
    with due as (
      select d.id from webhook_deliveries d
      join webhook_endpoints p on p.id = d.endpoint_id and p.enabled
      where d.status = 'pending' and d.next_attempt_at <= ${now}
      order by d.next_attempt_at
      limit ${limit}
      for update of d skip locked
    )
    update webhook_deliveries d
      set attempt = d.attempt + 1,
          first_attempt_at = coalesce(d.first_attempt_at, ${now}),
          last_attempt_at = ${now},
          next_attempt_at = ${leaseUntil},
          leased_until = ${leaseUntil}
    from due, webhook_endpoints p, webhook_events e
    where d.id = due.id and p.id = d.endpoint_id and e.id = d.event_id
    returning d.id, d.attempt, d.first_attempt_at as "firstAttemptAt", p.id as "endpointId", p.tenant_id as "tenantId",
      p.url, p.secret, p.failing_since as "failingSince", e.id as "eventId", e.body`,
  );
  // int8 columns arrive as text from a raw statement.
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    firstAttemptAt: Number(row.firstAttemptAt),
    failingSince: row.failingSince === null ? null : Number(row.failingSince),
  }));
}

export type AttemptResult = {
  status: 'pending' | 'succeeded' | 'failed';
  statusCode: number | null;
  durationMs: number;
  response: string | null;
  nextAttemptAt: number | null;
};

export async function recordAttempt(db: Executor, id: number, result: AttemptResult) {
  await db
    .update(webhookDeliveries)
    .set({ ...result, leasedUntil: null })
    .where(eq(webhookDeliveries.id, id));
}

/** After a 2xx the endpoint is no longer failing; after a failure it is, since its first one. */
export async function markEndpoint(db: Executor, id: number, failing: { since: number } | null) {
  await db
    .update(webhookEndpoints)
    .set({ failingSince: failing ? sql`coalesce(${webhookEndpoints.failingSince}, ${failing.since})` : null })
    .where(eq(webhookEndpoints.id, id));
}

/**
 * An endpoint that answered again: its deliveries waiting for a later retry are due now (a receiver
 * back after an hour gets its backlog at once, not over the next hours of backoff).
 */
export async function bringForward(db: Executor, endpointId: number, now: number) {
  await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now })
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, 'pending'),
        sql`${webhookDeliveries.nextAttemptAt} > ${now}`,
        // Not those a sender holds right now: their attempt is being made.
        sql`(${webhookDeliveries.leasedUntil} is null or ${webhookDeliveries.leasedUntil} <= ${now})`,
      ),
    );
}

/** The server disables an endpoint ('gone', 'failing'); answers false when it already was. */
export async function disableEndpoint(db: Executor, id: number, reason: string, now: number) {
  const rows = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: now })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  eventId: webhookDeliveries.eventId,
  eventType: webhookDeliveries.eventType,
  attempt: webhookDeliveries.attempt,
  status: webhookDeliveries.status,
  statusCode: webhookDeliveries.statusCode,
  durationMs: webhookDeliveries.durationMs,
  at: webhookDeliveries.at,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  response: webhookDeliveries.response,
};

export type DeliveryRow = {
  [K in keyof typeof deliveryColumns]: (typeof deliveryColumns)[K]['_']['notNull'] extends true
    ? (typeof deliveryColumns)[K]['_']['data']
    : (typeof deliveryColumns)[K]['_']['data'] | null;
};

/** An endpoint's deliveries, newest first. */
export function deliveriesPage(db: Executor, endpointId: number, offset: number, size: number) {
  return db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(size)
    .offset(offset);
}

export async function countDeliveries(db: Executor, endpointId: number) {
  const [row] = await db
    .select({ count: count() })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId));
  return row?.count ?? 0;
}

/** The delivery of `eventId` to `endpointId` (the first, if it was redelivered). */
export async function deliveryOfEvent(db: Executor, endpointId: number, eventId: string) {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId)))
    .orderBy(webhookDeliveries.id)
    .limit(1);
  return row;
}

/** A delivery of one of the owner's endpoints. */
export async function findDelivery(db: Executor, owner: string | null, id: number) {
  const [row] = await db
    .select({ ...deliveryColumns, endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, id), ownedBy(webhookEndpoints.tenantId, owner)));
  return row;
}

/** A new delivery of an event already sent (a redelivery, or the test event's one). */
export async function insertDelivery(
  db: Executor,
  values: { endpointId: number; eventId: string; eventType: string; at: number },
) {
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ ...values, nextAttemptAt: values.at })
    .returning(deliveryColumns);
  return row!;
}

/** Events older than `before` go, with their deliveries (the outbox's retention). */
export async function deleteEventsBefore(db: Executor, before: number) {
  const rows = await db
    .delete(webhookEvents)
    .where(sql`${webhookEvents.at} < ${before}`)
    .returning({ id: webhookEvents.id });
  return rows.length;
}
