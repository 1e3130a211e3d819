import { SaveWebhookEndpoint, type WebhookEndpoint, type WebhookEventType } from '@opsdeck/contract/webhooks';
import { z } from 'zod';
import { inCatalogueOrder } from './webhook-events';

/**
 * The endpoint form: the contract's rules for the URL, the events and the description. Whether the
 * URL is https and public is the server's to say (it may allow http to a loopback address); its
 * refusal shows on the URL field.
 */
export const webhookFormSchema = z.object({
  url: SaveWebhookEndpoint.shape.url,
  description: SaveWebhookEndpoint.shape.description,
  events: SaveWebhookEndpoint.shape.events,
  enabled: z.boolean(),
});

export type WebhookFormValues = z.input<typeof webhookFormSchema>;
export type WebhookFormOutput = z.output<typeof webhookFormSchema>;

/** A new endpoint: no URL, no event yet (each is a choice, as a token's scopes), enabled. */
export const emptyWebhookForm = (): WebhookFormValues => ({
  url: '',
  description: '',
  events: [],
  enabled: true,
});

export const webhookToForm = (endpoint: WebhookEndpoint): WebhookFormValues => ({
  url: endpoint.url,
  description: endpoint.description,
  events: [...endpoint.events],
  enabled: endpoint.enabled,
});

export const toSaveWebhook = (values: WebhookFormOutput): SaveWebhookEndpoint => ({
  url: values.url,
  description: values.description,
  events: inCatalogueOrder(values.events) as WebhookEventType[],
  enabled: values.enabled,
});
