import type { Ok } from '@opsdeck/contract/auth';
import type { Page } from '@opsdeck/contract/paging';
import type {
  CreatedWebhookEndpoint,
  SaveWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
} from '@opsdeck/contract/webhooks';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import type { FailurePolicy } from '../../lib/failure-policy';
import { useResourceMutation } from '../../lib/resource-mutation';
import { restResource } from '../../resources/rest-resource';
import { type Tenant, tenantKey, tenantOption } from '../../resources/tenant';

/**
 * Webhook endpoints (docs/webhooks.md). `tenant` is whose endpoints: undefined the stored tenant (a
 * company user's own company, or the provider's own provider-wide endpoints), a company's tenant id
 * when the provider acts on that company (its company page): sent as X-Tenant-Id.
 */
const endpoints = restResource<WebhookEndpoint>('webhooks', { list: '/webhook', one: '/webhook' });

export const webhookKeys = {
  ...endpoints.keys,
  deliveries: (tenant: Tenant, endpointId: number, page: number) =>
    ['webhooks', 'deliveries', tenantKey(tenant), endpointId, page] as const,
};

export const webhooksQueryOptions = endpoints.listOptions;

/** The rows of one page of a delivery log. */
export const DELIVERIES_PAGE_SIZE = 10;

/** GET /api/webhook/{id}/deliveries: one page of an endpoint's delivery log, newest first. */
export function deliveriesQueryOptions(tenant: Tenant, endpointId: number, page: number) {
  return queryOptions({
    queryKey: webhookKeys.deliveries(tenant, endpointId, page),
    queryFn: ({ signal }) =>
      apiRequest<Page<WebhookDelivery>>(`/webhook/${endpointId}/deliveries`, {
        signal,
        query: { page, size: DELIVERIES_PAGE_SIZE },
        ...tenantOption(tenant),
      }),
    placeholderData: keepPreviousData,
  });
}

/** Every write reloads every view of webhooks: the endpoint list and the delivery logs. */
const touched = [webhookKeys.all];

/** POST /api/webhook: the answer carries the signing secret, shown once (CreatedWebhookModal) and kept nowhere. */
export const useCreateWebhook = (tenant: Tenant) =>
  useResourceMutation(
    (body: SaveWebhookEndpoint) =>
      apiRequest<CreatedWebhookEndpoint>('/webhook', { method: 'POST', body, ...tenantOption(tenant) }),
    touched,
  );

/** PUT /api/webhook/{id}. */
export const useUpdateWebhook = (tenant: Tenant) =>
  useResourceMutation(
    ({ id, body }: { id: number; body: SaveWebhookEndpoint }) =>
      apiRequest<WebhookEndpoint>(`/webhook/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
    touched,
  );

/** DELETE /api/webhook/{id}: the endpoint and its delivery log. */
export const useDeleteWebhook = (tenant: Tenant) =>
  useResourceMutation(
    (id: number) => apiRequest<Ok>(`/webhook/${id}`, { method: 'DELETE', ...tenantOption(tenant) }),
    touched,
  );

/** POST /api/webhook/{id}/test: a `webhook.test` delivery, sent within about a second. */
export const useSendTestEvent = (tenant: Tenant) =>
  useResourceMutation(
    (id: number) => apiRequest<WebhookDelivery>(`/webhook/${id}/test`, { method: 'POST', ...tenantOption(tenant) }),
    touched,
  );

/** POST /api/webhook/deliveries/{id}/redeliver: the same event again, as a new delivery. */
export const useRedeliver = (tenant: Tenant) =>
  useResourceMutation(
    (deliveryId: number) =>
      apiRequest<WebhookDelivery>(`/webhook/deliveries/${deliveryId}/redeliver`, {
        method: 'POST',
        ...tenantOption(tenant),
      }),
    touched,
  );

/** Create: the field keys on their fields; anything else (the limit of 20) under the form. */
export const CREATE_WEBHOOK_FAILURE: FailurePolicy = { otherwise: 'form' };
/** Update: an endpoint deleted meanwhile toasts and closes; the rest under the form. */
export const UPDATE_WEBHOOK_FAILURE: FailurePolicy = { toast: ['ERROR_WEBHOOK_NOT_EXIST'], otherwise: 'form' };
/** Delete: an endpoint already gone toasts with its URL; anything else the general error. */
export const DELETE_WEBHOOK_FAILURE: FailurePolicy = { toast: ['ERROR_WEBHOOK_NOT_EXIST'], otherwise: 'general' };
