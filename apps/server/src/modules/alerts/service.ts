import {
  ALERT_PARAMS,
  ALERT_RULES_MAX,
  type Alert,
  type AlertKind,
  type AlertParams,
  type AlertRule,
  type MarkNotificationsRead,
  type Notification,
  type NotificationPage,
  type NotificationPreferences,
  type NotificationQuery,
  type SaveAlertRule,
} from '@opsdeck/contract/alerts';
import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client';
import { companies, licenses } from '../../db/schema';
import type { RequestAuth } from '../../platform/access';
import { currentAudit } from '../../platform/audit';
import { conflict, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { type Mailer, paragraphsMail } from '../../platform/mail';
import { EVERY_TENANT, oneTenant, scopeOf, type TenantScope, writeTenant } from '../../platform/tenancy';
import { selectLicenses } from '../licenses/queries';
import { spanWidgets } from '../monitor/span-widgets';
import type { WebhookOutbox } from '../webhooks/service';
import * as q from './queries';

/** A person's own notifications and preferences live in their own tenant, whatever company an administrator acts on. */
const ownScope = (auth: RequestAuth): TenantScope =>
  auth.ownTenantId === null ? EVERY_TENANT : oneTenant(auth.ownTenantId);

const MINUTE = 60_000;
const DAY = 86_400_000;
/** A key not seen for a week is not 'offline' any more: it is unused. */
const AGENT_SEEN_WITHIN = 7 * DAY;

/** What a rule's check finds: each subject whose condition holds now. */
export type Finding = { key: string; subject: string; link: string | null };

const toRule = (row: q.RuleRow): AlertRule => ({
  id: row.id,
  tenantId: row.tenantId,
  kind: row.kind as AlertKind,
  params: row.params,
  channels: row.channels as AlertRule['channels'],
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const toAlert = (row: q.AlertRow): Alert => ({
  id: row.id,
  ruleId: row.ruleId,
  tenantId: row.tenantId,
  kind: row.kind as AlertKind,
  subject: row.subject,
  link: row.link,
  raisedAt: row.raisedAt,
  clearedAt: row.clearedAt,
});

const toNotification = ({ notification, open }: { notification: q.NotificationRow; open: boolean }): Notification => ({
  id: notification.id,
  kind: notification.kind as AlertKind,
  title: notification.title,
  body: notification.body,
  link: notification.link,
  alertId: notification.alertId,
  open: Boolean(open),
  createdAt: notification.createdAt,
  readAt: notification.readAt,
});

/** Monday to Friday, 08:00 to 18:00, in `timeZone` (an unknown zone counts as UTC). */
export function inWorkingHours(at: number, timeZone: string) {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      hour: 'numeric',
      hourCycle: 'h23',
    }).formatToParts(at);
  } catch {
    return inWorkingHours(at, 'UTC');
  }
  const weekday = parts.find((part) => part.type === 'weekday')?.value ?? '';
  const hour = Number(parts.find((part) => part.type === 'hour')?.value ?? 0);
  return !['Sat', 'Sun'].includes(weekday) && hour >= 8 && hour < 18;
}

const TITLES: Record<AlertKind, string> = {
  agent_offline: 'Agent offline',
  workflow_faulted: 'Workflow keeps faulting',
  license_expiring: 'Licence expiring',
  seats_nearly_full: 'Licence seats nearly full',
  late_arrival: 'Late arrival',
  break_over: 'Break over its threshold',
};

const LINKS = {
  events: '/dashboard/workflow/events',
  errors: '/dashboard/workflow/errors',
  licenses: '/dashboard/license',
  monitor: '/dashboard/report/monitor',
} as const;

/**
 * Alerts and notifications (docs/alerts.md): rules per company, checked every `checkEveryMs` by
 * every instance; an alert raised once per rule and subject (the database's unique index decides
 * between instances), told to the chosen channels, and cleared when its condition ends.
 */
export function createAlertsService(deps: {
  db: Db;
  outbox: WebhookOutbox;
  events: EventBus;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The keys with an agent connected now, on any instance (the live presence). */
  connectedAccounts: () => readonly number[];
  /**
   * The unit of work (platform/unit-of-work.ts): a raise runs in `run`, so that the outbox's event
   * and the notifications are written in its transaction, and what waits for the commit (the live
   * push, the mails) goes after it.
   */
  unit: { run: <T>(work: (tx: Executor) => Promise<T>) => Promise<T>; afterCommit: (effect: () => void) => void };
  clock?: () => number;
}) {
  const { db, outbox, events, mailer, log, unit } = deps;
  const { afterCommit } = unit;
  const now = deps.clock ?? Date.now;

  // --- The checks: what holds now, per kind -----------------------------------------------------

  function licencesInForce(tenantId: string, at: number) {
    return selectLicenses(
      db,
      oneTenant(tenantId),
      and(
        eq(companies.tenantId, tenantId),
        isNull(licenses.invalidatedAt),
        gt(licenses.expirationDate, at),
        lte(licenses.issueDate, at),
      ),
    );
  }

  const checks: { [K in AlertKind]: (tenantId: string, params: AlertParams<K>, at: number) => Promise<Finding[]> } = {
    async agent_offline(tenantId, params, at) {
      if (!inWorkingHours(at, params.timeZone)) return [];
      const connected = new Set(deps.connectedAccounts());
      const quiet = await q.agentsLastSeen(db, tenantId, at - AGENT_SEEN_WITHIN, at - params.minutes * MINUTE);
      // A key marked connected by an instance that died is offline unless the presence has it.
      return quiet
        .filter((row) => !connected.has(row.accountId))
        .map((row) => ({
          key: `account:${row.accountId}`,
          subject: `The agent of key ${row.partialKey} has been offline for more than ${params.minutes} min`,
          link: LINKS.events,
        }));
    },
    async workflow_faulted(tenantId, params, at) {
      const rows = await q.faultedWorkflows(db, tenantId, at - params.minutes * MINUTE, params.count);
      return rows.map((row) => ({
        key: `workflow:${row.workflowId ?? row.workflowName}`,
        subject: `${row.workflowName} faulted ${row.faults} times in ${params.minutes} min`,
        link: LINKS.errors,
      }));
    },
    async license_expiring(tenantId, params, at) {
      const rows = await licencesInForce(tenantId, at);
      return rows
        .filter((row) => row.expirationDate - at <= params.days * DAY)
        .map((row) => ({
          key: `license:${row.id}:${row.expirationDate}`,
          subject: `Licence ${row.label || row.typeName} expires on ${new Date(row.expirationDate).toISOString().slice(0, 10)}`,
          link: LINKS.licenses,
        }));
    },
    async seats_nearly_full(tenantId, params, at) {
      const rows = await licencesInForce(tenantId, at);
      return rows
        .filter((row) => row.maxAccounts > 0 && row.keysInUse * 100 >= params.percent * row.maxAccounts)
        .map((row) => ({
          key: `license:${row.id}`,
          subject: `Licence ${row.label || row.typeName} uses ${row.keysInUse} of its ${row.maxAccounts} seats`,
          link: LINKS.licenses,
        }));
    },
    late_arrival: (tenantId, _params, at) => monitorAlerts(tenantId, at, 'late'),
    break_over: (tenantId, _params, at) => monitorAlerts(tenantId, at, 'break_over'),
  };

  /** The monitor's own alerts of the last day (docs/monitor.md, `alerts`): each one a subject. */
  async function monitorAlerts(tenantId: string, at: number, kind: 'late' | 'break_over'): Promise<Finding[]> {
    const found = (await spanWidgets.alerts?.({
      db,
      scope: oneTenant(tenantId),
      people: null,
      from: at - DAY,
      to: at,
      tz: 'UTC',
      now: at,
    })) as { at: number; userId: number; name: string; kind: string; message: string }[] | undefined;
    return (found ?? [])
      .filter((alert) => alert.kind === kind)
      .map((alert) => ({
        key: `${kind}:${alert.userId}:${alert.at}`,
        subject: `${alert.name}: ${alert.message}`,
        link: LINKS.monitor,
      }));
  }

  // --- Raising, folding, clearing -----------------------------------------------------------------

  /** Tells a raised alert to its rule's channels, in the raise's transaction (mails after it). */
  async function tell(tx: Executor, rule: q.RuleRow, alert: q.AlertRow) {
    const kind = rule.kind as AlertKind;
    const people = await q.recipients(tx, rule.tenantId);
    if (rule.channels.includes('console')) {
      const written = await q.insertNotifications(
        tx,
        people.map((person) => ({
          userId: person.id,
          tenantId: rule.tenantId,
          alertId: alert.id,
          kind,
          title: TITLES[kind],
          body: alert.subject,
          link: alert.link,
          createdAt: alert.raisedAt,
        })),
      );
      if (written.length > 0) {
        const ids = written.map((row) => row.id);
        afterCommit(() => events.publish({ resource: 'notifications', kind: 'created', ids, tenantId: rule.tenantId }));
      }
    }
    if (rule.channels.includes('webhook')) {
      await outbox.emit('alert.raised', rule.tenantId, {
        alert: { id: alert.id, kind, subject: alert.subject, raisedAt: alert.raisedAt },
      });
    }
    if (rule.channels.includes('email')) {
      const addressed = people.filter((person) => person.email?.[kind] !== false);
      afterCommit(() => {
        for (const person of addressed) {
          mailer
            .send({
              to: person.emailAddress,
              subject: `Opsdeck alert: ${TITLES[kind]}`,
              ...paragraphsMail([
                `Hello ${person.firstName},`,
                alert.subject,
                'You receive this because you manage alerts of your company; choose which alerts reach you by e-mail from the bell in the console.',
              ]),
            })
            .catch((error: unknown) => log.error({ err: error, alertId: alert.id }, 'an alert mail could not be sent'));
        }
      });
    }
  }

  /** One rule: raises what is new, clears what ended. Answers what was raised. */
  async function checkRule(rule: q.RuleRow, at: number) {
    const kind = rule.kind as AlertKind;
    const params = ALERT_PARAMS[kind].parse(rule.params);
    const findings = await (checks[kind] as (tenantId: string, params: unknown, at: number) => Promise<Finding[]>)(
      rule.tenantId,
      params,
      at,
    );
    const scope = oneTenant(rule.tenantId);
    const open = await q.openAlertsOfRule(db, scope, rule.id);
    const openKeys = new Set(open.map((alert) => alert.subjectKey));
    const holding = new Set(findings.map((finding) => finding.key));
    await q.clear(
      db,
      scope,
      open.filter((alert) => !holding.has(alert.subjectKey)).map((alert) => alert.id),
      at,
    );
    const raised: q.AlertRow[] = [];
    for (const finding of findings) {
      if (openKeys.has(finding.key)) continue;
      await unit.run(async (tx) => {
        const alert = await q.raise(tx, {
          tenantId: rule.tenantId,
          ruleId: rule.id,
          kind,
          subjectKey: finding.key,
          subject: finding.subject,
          link: finding.link,
          raisedAt: at,
        });
        // Another instance raised it first: it tells.
        if (!alert) return;
        await tell(tx, rule, alert);
        raised.push(alert);
      });
    }
    return raised;
  }

  /** Every rule of every company, once. */
  async function checkAll() {
    const at = now();
    let raised = 0;
    for (const rule of await q.allRules(db)) {
      try {
        raised += (await checkRule(rule, at)).length;
      } catch (error) {
        log.error({ err: error, ruleId: rule.id }, 'an alert rule could not be checked');
      }
    }
    return raised;
  }

  // --- Rules, alerts, notifications as the API serves them -----------------------------------------

  async function requireRule(auth: RequestAuth, id: number) {
    const row = await q.findRule(db, writeTenant(auth), id);
    if (!row) throw notFound('ERROR_ALERT_RULE_NOT_EXIST');
    return row;
  }

  return {
    checkAll,
    checkRule,

    /** An agent connected or left (the live channel): when its key was last seen. */
    async sawAgent(sighting: { accountId: number; tenantId: string | null; connected: boolean; at: number }) {
      await q.sawAgent(db, sighting);
    },

    async listRules(auth: RequestAuth) {
      return (await q.listRules(db, writeTenant(auth))).map(toRule);
    },

    async createRule(auth: RequestAuth, body: SaveAlertRule): Promise<AlertRule> {
      const tenantId = writeTenant(auth);
      if ((await q.countRules(db, tenantId)) >= ALERT_RULES_MAX) throw conflict('ERROR_ALERT_RULE_LIMIT');
      const at = now();
      const row = await q.insertRule(db, {
        tenantId,
        kind: body.kind,
        params: ALERT_PARAMS[body.kind].parse(body.params) as Record<string, unknown>,
        channels: [...new Set(body.channels)],
        createdAt: at,
        updatedAt: at,
      });
      return toRule(row);
    },

    async updateRule(auth: RequestAuth, id: number, body: SaveAlertRule): Promise<AlertRule> {
      const before = await requireRule(auth, id);
      currentAudit()?.describe({ before: toRule(before) });
      const row = await q.updateRule(db, before.tenantId, id, {
        kind: body.kind,
        params: ALERT_PARAMS[body.kind].parse(body.params) as Record<string, unknown>,
        channels: [...new Set(body.channels)],
        updatedAt: now(),
      });
      if (!row) throw notFound('ERROR_ALERT_RULE_NOT_EXIST');
      return toRule(row);
    },

    async removeRule(auth: RequestAuth, id: number) {
      const before = await requireRule(auth, id);
      currentAudit()?.describe({ before: toRule(before) });
      await q.deleteRule(db, before.tenantId, id);
    },

    async openAlerts(auth: RequestAuth): Promise<Alert[]> {
      return (await q.openAlerts(db, scopeOf(auth))).map(toAlert);
    },

    async notifications(auth: RequestAuth, query: NotificationQuery): Promise<NotificationPage> {
      const unreadOnly = query.unread === 'true';
      const offset = (query.page - 1) * query.size;
      const [rows, total, unread] = await Promise.all([
        q.notificationPage(db, ownScope(auth), auth.userId, unreadOnly, offset, query.size),
        q.countNotifications(db, ownScope(auth), auth.userId, unreadOnly),
        q.countNotifications(db, ownScope(auth), auth.userId, true),
      ]);
      return { items: rows.map(toNotification), total, page: query.page, size: query.size, unread };
    },

    async markRead(auth: RequestAuth, body: MarkNotificationsRead) {
      await q.markRead(db, ownScope(auth), auth.userId, 'all' in body ? 'all' : body.ids, now());
    },

    /** The notifications `ids`, with their person: what the live channel pushes. */
    async notificationsByIds(ids: readonly number[]) {
      if (ids.length === 0) return [];
      // The live channel pushes every company's new notifications, each to its person.
      return (await q.notificationsByIds(db, EVERY_TENANT, ids)).map((row) => ({
        userId: row.notification.userId,
        notification: toNotification(row),
      }));
    },

    async preferences(auth: RequestAuth): Promise<NotificationPreferences> {
      return { email: await q.preferencesOf(db, ownScope(auth), auth.userId) };
    },

    async savePreferences(auth: RequestAuth, body: NotificationPreferences): Promise<NotificationPreferences> {
      await q.savePreferences(db, auth.userId, body.email);
      return { email: body.email };
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;

/** Checks every `everyMs`; answers the function that stops it. */
export function startAlertChecks(alerts: AlertsService, log: FastifyBaseLogger, everyMs: number) {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await alerts.checkAll();
    } catch (error) {
      log.warn({ err: error }, 'alert rules: a check failed (the next one tries again)');
    } finally {
      running = false;
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
