import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@opsdeck/contract/webhooks';

/**
 * The contract's event catalogue as the form offers it: in groups of what they are about, each
 * group and event named by `webhooks.eventGroups.<group>` and `webhooks.eventNames.<type>`. Every type
 * is in exactly one group (webhook-events.test.ts).
 */
export const WEBHOOK_EVENT_GROUPS = [
  { key: 'runs', events: ['execution.finished', 'execution.faulted'] },
  { key: 'agents', events: ['agent.connected', 'agent.disconnected'] },
  { key: 'licenses', events: ['license.expiring', 'license.expired', 'license.invalidated', 'seats.nearly_full'] },
  { key: 'keys', events: ['account.generated', 'account.invalidated'] },
  { key: 'workflows', events: ['workflow.uploaded', 'workflow.deleted'] },
  { key: 'users', events: ['user.created', 'user.archived'] },
  { key: 'alerts', events: ['alert.raised'] },
] as const satisfies readonly { key: string; events: readonly WebhookEventType[] }[];

/** The catalogue's order, which the form sends the chosen events in. */
export const inCatalogueOrder = (events: readonly string[]): WebhookEventType[] =>
  WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));

/** The i18n key of an event type's name: `webhooks.eventNames.execution_finished` (i18next splits keys on dots). */
export const eventLabelKey = (type: string) => `webhooks.eventNames.${type.replace(/\./g, '_')}`;
