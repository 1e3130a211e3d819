import {
  Alert,
  AlertRule,
  AlertRuleIdParams,
  MarkNotificationsRead,
  NotificationPage,
  NotificationPreferences,
  NotificationQuery,
  SaveAlertRule,
} from '@opsdeck/contract/alerts';
import { Ok } from '@opsdeck/contract/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import type { AlertsService } from './service';

const tags = ['alerts'];
const manage = access.anyOf('MANAGE_ALERTS');
const COMPANY =
  "A company's staff act on their company's rules; the provider names the company with X-Tenant-Id (else 400 ERROR_COMPANY_REQUIRED).";

/** Alert rules, open alerts, and each person's notification centre (docs/alerts.md). */
export const alertRoutes: FastifyPluginAsyncZod<{ alerts: AlertsService }> = async (app, { alerts }) => {
  app.get(
    '/alert-rule',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: "The company's alert rules",
        description: COMPANY,
        response: { 200: z.array(AlertRule) },
      },
    },
    async (request) => alerts.listRules(requireAuth(request)),
  );

  app.post(
    '/alert-rule',
    {
      config: { access: manage, audit: audit.action('alert_rule.create') },
      schema: {
        tags,
        summary: 'Create an alert rule: a kind, its parameters, the channels it tells',
        description: `At most 50 rules per company (409 ERROR_ALERT_RULE_LIMIT). ${COMPANY}`,
        body: SaveAlertRule,
        response: { 201: AlertRule },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return alerts.createRule(requireAuth(request), request.body);
    },
  );

  app.put(
    '/alert-rule/:id',
    {
      config: { access: manage, audit: audit.action('alert_rule.update') },
      schema: {
        tags,
        summary: 'Change an alert rule',
        description: COMPANY,
        params: AlertRuleIdParams,
        body: SaveAlertRule,
        response: { 200: AlertRule },
      },
    },
    async (request) => alerts.updateRule(requireAuth(request), request.params.id, request.body),
  );

  app.delete(
    '/alert-rule/:id',
    {
      config: { access: manage, audit: audit.action('alert_rule.delete') },
      schema: {
        tags,
        summary: 'Delete an alert rule (its alerts stay, as history)',
        description: COMPANY,
        params: AlertRuleIdParams,
        response: { 200: Ok },
      },
    },
    async (request) => {
      await alerts.removeRule(requireAuth(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/alert',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'The open alerts, newest first (at most 200)',
        description: "A company's staff see their company's; the provider every company's, or one with X-Tenant-Id.",
        response: { 200: z.array(Alert) },
      },
    },
    async (request) => alerts.openAlerts(requireAuth(request)),
  );

  app.get(
    '/notification',
    {
      config: { access: access.session },
      schema: {
        tags,
        summary: "The caller's notifications, newest first, with how many are unread",
        querystring: NotificationQuery,
        response: { 200: NotificationPage },
      },
    },
    async (request) => alerts.notifications(requireAuth(request), request.query),
  );

  app.post(
    '/notification/read',
    {
      config: {
        access: access.session,
        audit: audit.none("a person's own reading marks: not a change to the company's data"),
      },
      schema: {
        tags,
        summary: 'Mark notifications read: `{ ids }`, or `{ all: true }`',
        body: MarkNotificationsRead,
        response: { 200: Ok },
      },
    },
    async (request) => {
      await alerts.markRead(requireAuth(request), request.body);
      return { ok: true as const };
    },
  );

  app.get(
    '/notification/preferences',
    {
      config: { access: access.session },
      schema: {
        tags,
        summary: 'Which kinds of alert reach the caller by e-mail (a kind absent: yes)',
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => alerts.preferences(requireAuth(request)),
  );

  app.put(
    '/notification/preferences',
    {
      config: { access: access.session, audit: audit.none("a person's own e-mail preferences") },
      schema: {
        tags,
        summary: 'Choose which kinds of alert reach the caller by e-mail',
        body: NotificationPreferences,
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => alerts.savePreferences(requireAuth(request), request.body),
  );
};
