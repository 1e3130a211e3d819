import { z } from 'zod';
import { idParams } from './fields';
import { pageNumbers, pageOf } from './paging';

/**
 * Alerts and the notification centre (docs/alerts.md). A company's rules say what is worth telling
 * (a kind and its parameters) and where (the console, e-mail, webhooks). The server checks them
 * every minute: a subject whose condition holds raises one alert (repeats are folded into it until
 * it clears), which clears by itself when the condition ends.
 */

export const ALERT_KINDS = [
  'agent_offline',
  'workflow_faulted',
  'license_expiring',
  'seats_nearly_full',
  'late_arrival',
  'break_over',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_CHANNELS = ['console', 'email', 'webhook'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** How many rules one company may have. */
export const ALERT_RULES_MAX = 50;

const invalid = 'ERROR_ALERT_PARAMS_INVALID';
const whole = (min: number, max: number) =>
  z.number({ error: invalid }).int(invalid).min(min, invalid).max(max, invalid);

/** Each kind's parameters. */
export const ALERT_PARAMS = {
  /** A key's agent not connected for more than `minutes`, Monday to Friday 08:00–18:00 in `timeZone`. */
  agent_offline: z.object({ minutes: whole(1, 1_440), timeZone: z.string().max(64, invalid).default('UTC') }),
  /** A workflow that faulted at least `count` times in the last `minutes`. */
  workflow_faulted: z.object({ count: whole(1, 1_000), minutes: whole(1, 10_080) }),
  /** A licence in force expiring within `days`. */
  license_expiring: z.object({ days: whole(1, 365) }),
  /** A licence whose keys use at least `percent` of its seats. */
  seats_nearly_full: z.object({ percent: whole(1, 100) }),
  /** A person arriving late for their schedule (the monitor's rule: more than 5 minutes). */
  late_arrival: z.object({}),
  /** A break longer than its status's threshold (the monitor's rule). */
  break_over: z.object({}),
} as const satisfies Record<AlertKind, z.ZodType>;

export type AlertParams<K extends AlertKind = AlertKind> = z.infer<(typeof ALERT_PARAMS)[K]>;

const Channels = z
  .array(z.enum(ALERT_CHANNELS, { error: 'ERROR_ALERT_CHANNEL_INVALID' }), {
    error: 'ERROR_ALERT_CHANNELS_REQUIRED',
  })
  .min(1, 'ERROR_ALERT_CHANNELS_REQUIRED')
  .max(ALERT_CHANNELS.length, 'ERROR_ALERT_CHANNEL_INVALID');

const ruleOf = <K extends AlertKind>(kind: K) =>
  z.object({ kind: z.literal(kind), params: ALERT_PARAMS[kind], channels: Channels });

/** POST /api/alert-rule and PUT /api/alert-rule/{id}: `{ kind, params, channels }`. */
export const SaveAlertRule = z
  .discriminatedUnion(
    'kind',
    [
      ruleOf('agent_offline'),
      ruleOf('workflow_faulted'),
      ruleOf('license_expiring'),
      ruleOf('seats_nearly_full'),
      ruleOf('late_arrival'),
      ruleOf('break_over'),
    ],
    { error: 'ERROR_ALERT_KIND_INVALID' },
  )
  .meta({ id: 'SaveAlertRule' });
export type SaveAlertRule = z.input<typeof SaveAlertRule>;

export const AlertRule = z
  .object({
    id: z.number().int(),
    tenantId: z.string(),
    kind: z.enum(ALERT_KINDS),
    params: z.record(z.string(), z.unknown()),
    channels: z.array(z.enum(ALERT_CHANNELS)),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'AlertRule' });
export type AlertRule = z.infer<typeof AlertRule>;

export const AlertRuleIdParams = idParams('ERROR_ALERT_RULE_NOT_EXIST');

/** One alert: a rule's condition holding for one subject (an agent, a workflow, a licence, a person). */
export const Alert = z
  .object({
    id: z.number().int(),
    ruleId: z.number().int().nullable(),
    tenantId: z.string(),
    kind: z.enum(ALERT_KINDS),
    /** What it is about, as people read it: "RPA-0020 (ODK-B6C9-…) offline for 25 min". */
    subject: z.string(),
    /** The console page of the thing concerned. */
    link: z.string().nullable(),
    raisedAt: z.number().int(),
    /** Null while open. */
    clearedAt: z.number().int().nullable(),
  })
  .meta({ id: 'Alert' });
export type Alert = z.infer<typeof Alert>;

/** One entry of a person's notification centre. */
export const Notification = z
  .object({
    id: z.number().int(),
    kind: z.enum(ALERT_KINDS),
    title: z.string(),
    body: z.string(),
    link: z.string().nullable(),
    alertId: z.number().int().nullable(),
    /** Whether the alert it tells of is still open. */
    open: z.boolean(),
    createdAt: z.number().int(),
    readAt: z.number().int().nullable(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof Notification>;

export const NotificationPage = pageOf(Notification)
  .extend({ unread: z.number().int() })
  .meta({ id: 'NotificationPage' });
export type NotificationPage = z.infer<typeof NotificationPage>;

const invalidInput = 'ERROR_GENERAL_INVALID_INPUT';
/** GET /api/notification: newest first; `unread=true` only those not read. */
export const NotificationQuery = z.object({
  ...pageNumbers,
  unread: z.enum(['true', 'false'], { error: invalidInput }).optional(),
});
export type NotificationQuery = z.infer<typeof NotificationQuery>;

/** POST /api/notification/read: `{ ids }` or `{ all: true }`. */
export const MarkNotificationsRead = z
  .union(
    [
      z.object({
        ids: z
          .array(z.number({ error: invalidInput }).int(invalidInput).positive(invalidInput))
          .min(1)
          .max(500),
      }),
      z.object({ all: z.literal(true) }),
    ],
    { error: invalidInput },
  )
  .meta({ id: 'MarkNotificationsRead' });
export type MarkNotificationsRead = z.infer<typeof MarkNotificationsRead>;

/** Which kinds reach the person by e-mail (those of rules with the e-mail channel). Absent: yes. */
export const NotificationPreferences = z
  .object({ email: z.partialRecord(z.enum(ALERT_KINDS), z.boolean()) })
  .meta({ id: 'NotificationPreferences' });
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;
