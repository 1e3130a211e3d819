import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from '@opsdeck/contract/paging';
import {
  type CreatedWebhookEndpoint,
  type SaveWebhookEndpoint,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  type WebhookBody,
  type WebhookDeliveredType,
  type WebhookDelivery,
  type WebhookDeliveryQuery,
  type WebhookEndpoint,
  type WebhookEventData,
  type WebhookEventType,
} from '@opsdeck/contract/webhooks';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { currentAudit } from '../../platform/audit';
import { badRequest, conflict, notFound } from '../../platform/errors';
import type { ChangeKind, EventBus } from '../../platform/events';
import { ListCache } from '../../platform/list-counts';
import { type OutboundOptions, urlProblem } from '../../platform/outbound';
import { asProvider, EVERY_TENANT } from '../../platform/tenancy';
import * as q from './queries';

/** What a service hands the outbox: the event's data without the company, which the outbox reads. */
export type OutboxData<T extends WebhookEventType> = Omit<WebhookEventData<T>, 'tenantId' | 'companyName'>;

/** One event for `emitAll`; `id` names it after its cause, so that the cause told twice writes it once. */
export type OutboxEvent = {
  [T in WebhookEventType]: { type: T; tenantId: string | null; data: OutboxData<T>; id?: string };
}[WebhookEventType];

/**
 * Where the areas tell what happened (docs/webhooks.md, "Events"). The event and its deliveries are
 * written with the caller's database handle: inside a request's unit of work that is the change's
 * own transaction, so the event exists exactly when the change does.
 */
export type WebhookOutbox = {
  emit: <T extends WebhookEventType>(type: T, tenantId: string | null, data: OutboxData<T>) => Promise<void>;
  /** Many events at once: one lookup of listeners per company and type, one insert of each kind. */
  emitAll: (events: readonly OutboxEvent[]) => Promise<void>;
};

export type WebhooksService = ReturnType<typeof createWebhooksService>;

const newSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
export const newEventId = () => `msg_${randomUUID().replaceAll('-', '')}`;

function toEndpoint(row: q.EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    tenantId: row.tenantId,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEndpoint['events'],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A delivery row as the API answers it: its columns are the contract's, the status text one of its three. */
const toDelivery = (row: Omit<WebhookDelivery, 'status'> & { status: string }): WebhookDelivery => ({
  ...row,
  status: row.status as WebhookDelivery['status'],
});

/**
 * Webhook endpoints and their deliveries (docs/webhooks.md). An endpoint belongs to the caller's
 * tenant: a company's staff with MANAGE_WEBHOOKS manage their company's; the provider manages a
 * company's with X-Tenant-Id, or its own provider-wide ones without it.
 */
export function createWebhooksService(deps: {
  db: Db;
  /** Endpoint changes are told on it (every instance's listener cache follows them). */
  events: EventBus;
  outbound: OutboundOptions;
  /** Wakes the sender once the current change commits (the delivery is due at once). */
  afterCommit: (effect: () => void) => void;
  kick: () => void;
  clock?: () => number;
}) {
  const { db, events, outbound, afterCommit, kick } = deps;
  /**
   * Who listens to what, per company and event type, kept until an endpoint or a company changes
   * (every instance hears of it on the bus): an event nobody listens to then costs no query, and
   * one listened to costs its one insert (docs/performance.md, "Webhooks").
   */
  const listeners = new ListCache<{ id: number; tenantId: string | null; companyName: string | null }[]>(events, {
    dependsOn: ['webhooks', 'companies'],
  });
  const changed = (tenantId: string | null, id: number, kind: ChangeKind) =>
    events.publish({ resource: 'webhooks', kind, ids: [id], tenantId });
  const now = deps.clock ?? Date.now;

  function checkUrl(url: string) {
    const problem = urlProblem(url, outbound);
    if (problem) throw badRequest(problem, { url: problem });
  }

  async function requireEndpoint(auth: RequestAuth, id: number) {
    const row = await q.findEndpoint(db, auth.tenantId, id);
    if (!row) throw notFound('ERROR_WEBHOOK_NOT_EXIST');
    return row;
  }

  /** The events and their deliveries, in one transaction (the caller's, inside a unit of work). */
  async function write(events: readonly q.NewWebhookEvent[]) {
    if (events.length === 0) return [];
    const written = await db.transaction((tx) => q.insertEvents(tx, events));
    // The sender starts a moment after the answer has gone: its work does not hold up the change's reply.
    if (written.length > 0) afterCommit(() => setTimeout(kick, 2));
    return written;
  }

  const eventOf = (
    type: WebhookDeliveredType,
    tenantId: string | null,
    data: unknown,
    endpointIds: readonly number[],
    id = newEventId(),
  ): q.NewWebhookEvent => {
    const at = now();
    const body: WebhookBody = { type, timestamp: new Date(at).toISOString(), data } as WebhookBody;
    return { id, tenantId, type, body: JSON.stringify(body), at, endpointIds };
  };

  async function emitAll(events: readonly OutboxEvent[]) {
    // Most events have no listener: one indexed read per company and type, and nothing written.
    // Kept under every tenant's scope: any endpoint's change (a provider-wide one too) drops them all.
    // Read as the provider (docs/tenancy.md): a company's event reaches the provider's own endpoints too.
    const listenersOf = (tenantId: string | null, type: string) =>
      listeners.get(EVERY_TENANT, { tenantId, type }, () => asProvider(() => q.subscribers(db, tenantId, type)));
    const rows: q.NewWebhookEvent[] = [];
    let reachesProvider = false;
    for (const event of events) {
      const endpoints = await listenersOf(event.tenantId, event.type);
      if (endpoints.length === 0) continue;
      reachesProvider ||= endpoints.some((endpoint) => endpoint.tenantId !== event.tenantId);
      const data = { tenantId: event.tenantId, companyName: endpoints[0]!.companyName, ...event.data };
      rows.push(
        eventOf(
          event.type,
          event.tenantId,
          data,
          endpoints.map((endpoint) => endpoint.id),
          event.id,
        ),
      );
    }
    // A delivery to a provider-wide endpoint is the provider's to write; a company's own stay in
    // the company's scope (no change of the connection's settings on the common path).
    await (reachesProvider ? asProvider(() => write(rows)) : write(rows));
  }

  const outbox: WebhookOutbox = {
    emit: (type, tenantId, data) => emitAll([{ type, tenantId, data } as OutboxEvent]),
    emitAll,
  };

  return {
    outbox,

    async list(auth: RequestAuth): Promise<WebhookEndpoint[]> {
      return (await q.listEndpoints(db, auth.tenantId)).map(toEndpoint);
    },

    async get(auth: RequestAuth, id: number): Promise<WebhookEndpoint> {
      return toEndpoint(await requireEndpoint(auth, id));
    },

    async create(auth: RequestAuth, body: SaveWebhookEndpoint): Promise<CreatedWebhookEndpoint> {
      checkUrl(body.url);
      if ((await q.countEndpoints(db, auth.tenantId)) >= WEBHOOK_ENDPOINTS_MAX) throw conflict('ERROR_WEBHOOK_LIMIT');
      const at = now();
      const row = await q.insertEndpoint(db, {
        tenantId: auth.tenantId,
        url: body.url.trim(),
        description: body.description?.trim() ?? '',
        events: [...new Set(body.events)],
        enabled: body.enabled ?? true,
        secret: newSecret(),
        createdAt: at,
        updatedAt: at,
      });
      changed(row.tenantId, row.id, 'created');
      return { ...toEndpoint(row), secret: row.secret };
    },

    async update(auth: RequestAuth, id: number, body: SaveWebhookEndpoint): Promise<WebhookEndpoint> {
      const before = await requireEndpoint(auth, id);
      currentAudit()?.describe({ before: toEndpoint(before) });
      checkUrl(body.url);
      const enabled = body.enabled ?? true;
      const row = await q.updateEndpoint(db, auth.tenantId, id, {
        url: body.url.trim(),
        description: body.description?.trim() ?? '',
        events: [...new Set(body.events)],
        enabled,
        // Enabled again by a person: the server's reason goes, and it starts afresh.
        ...(enabled ? { disabledReason: null, failingSince: null } : {}),
        updatedAt: now(),
      });
      if (!row) throw notFound('ERROR_WEBHOOK_NOT_EXIST');
      changed(row.tenantId, row.id, 'updated');
      if (enabled && !before.enabled) afterCommit(kick);
      return toEndpoint(row);
    },

    async remove(auth: RequestAuth, id: number): Promise<void> {
      const before = await requireEndpoint(auth, id);
      currentAudit()?.describe({ before: toEndpoint(before) });
      await q.deleteEndpoint(db, auth.tenantId, id);
      changed(before.tenantId, id, 'deleted');
    },

    async deliveries(auth: RequestAuth, id: number, query: WebhookDeliveryQuery): Promise<Page<WebhookDelivery>> {
      await requireEndpoint(auth, id);
      const offset = (query.page - 1) * query.size;
      const [rows, total] = await Promise.all([
        q.deliveriesPage(db, id, offset, query.size),
        q.countDeliveries(db, id),
      ]);
      return { items: rows.map(toDelivery), total, page: query.page, size: query.size };
    },

    /** The same event to the same endpoint again, as a new delivery (same `webhook-id`). */
    async redeliver(auth: RequestAuth, deliveryId: number): Promise<WebhookDelivery> {
      const delivery = await q.findDelivery(db, auth.tenantId, deliveryId);
      if (!delivery) throw notFound('ERROR_WEBHOOK_DELIVERY_NOT_EXIST');
      currentAudit()?.describe({
        entityId: delivery.endpointId,
        changes: [{ field: 'eventId', before: null, after: delivery.eventId }],
      });
      const row = await q.insertDelivery(db, {
        endpointId: delivery.endpointId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        at: now(),
      });
      afterCommit(kick);
      return toDelivery(row);
    },

    /** A `webhook.test` event to this endpoint alone, whatever events it asked for. */
    async test(auth: RequestAuth, id: number): Promise<WebhookDelivery> {
      const endpoint = await requireEndpoint(auth, id);
      if (!endpoint.enabled) throw conflict('ERROR_WEBHOOK_DISABLED');
      currentAudit()?.describe({ entityName: endpoint.url, changes: [] });
      const [eventId] = await write([
        eventOf(
          WEBHOOK_TEST_EVENT,
          endpoint.tenantId,
          { endpointId: endpoint.id, message: 'A test event from Opsdeck.' },
          [endpoint.id],
        ),
      ]);
      const delivery = eventId === undefined ? undefined : await q.deliveryOfEvent(db, endpoint.id, eventId);
      if (!delivery) throw new Error('the test delivery was not written');
      return toDelivery(delivery);
    },
  };
}
