import { Ok } from '@opsdeck/contract/auth';
import {
  CreatedWebhookEndpoint,
  SaveWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryIdParams,
  WebhookDeliveryPage,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookIdParams,
} from '@opsdeck/contract/webhooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import type { WebhooksService } from './service';

const tags = ['webhooks'];
const OWNER =
  "A company's staff act on their company's endpoints; the provider on a company's with X-Tenant-Id, or on its own " +
  "provider-wide endpoints (told of every company's events) without it.";
const manage = access.anyOf('MANAGE_WEBHOOKS');

/** Webhook endpoints, their deliveries, a test event and a redelivery (docs/webhooks.md). */
export const webhookRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  app.get(
    '/webhook',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'The webhook endpoints',
        description: OWNER,
        response: { 200: z.array(WebhookEndpoint) },
      },
    },
    async (request) => webhooks.list(requireAuth(request)),
  );

  app.post(
    '/webhook',
    {
      config: { access: manage, audit: audit.action('webhook.create') },
      schema: {
        tags,
        summary: 'Create a webhook endpoint; the answer is the only time `secret` is shown',
        description:
          'Only `https://` URLs (and `http://` to a loopback address where WEBHOOK_ALLOW_LOOPBACK=1): 400 ' +
          'ERROR_WEBHOOK_URL_INVALID; a private, loopback, link-local or metadata address: 400 ERROR_WEBHOOK_URL_FORBIDDEN ' +
          `(checked again on every delivery). At most 20 endpoints per company (409 ERROR_WEBHOOK_LIMIT). ${OWNER}`,
        body: SaveWebhookEndpoint,
        response: { 201: CreatedWebhookEndpoint },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return webhooks.create(requireAuth(request), request.body);
    },
  );

  app.put(
    '/webhook/:id',
    {
      config: { access: manage, audit: audit.action('webhook.update') },
      schema: {
        tags,
        summary: 'Change a webhook endpoint (its URL, events, description, enabled)',
        description: `Enabling an endpoint the server disabled clears its reason and sends what is still pending. ${OWNER}`,
        params: WebhookIdParams,
        body: SaveWebhookEndpoint,
        response: { 200: WebhookEndpoint },
      },
    },
    async (request) => webhooks.update(requireAuth(request), request.params.id, request.body),
  );

  app.delete(
    '/webhook/:id',
    {
      config: { access: manage, audit: audit.action('webhook.delete') },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint and its delivery log',
        description: OWNER,
        params: WebhookIdParams,
        response: { 200: Ok },
      },
    },
    async (request) => {
      await webhooks.remove(requireAuth(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/webhook/:id/test',
    {
      config: { access: manage, audit: audit.action('webhook.test') },
      schema: {
        tags,
        summary: 'Send a `webhook.test` event to this endpoint',
        description: `Answers the delivery, due at once; its outcome shows in the delivery log. A disabled endpoint: 409 ERROR_WEBHOOK_DISABLED. ${OWNER}`,
        params: WebhookIdParams,
        response: { 201: WebhookDelivery },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return webhooks.test(requireAuth(request), request.params.id);
    },
  );

  app.get(
    '/webhook/:id/deliveries',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: "An endpoint's delivery log, newest first",
        description: OWNER,
        params: WebhookIdParams,
        querystring: WebhookDeliveryQuery,
        response: { 200: WebhookDeliveryPage },
      },
    },
    async (request) => webhooks.deliveries(requireAuth(request), request.params.id, request.query),
  );

  app.post(
    '/webhook/deliveries/:id/redeliver',
    {
      config: { access: manage, audit: audit.action('webhook.redeliver') },
      schema: {
        tags,
        summary: 'Send a delivered event again, as a new delivery with the same webhook-id',
        description: OWNER,
        params: WebhookDeliveryIdParams,
        response: { 201: WebhookDelivery },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return webhooks.redeliver(requireAuth(request), request.params.id);
    },
  );
};
