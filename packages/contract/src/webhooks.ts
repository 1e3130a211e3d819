import { z } from 'zod';
import { idParams } from './fields';
import { LIMITS } from './limits';
import { pageNumbers, pageOf } from './paging';

/**
 * Webhooks (docs/webhooks.md): Opsdeck tells other systems what happened, by an HTTPS POST signed
 * as the Standard Webhooks specification says (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`), delivered at least once from an outbox written in the transaction of the
 * change itself.
 */

/** Every event an endpoint may ask for, one catalogue; each has a documented payload (`data`). */
export const WEBHOOK_EVENT_TYPES = [
  'execution.finished',
  'execution.faulted',
  'agent.connected',
  'agent.disconnected',
  'license.expiring',
  'license.expired',
  'license.invalidated',
  'account.generated',
  'account.invalidated',
  'seats.nearly_full',
  'workflow.uploaded',
  'workflow.deleted',
  'user.created',
  'user.archived',
  'alert.raised',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event "Send a test event" sends: to its one endpoint, whatever the endpoint asked for. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookDeliveredType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

export const isWebhookEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/** A secret is `whsec_` and 32 random bytes in base64 (Standard Webhooks' form). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * When a failed delivery is tried again, in seconds after the previous attempt: about 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, then daily until three days have passed since the first attempt.
 */
export const WEBHOOK_RETRY_DELAYS_S = [5, 300, 1_800, 7_200, 18_000, 36_000] as const;
export const WEBHOOK_RETRY_DAILY_S = 86_400;
/** Past this since its first attempt a delivery is given up, and an endpoint that kept failing is disabled. */
export const WEBHOOK_GIVE_UP_MS = 3 * 86_400_000;

// --- Payloads (the `data` of each event) --------------------------------------------------------

const Tenant = { tenantId: z.string().nullable(), companyName: z.string().nullable() };

export const UserEventData = z
  .object({
    ...Tenant,
    user: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string(), emailAddress: z.string() }),
  })
  .meta({ id: 'UserEventData' });

export const WorkflowEventData = z
  .object({
    ...Tenant,
    workflow: z.object({ id: z.number().int(), name: z.string(), fileName: z.string() }),
  })
  .meta({ id: 'WorkflowEventData' });

export const AccountEventData = z
  .object({
    ...Tenant,
    /** The key in its partial form (never the key itself). */
    account: z.object({ id: z.number().int(), partialKey: z.string(), licenseId: z.number().int() }),
  })
  .meta({ id: 'AccountEventData' });

export const LicenseEventData = z
  .object({
    ...Tenant,
    license: z.object({ id: z.number().int(), label: z.string(), expiresAt: z.number().int() }),
    /** license.expiring: whole days left (30, 7 or 1). */
    daysLeft: z.number().int().optional(),
  })
  .meta({ id: 'LicenseEventData' });

/** seats.nearly_full is told when a new key brings a licence's used keys to this share of its seats. */
export const SEATS_NEARLY_FULL_PERCENT = 90;

export const SeatsEventData = z
  .object({
    ...Tenant,
    license: z.object({ id: z.number().int(), label: z.string() }),
    used: z.number().int(),
    seats: z.number().int(),
    percent: z.number(),
  })
  .meta({ id: 'SeatsEventData' });

export const AgentEventData = z
  .object({
    ...Tenant,
    agent: z.object({ accountId: z.number().int(), partialKey: z.string(), machineName: z.string().nullable() }),
  })
  .meta({ id: 'AgentEventData' });

export const ExecutionEventData = z
  .object({
    ...Tenant,
    execution: z.object({
      id: z.string(),
      workflowName: z.string(),
      accountId: z.number().int().nullable(),
      status: z.string(),
      startedAt: z.number().int(),
      finishedAt: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  })
  .meta({ id: 'ExecutionEventData' });

export const AlertEventData = z
  .object({
    ...Tenant,
    alert: z.object({ id: z.number().int(), kind: z.string(), subject: z.string(), raisedAt: z.number().int() }),
  })
  .meta({ id: 'AlertEventData' });

export const TestEventData = z
  .object({ endpointId: z.number().int(), message: z.string() })
  .meta({ id: 'WebhookTestEventData' });

/** Each event's payload schema: what a receiver gets as `data`. */
export const WEBHOOK_EVENT_DATA = {
  'execution.finished': ExecutionEventData,
  'execution.faulted': ExecutionEventData,
  'agent.connected': AgentEventData,
  'agent.disconnected': AgentEventData,
  'license.expiring': LicenseEventData,
  'license.expired': LicenseEventData,
  'license.invalidated': LicenseEventData,
  'account.generated': AccountEventData,
  'account.invalidated': AccountEventData,
  'seats.nearly_full': SeatsEventData,
  'workflow.uploaded': WorkflowEventData,
  'workflow.deleted': WorkflowEventData,
  'user.created': UserEventData,
  'user.archived': UserEventData,
  'alert.raised': AlertEventData,
  [WEBHOOK_TEST_EVENT]: TestEventData,
} as const satisfies Record<WebhookDeliveredType, z.ZodType>;

export type WebhookEventData<T extends WebhookDeliveredType> = z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** The body of every delivery, as the Standard Webhooks specification suggests. */
export type WebhookBody<T extends WebhookDeliveredType = WebhookDeliveredType> = {
  type: T;
  /** ISO 8601, when the event happened. */
  timestamp: string;
  data: WebhookEventData<T>;
};

// --- Endpoints -----------------------------------------------------------------------------------

export const WebhookEndpoint = z
  .object({
    id: z.number().int(),
    /** Null: one of the provider's own endpoints, told of every company's events. */
    tenantId: z.string().nullable(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    /** Why it was disabled by the server (410 Gone, three days of failures); null if by a person or enabled. */
    disabledReason: z.string().nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The answer of POST /api/webhook: the only time `secret` is shown. */
export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: z.string() }).meta({
  id: 'CreatedWebhookEndpoint',
});
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

/** The longest endpoint URL accepted, and how many endpoints one company (or the provider) may have. */
export const WEBHOOK_URL_MAX = 2_048;
export const WEBHOOK_ENDPOINTS_MAX = 20;

const WebhookUrl = z
  .string({ error: 'ERROR_WEBHOOK_URL_REQUIRED' })
  .trim()
  .min(1, 'ERROR_WEBHOOK_URL_REQUIRED')
  .max(WEBHOOK_URL_MAX, 'ERROR_WEBHOOK_URL_TOO_LONG');

/** POST /api/webhook and PUT /api/webhook/{id}. The URL is checked further by the server (https only, no private address). */
export const SaveWebhookEndpoint = z
  .object({
    url: WebhookUrl,
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'ERROR_WEBHOOK_EVENT_INVALID' }), {
        error: 'ERROR_WEBHOOK_EVENTS_REQUIRED',
      })
      .min(1, 'ERROR_WEBHOOK_EVENTS_REQUIRED')
      .max(WEBHOOK_EVENT_TYPES.length, 'ERROR_WEBHOOK_EVENT_INVALID'),
    enabled: z.boolean({ error: 'ERROR_GENERAL_INVALID_INPUT' }).default(true),
    description: z.string().trim().max(LIMITS.descriptionMax, 'ERROR_WEBHOOK_DESCRIPTION_TOO_LONG').default(''),
  })
  .meta({ id: 'SaveWebhookEndpoint' });
export type SaveWebhookEndpoint = z.input<typeof SaveWebhookEndpoint>;

export const WebhookIdParams = idParams('ERROR_WEBHOOK_NOT_EXIST');
export const WebhookDeliveryIdParams = idParams('ERROR_WEBHOOK_DELIVERY_NOT_EXIST');

// --- Deliveries ----------------------------------------------------------------------------------

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** One event's delivery to one endpoint (a redelivery is a delivery of its own). */
export const WebhookDelivery = z
  .object({
    id: z.number().int(),
    /** The `webhook-id` header: the same for every attempt and every redelivery of one event. */
    eventId: z.string(),
    eventType: z.string(),
    /** Attempts made so far. */
    attempt: z.number().int(),
    /** pending (not yet, or to be tried again), succeeded (a 2xx), failed (given up). */
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    /** The last attempt's HTTP status; null if it got none (refused, timed out). */
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    /** When the delivery was made (the event), and when last tried. */
    at: z.number().int(),
    lastAttemptAt: z.number().int().nullable(),
    nextAttemptAt: z.number().int().nullable(),
    /** The first 1 KiB of the last answer, or why there was none. */
    response: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryPage = pageOf(WebhookDelivery).meta({ id: 'WebhookDeliveryPage' });

export const WebhookDeliveryQuery = z.object({
  ...pageNumbers,
});
export type WebhookDeliveryQuery = z.infer<typeof WebhookDeliveryQuery>;
