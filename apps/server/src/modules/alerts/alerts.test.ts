import type { Alert, AlertRule, Notification, NotificationPage } from '@opsdeck/contract/alerts';
import { DESTINATIONS } from '@opsdeck/contract/live';
import { WEBHOOK_EVENT_DATA } from '@opsdeck/contract/webhooks';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { createStatus, spanRow } from '../../../test/activity';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import {
  createAgentKey,
  createCompany,
  createDepartment,
  createUser,
  createWorkflowRow,
  type TestCompany,
} from '../../../test/factories';
import { connectPeer, consoleHeaders } from '../../../test/live';
import { waitForMail } from '../../../test/mail';
import { reportOf } from '../../../test/report-runs';
import { signInCompanyHead, tokenFor, tokenWithEveryAuthority } from '../../../test/sign-in';
import { selectRows } from '../../db/client';
import { accounts, activitySpans, alerts as alertsTable, licenses, schedules } from '../../db/schema';
import { ensureMonthPartition } from '../../platform/partitions';
import { rebuildActivityRollups } from '../activity/rollups';
import { createExecutionLogsService } from '../execution-logs/service';
import { createAlertsService, inWorkingHours } from './service';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** A Wednesday, 10:00 UTC: working hours. */
const WEDNESDAY_10 = Date.UTC(2026, 10, 25, 10, 0, 0);

let t: TestApp;
let admin: string;
let north: TestCompany;
let south: TestCompany;
let northHead: { id: number; email: string; token: string };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  north = await createCompany(t.database.db, { name: 'North Alerts' });
  south = await createCompany(t.database.db, { name: 'South Alerts' });
  northHead = await signInCompanyHead(t, north);
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await t.database.db.execute(sql`delete from webhook_endpoints`);
  await t.database.db.execute(sql`delete from alert_rules`);
  await t.database.db.execute(sql`delete from alerts`);
});

/** The app's alerts service with the test's clock. */
function checker(now: () => number) {
  const { services } = t.app;
  return createAlertsService({
    db: services.unit.db,
    outbox: services.webhooks.outbox,
    events: services.events,
    mailer: services.mailer,
    log: t.app.log,
    connectedAccounts: () => services.live.connectedAccounts(),
    unit: services.unit,
    clock: now,
  });
}

async function createRule(body: Record<string, unknown>, token = northHead.token) {
  const result = await t.call<AlertRule>('/api/alert-rule', { token, json: body });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

async function openAlerts(token = northHead.token) {
  const result = await t.call<Alert[]>('/api/alert', { token });
  expect(result.status).toBe(200);
  return result.body;
}

async function notifications(token = northHead.token, query = '') {
  const result = await t.call<NotificationPage>(`/api/notification?size=100${query}`, { token });
  expect(result.status).toBe(200);
  return result.body;
}

describe('rules', () => {
  it('creates, lists, changes and deletes a rule; refuses parameters out of range', async () => {
    const rule = await createRule({ kind: 'agent_offline', params: { minutes: 15 }, channels: ['console', 'console'] });
    expect(rule).toMatchObject({
      tenantId: north.tenantId,
      kind: 'agent_offline',
      params: { minutes: 15, timeZone: 'UTC' },
      channels: ['console'],
    });
    const changed = await t.call<AlertRule>(`/api/alert-rule/${rule.id}`, {
      method: 'PUT',
      token: northHead.token,
      json: { kind: 'workflow_faulted', params: { count: 3, minutes: 10 }, channels: ['email', 'webhook'] },
    });
    expect(changed.body).toMatchObject({ kind: 'workflow_faulted', params: { count: 3, minutes: 10 } });
    expect((await t.call<AlertRule[]>('/api/alert-rule', { token: northHead.token })).body).toHaveLength(1);

    const refused = async (json: unknown) =>
      (
        await t.call<{ key: string; fields?: Record<string, string> }>('/api/alert-rule', {
          token: northHead.token,
          json,
        })
      ).body;
    expect(await refused({ kind: 'agent_offline', params: { minutes: 0 }, channels: ['console'] })).toMatchObject({
      key: 'ERROR_ALERT_PARAMS_INVALID',
    });
    expect((await refused({ kind: 'nothing', params: {}, channels: ['console'] })).key).toBe(
      'ERROR_ALERT_KIND_INVALID',
    );
    expect((await refused({ kind: 'break_over', params: {}, channels: [] })).key).toBe('ERROR_ALERT_CHANNELS_REQUIRED');
    expect((await refused({ kind: 'break_over', params: {}, channels: ['sms'] })).key).toBe(
      'ERROR_ALERT_CHANNEL_INVALID',
    );
    expect(
      (
        await t.call('/api/alert-rule', {
          token: admin,
          json: { kind: 'break_over', params: {}, channels: ['console'] },
        })
      ).body,
    ).toMatchObject({
      key: 'ERROR_COMPANY_REQUIRED',
    });

    expect((await t.call(`/api/alert-rule/${rule.id}`, { method: 'DELETE', token: northHead.token })).status).toBe(200);
    expect((await t.call<AlertRule[]>('/api/alert-rule', { token: northHead.token })).body).toEqual([]);
  });

  it('refuses a user without MANAGE_ALERTS and hides a rule from another company', async () => {
    const rule = await createRule({ kind: 'break_over', params: {}, channels: ['console'] });
    const body = { kind: 'break_over', params: {}, channels: ['console'] };
    const endpoints: Endpoint[] = [
      { method: 'GET', path: '/api/alert-rule', authorities: ['MANAGE_ALERTS'] },
      { method: 'POST', path: '/api/alert-rule', json: body, authorities: ['MANAGE_ALERTS'] },
      { method: 'GET', path: '/api/alert', authorities: ['MANAGE_ALERTS'] },
      { method: 'PUT', path: `/api/alert-rule/${rule.id}`, json: body, authorities: ['MANAGE_ALERTS'] },
      { method: 'DELETE', path: `/api/alert-rule/${rule.id}`, authorities: ['MANAGE_ALERTS'] },
    ];
    await expectRefusedWithoutAuthority(t, north, endpoints);
    await expectHiddenFromOtherTenant(t, await tokenWithEveryAuthority(t, south), north.tenantId, endpoints.slice(3));
  });
});

describe('raised, folded and cleared', () => {
  it('seats nearly full: one alert however often checked, told live, by e-mail and webhook; cleared when a seat frees', async () => {
    const key = await createAgentKey(t.database.db, north);
    await t.database.db.update(licenses).set({ maxAccounts: 1 }).where(eq(licenses.id, key.licenseId));
    await createRule({ kind: 'seats_nearly_full', params: { percent: 90 }, channels: ['console', 'email'] });
    const consoleOfHead = await connectPeer(t.baseUrl, consoleHeaders(northHead.token), [
      DESTINATIONS.notifications,
      DESTINATIONS.activeAgentsReply,
    ]);
    // A round trip: its subscriptions are in place on the server.
    await consoleOfHead.send(DESTINATIONS.requestActiveAgents);
    await consoleOfHead.next(DESTINATIONS.activeAgentsReply);
    let now = Date.now();
    const check = checker(() => now);

    expect(await check.checkAll()).toBe(1);
    const pushed = await consoleOfHead.next<Notification>(DESTINATIONS.notifications);
    expect(pushed).toMatchObject({
      kind: 'seats_nearly_full',
      title: 'Licence seats nearly full',
      open: true,
      readAt: null,
    });
    expect(pushed.body).toContain('uses 1 of its 1 seats');
    expect(await waitForMail(t, northHead.email)).toContain('uses 1 of its 1 seats');

    // Checked again and again: still one alert, one notification.
    now += MINUTE;
    expect(await check.checkAll()).toBe(0);
    expect(await checker(() => now).checkAll()).toBe(0);
    expect(await openAlerts()).toHaveLength(1);
    expect((await notifications()).items.filter((entry) => entry.kind === 'seats_nearly_full')).toHaveLength(1);

    // A seat frees: the alert clears by itself, and the notification says so.
    await t.database.db.delete(accounts).where(eq(accounts.id, key.accountId));
    now += MINUTE;
    await check.checkAll();
    expect(await openAlerts()).toEqual([]);
    const [entry] = (await notifications()).items.filter((item) => item.kind === 'seats_nearly_full');
    expect(entry).toMatchObject({ open: false });
    await consoleOfHead.close();
  });

  it('a workflow faulting N times in M minutes, with the webhook channel', async () => {
    const key = await createAgentKey(t.database.db, north);
    const workflowId = await createWorkflowRow(t.database.db, north, 'Claims intake');
    await createRule({ kind: 'workflow_faulted', params: { count: 3, minutes: 10 }, channels: ['webhook', 'console'] });
    // An endpoint for alert.raised (never reached: the name does not resolve); the outbox keeps the body.
    const hook = await t.call<{ id: number }>('/api/webhook', {
      token: northHead.token,
      json: { url: 'https://hooks.alerts.invalid/in', events: ['alert.raised'] },
    });
    expect(hook.status).toBe(201);
    const ingest = createExecutionLogsService({ db: t.database.db });
    const at = Date.now();
    for (let k = 0; k < 3; k += 1) {
      await ingest.record(
        key.agent,
        reportOf({ workflowId, start: at - 5 * MINUTE + k, end: at - 4 * MINUTE + k, status: 'faulted' }),
      );
    }
    let now = at;
    const check = checker(() => now);
    expect(await check.checkAll()).toBe(1);
    const [raised] = await openAlerts();
    expect(raised).toMatchObject({ kind: 'workflow_faulted', subject: 'Claims intake faulted 3 times in 10 min' });
    const [event] = await selectRows<{ body: string }>(
      t.database.db,
      sql`select body from webhook_events where type = 'alert.raised'`,
    );
    const body = JSON.parse(event!.body) as { type: 'alert.raised'; data: unknown };
    expect(WEBHOOK_EVENT_DATA['alert.raised'].parse(body.data)).toMatchObject({
      tenantId: north.tenantId,
      companyName: 'North Alerts',
      alert: { id: raised!.id, kind: 'workflow_faulted', subject: raised!.subject, raisedAt: raised!.raisedAt },
    });
    // Ten minutes on, the faults are out of the window: cleared.
    now += 10 * MINUTE;
    await check.checkAll();
    expect(await openAlerts()).toEqual([]);
    // Two instances raising the same alert at once raise it once.
    now = at;
    const [first, second] = await Promise.all([checker(() => now).checkAll(), checker(() => now).checkAll()]);
    expect(first + second).toBe(1);
    expect(await openAlerts()).toHaveLength(1);
  });

  it('an agent offline for more than N minutes, during working hours only', async () => {
    const key = await createAgentKey(t.database.db, north);
    await createRule({ kind: 'agent_offline', params: { minutes: 15 }, channels: ['console'] });
    let now = WEDNESDAY_10;
    const check = checker(() => now);
    await check.sawAgent({
      accountId: key.accountId,
      tenantId: north.tenantId,
      connected: false,
      at: now - 10 * MINUTE,
    });
    expect(await check.checkAll()).toBe(0);
    now += 6 * MINUTE;
    expect(await check.checkAll()).toBe(1);
    expect((await openAlerts())[0]!.subject).toContain('ODK-TEST-…-KEY1');
    // Back: cleared.
    await check.sawAgent({ accountId: key.accountId, tenantId: north.tenantId, connected: true, at: now });
    now += MINUTE;
    // Marked connected but not in the live presence (its instance died): offline since then.
    await check.checkAll();
    expect(await openAlerts()).toEqual([]);
    expect(inWorkingHours(Date.UTC(2026, 10, 28, 10), 'UTC')).toBe(false); // a Saturday
    expect(inWorkingHours(Date.UTC(2026, 10, 25, 7, 59), 'UTC')).toBe(false);
    expect(inWorkingHours(Date.UTC(2026, 10, 25, 7, 30), 'Europe/Berlin')).toBe(true);
  });

  it('late arrivals and breaks over their threshold, as the monitor finds them; gone from the last day: cleared', async () => {
    const db = t.database.db;
    const department = await createDepartment(db, north);
    const person = await createUser(db, { company: north, departmentId: department.id });
    const coffee = await createStatus(db, { tenantId: north.tenantId, departmentId: department.id }, 'Coffee', {
      threshold: 15,
    });
    const now = Date.now();
    // A schedule that ended an hour ago (the monitor judges attendance once it ended), signed in an
    // hour after its start (late by 60 min); a 40-minute coffee.
    await db.insert(schedules).values({
      tenantId: north.tenantId,
      userId: person.id,
      scheduleStart: now - 10 * HOUR,
      scheduleEnd: now - HOUR,
    });
    await ensureMonthPartition(db, 'activity_spans', now - 10 * HOUR);
    await ensureMonthPartition(db, 'activity_spans', now);
    await db.insert(activitySpans).values([
      spanRow(north, { userId: person.id, kind: 'session', start: now - 9 * HOUR, end: now - HOUR }),
      spanRow(north, {
        userId: person.id,
        kind: 'status',
        statusId: coffee,
        start: now - HOUR,
        end: now - 20 * MINUTE,
      }),
    ]);
    // Spans written straight to the table: their rollups made as the ingest makes them.
    await rebuildActivityRollups(db);
    await createRule({ kind: 'late_arrival', params: {}, channels: ['console'] });
    await createRule({ kind: 'break_over', params: {}, channels: ['console'] });
    let clock = now;
    const check = checker(() => clock);
    const raisedNow = await check.checkAll();
    const open = await openAlerts();
    expect(raisedNow, JSON.stringify(open)).toBe(2);
    expect(open.map((alert) => alert.kind).sort()).toEqual(['break_over', 'late_arrival']);
    expect(open.find((alert) => alert.kind === 'late_arrival')!.subject).toMatch(/Late by 60 min/);
    expect(open.find((alert) => alert.kind === 'break_over')!.subject).toMatch(
      /Coffee over its 15 min threshold by 25 min/,
    );
    clock += MINUTE;
    expect(await check.checkAll()).toBe(0);
    // Two days on, both are out of the day the rules look at.
    clock = now + 2 * DAY;
    await check.checkAll();
    expect(await openAlerts()).toEqual([]);
  });

  it('a licence expiring within N days', async () => {
    const key = await createAgentKey(t.database.db, north);
    await t.database.db
      .update(licenses)
      .set({ expirationDate: Date.now() + 5 * DAY })
      .where(eq(licenses.id, key.licenseId));
    await createRule({ kind: 'license_expiring', params: { days: 7 }, channels: ['console'] });
    const check = checker(() => Date.now());
    expect(await check.checkAll()).toBe(1);
    await t.database.db
      .update(licenses)
      .set({ expirationDate: Date.now() + 60 * DAY })
      .where(eq(licenses.id, key.licenseId));
    await check.checkAll();
    expect(await openAlerts()).toEqual([]);
  });
});

describe('the notification centre', () => {
  it("lists a person's own notifications, counts the unread, marks read, and keeps e-mail preferences", async () => {
    const key = await createAgentKey(t.database.db, north);
    await t.database.db.update(licenses).set({ maxAccounts: 1 }).where(eq(licenses.id, key.licenseId));
    const colleague = await createUser(t.database.db, { company: north, role: 'COMPANY_ADMINISTRATOR' });
    const colleagueToken = await t.login(colleague.email, colleague.password);
    // The colleague wants no e-mail of this kind.
    expect(
      (
        await t.call('/api/notification/preferences', {
          method: 'PUT',
          token: colleagueToken,
          json: { email: { seats_nearly_full: false } },
        })
      ).status,
    ).toBe(200);
    expect((await t.call('/api/notification/preferences', { token: colleagueToken })).body).toEqual({
      email: { seats_nearly_full: false },
    });
    await createRule({ kind: 'seats_nearly_full', params: { percent: 50 }, channels: ['console'] });
    await checker(() => Date.now()).checkAll();

    const mine = await notifications(colleagueToken);
    expect(mine.unread).toBeGreaterThanOrEqual(1);
    const [first] = mine.items;
    const viewer = await tokenFor(t, north, ['VIEW_USER']);
    expect((await notifications(viewer)).items).toEqual([]);
    // Someone else's ids change nothing.
    await t.call('/api/notification/read', { token: viewer, json: { ids: [first!.id] } });
    expect((await notifications(colleagueToken)).unread).toBe(mine.unread);
    await t.call('/api/notification/read', { token: colleagueToken, json: { ids: [first!.id] } });
    expect((await notifications(colleagueToken)).unread).toBe(mine.unread - 1);
    await t.call('/api/notification/read', { token: colleagueToken, json: { all: true } });
    const after = await notifications(colleagueToken, '&unread=true');
    expect(after).toMatchObject({ unread: 0, items: [] });
    expect(
      (await t.call<{ key: string }>('/api/notification/read', { token: colleagueToken, json: { ids: [] } })).body.key,
    ).toBe('ERROR_GENERAL_INVALID_INPUT');
    expect(await t.database.db.select().from(alertsTable)).toHaveLength(1);
  });
});
