import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GeneratedAccount } from '@opsdeck/contract/accounts';
import type { Page } from '@opsdeck/contract/paging';
import {
  type CreatedWebhookEndpoint,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@opsdeck/contract/webhooks';
import { registrationFileText } from '@opsdeck/licensing/registration';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createRole, type TestCompany } from '../../../test/factories';
import { agentHeaders, connectPeer } from '../../../test/live';
import { liveTenants, newMac } from '../../../test/live-tenants';
import { waitForMail } from '../../../test/mail';
import { reportOf } from '../../../test/report-runs';
import { signInCompanyHead, tokenWithEveryAuthority } from '../../../test/sign-in';
import { uploadWorkflow } from '../../../test/workflow-files';
import { loadConfig } from '../../config';
import { selectRows } from '../../db/client';
import { licenses } from '../../db/schema';
import { resolveAllowed, urlProblem } from '../../platform/outbound';
import { createExecutionLogsService } from '../execution-logs/service';
import { expiryWindow, licenseExpiryEvents } from '../licenses/expiry';
import { createWebhookSender } from './sender';
import type { OutboxEvent } from './service';

/** A receiver on this machine: records each request, answers what `answer` says (200 by default). */
type Received = { headers: IncomingHttpHeaders; body: string };
async function startReceiver() {
  const received: Received[] = [];
  let answer: (request: Received) => { status: number; body?: string; headers?: Record<string, string> } = () => ({
    status: 200,
    body: 'ok',
  });
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      const { status, body, headers } = answer(entry);
      response.writeHead(status, headers).end(body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answerWith(next: typeof answer) {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
let admin: string;
let north: TestCompany;
let south: TestCompany;
let northHead: { id: number; email: string; token: string };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_LOOPBACK: '1' });
  // The tests drive the deliveries themselves, with senders of their own (a fake clock).
  await t.app.services.webhookSender.stop();
  admin = await t.login(ADMIN.email, ADMIN.password);
  north = await createCompany(t.database.db, { name: 'North Hooks' });
  south = await createCompany(t.database.db, { name: 'South Hooks' });
  northHead = await signInCompanyHead(t, north);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
afterEach(async () => {
  // Whatever a test left (a failed one too) is not the next one's to deliver.
  await t.database.db.execute(sql`delete from webhook_endpoints`);
  receiver.received.length = 0;
  receiver.answerWith(() => ({ status: 200, body: 'ok' }));
});

async function createEndpoint(token: string, body: Record<string, unknown>, tenantId?: string) {
  const result = await t.call<CreatedWebhookEndpoint>('/api/webhook', { token, json: body, tenantId });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

async function deliveries(token: string, endpointId: number) {
  const result = await t.call<Page<WebhookDelivery>>(`/api/webhook/${endpointId}/deliveries?size=100`, { token });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.items;
}

/** A sender of the test's own on the test's database, its clock in the test's hands. */
function sender(options: { allowLoopback?: boolean; now?: () => number } = {}) {
  return createWebhookSender({
    db: t.database.db,
    log: t.app.log,
    outbound: { allowLoopback: options.allowLoopback ?? true },
    mailer: t.app.services.mailer,
    clock: options.now,
  });
}

async function registerUser(token: string, email: string) {
  const role = await createRole(t.database.db, north, ['VIEW_USER']);
  return t.call<{ id: number }>('/api/user/register', {
    token,
    json: {
      firstName: 'Hook',
      lastName: 'Person',
      emailAddress: email,
      credential: { newPassword: 'Hooks-are-long-2026!', confirmPassword: 'Hooks-are-long-2026!' },
      groups: [role.id],
    },
  });
}

describe('endpoints', () => {
  it('shows the secret once, lists and changes an endpoint, and records who did it', async () => {
    const created = await createEndpoint(northHead.token, {
      url: receiver.url,
      events: ['user.created', 'user.created', 'workflow.uploaded'],
      description: 'CRM sync',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({
      tenantId: north.tenantId,
      enabled: true,
      events: ['user.created', 'workflow.uploaded'],
    });

    const list = await t.call<WebhookEndpoint[]>('/api/webhook', { token: northHead.token });
    expect(list.body.map((endpoint) => endpoint.id)).toContain(created.id);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);

    const changed = await t.call<WebhookEndpoint>(`/api/webhook/${created.id}`, {
      method: 'PUT',
      token: northHead.token,
      json: { url: receiver.url, events: ['user.archived'], enabled: false, description: 'Paused' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ events: ['user.archived'], enabled: false, description: 'Paused' });

    const audit = await t.call<{ items: { action: string; changes: unknown[] }[] }>(
      `/api/audit?entityType=webhook&entityId=${created.id}`,
      { token: northHead.token },
    );
    expect(audit.body.items.map((record) => record.action)).toEqual(['webhook.update', 'webhook.create']);
    expect(JSON.stringify(audit.body)).not.toContain(created.secret);

    expect((await t.call(`/api/webhook/${created.id}`, { method: 'DELETE', token: northHead.token })).status).toBe(200);
    expect((await t.call(`/api/webhook/${created.id}/deliveries`, { token: northHead.token })).status).toBe(404);
  });

  it('refuses URLs that are not https, carry credentials, or name a private address', async () => {
    const refused = async (url: string) =>
      (
        await t.call<{ key: string }>('/api/webhook', {
          token: northHead.token,
          json: { url, events: ['user.created'] },
        })
      ).body.key;
    expect(await refused('ftp://example.com/hook')).toBe('ERROR_WEBHOOK_URL_INVALID');
    expect(await refused('http://example.com/hook')).toBe('ERROR_WEBHOOK_URL_INVALID');
    expect(await refused('https://user:pass@example.com/hook')).toBe('ERROR_WEBHOOK_URL_INVALID');
    expect(await refused('https://10.0.0.7/hook')).toBe('ERROR_WEBHOOK_URL_FORBIDDEN');
    expect(await refused('https://169.254.169.254/latest/meta-data')).toBe('ERROR_WEBHOOK_URL_FORBIDDEN');
    expect(await refused('https://[::ffff:192.168.1.1]/hook')).toBe('ERROR_WEBHOOK_URL_FORBIDDEN');
    expect(await refused('https://[fd00:ec2::254]/hook')).toBe('ERROR_WEBHOOK_URL_FORBIDDEN');
    expect(await refused('')).toBe('ERROR_WEBHOOK_URL_REQUIRED');
    const noEvents = await t.call<{ key: string }>('/api/webhook', {
      token: northHead.token,
      json: { url: 'https://example.com/hook', events: [] },
    });
    expect(noEvents.body.key).toBe('ERROR_WEBHOOK_EVENTS_REQUIRED');
  });

  it('without WEBHOOK_ALLOW_LOOPBACK: no loopback address, by literal or by a name that resolves to one', async () => {
    // Allowed by the demo (the embedded database), by the flag, and by nothing else.
    expect(loadConfig({}).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '0' }).webhookAllowLoopback).toBe(false);
    expect(loadConfig({ DEMO: '0' }).webhookAllowLoopback).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/x' }).webhookAllowLoopback).toBe(false);
    expect(loadConfig({ DEMO: '0', WEBHOOK_ALLOW_LOOPBACK: '1' }).webhookAllowLoopback).toBe(true);
    const strict = { allowLoopback: false };
    expect(urlProblem('http://127.0.0.1:9000/hook', strict)).toBe('ERROR_WEBHOOK_URL_INVALID');
    expect(urlProblem('https://127.0.0.1/hook', strict)).toBe('ERROR_WEBHOOK_URL_FORBIDDEN');
    expect(urlProblem('https://[::1]/hook', strict)).toBe('ERROR_WEBHOOK_URL_FORBIDDEN');
    expect(urlProblem('https://localhost/hook', strict)).toBe('ERROR_WEBHOOK_URL_FORBIDDEN');
    expect(urlProblem('https://hooks.example.com/in', strict)).toBeNull();
    // A name is resolved at each delivery, and every address it gives is checked.
    await expect(resolveAllowed(new URL('https://localhost/hook'), strict)).rejects.toMatchObject({
      key: 'ERROR_WEBHOOK_URL_FORBIDDEN',
    });
    await expect(resolveAllowed(new URL('http://localhost/hook'), { allowLoopback: true })).resolves.toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
  });

  it('refuses a user without MANAGE_WEBHOOKS and hides an endpoint from another company', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    const body = { url: receiver.url, events: ['user.created'] };
    const delivery = await t.call<WebhookDelivery>(`/api/webhook/${endpoint.id}/test`, {
      method: 'POST',
      token: northHead.token,
    });
    const endpoints: Endpoint[] = [
      { method: 'GET', path: '/api/webhook', authorities: ['MANAGE_WEBHOOKS'] },
      {
        method: 'POST',
        path: `/api/webhook/deliveries/${delivery.body.id}/redeliver`,
        authorities: ['MANAGE_WEBHOOKS'],
      },
      { method: 'POST', path: '/api/webhook', json: body, authorities: ['MANAGE_WEBHOOKS'] },
      { method: 'PUT', path: `/api/webhook/${endpoint.id}`, json: body, authorities: ['MANAGE_WEBHOOKS'] },
      { method: 'POST', path: `/api/webhook/${endpoint.id}/test`, authorities: ['MANAGE_WEBHOOKS'] },
      { method: 'GET', path: `/api/webhook/${endpoint.id}/deliveries`, authorities: ['MANAGE_WEBHOOKS'] },
      { method: 'DELETE', path: `/api/webhook/${endpoint.id}`, authorities: ['MANAGE_WEBHOOKS'] },
    ];
    await expectRefusedWithoutAuthority(t, north, endpoints);
    const southAll = await tokenWithEveryAuthority(t, south);
    await expectHiddenFromOtherTenant(t, southAll, north.tenantId, endpoints.slice(3));
    await expectHiddenFromOtherTenant(t, southAll, north.tenantId, endpoints.slice(1, 2));
    // The provider acts on the company's endpoints by naming it, and has its own without.
    const asProvider = await t.call<WebhookEndpoint[]>('/api/webhook', { token: admin, tenantId: north.tenantId });
    expect(asProvider.body.map((row) => row.id)).toContain(endpoint.id);
    const own = await t.call<WebhookEndpoint[]>('/api/webhook', { token: admin });
    expect(own.body.map((row) => row.id)).not.toContain(endpoint.id);
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });
});

describe('delivery', () => {
  it('delivers a change signed as Standard Webhooks says, verified by its own library', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    const made = await registerUser(northHead.token, 'hooked.person@north.test');
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    expect(await sender().runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const verified = new Webhook(endpoint.secret).verify(request!.body, {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: unknown };
    expect(verified.type).toBe('user.created');
    expect(new Date(verified.timestamp).toISOString()).toBe(verified.timestamp);
    expect(WEBHOOK_EVENT_DATA['user.created'].parse(verified.data)).toMatchObject({
      tenantId: north.tenantId,
      companyName: 'North Hooks',
      user: { id: made.body.id, firstName: 'Hook', lastName: 'Person', emailAddress: 'hooked.person@north.test' },
    });
    // A signature made with another secret does not pass.
    expect(() =>
      new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(request!.body, {
        'webhook-id': String(request!.headers['webhook-id']),
        'webhook-timestamp': String(request!.headers['webhook-timestamp']),
        'webhook-signature': String(request!.headers['webhook-signature']),
      }),
    ).toThrow();

    const [delivery] = await deliveries(northHead.token, endpoint.id);
    expect(delivery).toMatchObject({
      eventId: request!.headers['webhook-id'],
      eventType: 'user.created',
      status: 'succeeded',
      statusCode: 200,
      attempt: 1,
      response: 'ok',
      nextAttemptAt: null,
    });
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });

  it('writes no event for a change that fails, and none for a company nobody listens to', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    const count = async () =>
      (await selectRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from webhook_events`))[0]!.n;
    const before = await count();
    expect((await registerUser(northHead.token, 'once@north.test')).status).toBe(200);
    expect((await registerUser(northHead.token, 'once@north.test')).status).toBe(409);
    expect(await count()).toBe(before + 1);
    const southHead = await signInCompanyHead(t, south);
    const role = await createRole(t.database.db, south, ['VIEW_USER']);
    const other = await t.call('/api/user/register', {
      token: southHead.token,
      json: {
        firstName: 'Quiet',
        lastName: 'Person',
        emailAddress: 'quiet@south.test',
        credential: { newPassword: 'Hooks-are-long-2026!', confirmPassword: 'Hooks-are-long-2026!' },
        groups: [role.id],
      },
    });
    expect(other.status).toBe(200);
    expect(await count()).toBe(before + 1);
    await sender().runOnce();
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });

  it('tries again after 5 s when the receiver fails, and stops at its first 2xx', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    receiver.answerWith(() => ({ status: 500, body: 'down for maintenance' }));
    await registerUser(northHead.token, 'retry@north.test');
    let now = Date.now();
    const clockSender = sender({ now: () => now });
    expect(await clockSender.runOnce()).toBe(1);
    let [delivery] = await deliveries(northHead.token, endpoint.id);
    expect(delivery).toMatchObject({
      status: 'pending',
      statusCode: 500,
      attempt: 1,
      response: 'down for maintenance',
    });
    expect(delivery!.nextAttemptAt! - delivery!.lastAttemptAt!).toBe(5_000);

    // Not yet due: nothing is sent.
    now += 4_000;
    expect(await clockSender.runOnce()).toBe(0);
    receiver.answerWith(() => ({ status: 204 }));
    now += 1_000;
    expect(await clockSender.runOnce()).toBe(1);
    [delivery] = await deliveries(northHead.token, endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', statusCode: 204, attempt: 2, nextAttemptAt: null });
    // Both attempts carried the same webhook-id.
    expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(1);
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });

  it('sends the backlog at once when a receiver that was down answers again', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    receiver.answerWith(() => ({ status: 503 }));
    await registerUser(northHead.token, 'backlog.one@north.test');
    await registerUser(northHead.token, 'backlog.two@north.test');
    let now = Date.now();
    const clockSender = sender({ now: () => now });
    expect(await clockSender.runOnce()).toBe(2);
    // One of them deep in its backoff (as after an hour down): its next attempt two hours away.
    const [newest, oldest] = await deliveries(northHead.token, endpoint.id);
    await t.database.db.execute(
      sql`update webhook_deliveries set next_attempt_at = ${now + 7_200_000}, last_attempt_at = ${now - 3_600_000} where id = ${oldest!.id}`,
    );
    receiver.answerWith(() => ({ status: 200 }));
    now += 5_000;
    expect(await clockSender.runOnce()).toBe(1);
    expect(await clockSender.runOnce()).toBe(1);
    const after = await deliveries(northHead.token, endpoint.id);
    expect(after.map((delivery) => [delivery.id, delivery.status])).toEqual([
      [newest!.id, 'succeeded'],
      [oldest!.id, 'succeeded'],
    ]);
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    receiver.answerWith(() => ({ status: 410, body: 'gone' }));
    await registerUser(northHead.token, 'gone@north.test');
    await sender().runOnce();
    const [row] = (await t.call<WebhookEndpoint[]>('/api/webhook', { token: northHead.token })).body.filter(
      (entry) => entry.id === endpoint.id,
    );
    expect(row).toMatchObject({ enabled: false, disabledReason: 'gone' });
    const [delivery] = await deliveries(northHead.token, endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', statusCode: 410, nextAttemptAt: null });
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });

  it('gives up after three days of failures, disables the endpoint and mails the company head', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    receiver.answerWith(() => ({ status: 503 }));
    await registerUser(northHead.token, 'three.days@north.test');
    let now = Date.now();
    const clockSender = sender({ now: () => now });
    const waits: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      if ((await clockSender.runOnce()) === 0) break;
      const [delivery] = await deliveries(northHead.token, endpoint.id);
      if (delivery!.nextAttemptAt === null) break;
      waits.push(delivery!.nextAttemptAt - delivery!.lastAttemptAt!);
      now = delivery!.nextAttemptAt;
    }
    // About 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then daily, up to three days after the first.
    expect(waits.slice(0, 7)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000]);
    const [delivery] = await deliveries(northHead.token, endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', statusCode: 503, nextAttemptAt: null });
    const [row] = (await t.call<WebhookEndpoint[]>('/api/webhook', { token: northHead.token })).body.filter(
      (entry) => entry.id === endpoint.id,
    );
    expect(row).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const mail = await waitForMail(t, northHead.email);
    expect(mail).toContain('disabled');
    expect(mail).toContain('127.0.0.1');
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });

  it('follows no redirect, and refuses a loopback receiver where the installation does not allow one', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    receiver.answerWith(() => ({ status: 302, headers: { location: 'http://169.254.169.254/latest' } }));
    await registerUser(northHead.token, 'redirected@north.test');
    await sender().runOnce();
    expect(receiver.received).toHaveLength(1);
    let [delivery] = await deliveries(northHead.token, endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', statusCode: 302 });
    expect(delivery!.response).toContain('not followed');

    // The same endpoint, sent by an instance without WEBHOOK_ALLOW_LOOPBACK: refused before connecting.
    await t.database.db.execute(sql`update webhook_deliveries set next_attempt_at = 0 where id = ${delivery!.id}`);
    receiver.received.length = 0;
    await sender({ allowLoopback: false }).runOnce();
    expect(receiver.received).toHaveLength(0);
    [delivery] = await deliveries(northHead.token, endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', statusCode: null, attempt: 2 });
    expect(delivery!.response).toMatch(/^refused/);
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });

  it('sends a test event, and a delivery again with the same webhook-id', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.archived'] });
    const test = await t.call<WebhookDelivery>(`/api/webhook/${endpoint.id}/test`, {
      method: 'POST',
      token: northHead.token,
    });
    expect(test.status).toBe(201);
    expect(test.body).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempt: 0 });
    await sender().runOnce();
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      type: 'webhook.test',
      data: { endpointId: endpoint.id },
    });

    const again = await t.call<WebhookDelivery>(`/api/webhook/deliveries/${test.body.id}/redeliver`, {
      method: 'POST',
      token: northHead.token,
    });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(test.body.id);
    await sender().runOnce();
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([
      test.body.eventId,
      test.body.eventId,
    ]);
    const southAll = await tokenWithEveryAuthority(t, south);
    expect(
      (await t.call(`/api/webhook/deliveries/${test.body.id}/redeliver`, { method: 'POST', token: southAll })).status,
    ).toBe(404);
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });

  it('never sends one delivery twice at once from two senders sharing the outbox', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.archived'] });
    // Thirty at once: each answers its own delivery.
    const tests = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.call<WebhookDelivery>(`/api/webhook/${endpoint.id}/test`, { method: 'POST', token: northHead.token }),
      ),
    );
    expect(tests.map((test) => test.status)).toEqual(Array(30).fill(201));
    expect(new Set(tests.map((test) => test.body.eventId)).size).toBe(30);
    const [a, b] = [sender(), sender()];
    const [sentByA, sentByB] = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(sentByA + sentByB).toBe(30);
    const ids = receiver.received.map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
  });
});

describe('the outbox', () => {
  it('hears of endpoints made and deleted at once, and never fails a change on one it has not heard of', async () => {
    const count = async () =>
      (await selectRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from webhook_deliveries`))[0]!.n;
    expect((await registerUser(northHead.token, 'before.any@north.test')).status).toBe(200);
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    const before = await count();
    expect((await registerUser(northHead.token, 'heard@north.test')).status).toBe(200);
    expect(await count()).toBe(before + 1);
    await t.call(`/api/webhook/${endpoint.id}`, { method: 'DELETE', token: northHead.token });
    expect((await registerUser(northHead.token, 'unheard@north.test')).status).toBe(200);
    expect(await count()).toBe(0);
    // An endpoint gone behind the cache's back (as on another instance before its event arrives).
    const other = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    expect((await registerUser(northHead.token, 'cached@north.test')).status).toBe(200);
    await t.database.db.execute(sql`delete from webhook_endpoints where id = ${other.id}`);
    expect((await registerUser(northHead.token, 'stale@north.test')).status).toBe(200);
    expect(await count()).toBe(0);
  });

  it('takes an event and its delivery back with the change that wrote them, and writes a named event once', async () => {
    await createEndpoint(northHead.token, { url: receiver.url, events: ['user.archived'] });
    const { unit, webhooks } = t.app.services;
    // Through the unit's handle: inside a unit, its transaction.
    const counts = async () =>
      (
        await selectRows<{ events: number; deliveries: number }>(
          unit.db,
          sql`select (select count(*)::int from webhook_events) as events,
            (select count(*)::int from webhook_deliveries) as deliveries`,
        )
      )[0]!;
    const before = await counts();
    const data = { user: { id: 1, firstName: 'Rolled', lastName: 'Back', emailAddress: 'rolled.back@north.test' } };
    await expect(
      unit.run(async () => {
        await webhooks.outbox.emit('user.archived', north.tenantId, data);
        expect(await counts()).toEqual({ events: before.events + 1, deliveries: before.deliveries + 1 });
        throw new Error('the change fails after its event');
      }),
    ).rejects.toThrow('the change fails after its event');
    expect(await counts()).toEqual(before);
    // Named after its cause and told twice (a run's report sent again): one event, one delivery.
    const named: OutboxEvent = { type: 'user.archived', tenantId: north.tenantId, data, id: `msg_named_${Date.now()}` };
    await unit.run(() => webhooks.outbox.emitAll([named]));
    await unit.run(() => webhooks.outbox.emitAll([named]));
    expect(await counts()).toEqual({ events: before.events + 1, deliveries: before.deliveries + 1 });
  });

  it('keeps events and their deliveries 30 days', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['user.created'] });
    await registerUser(northHead.token, 'kept@north.test');
    await registerUser(northHead.token, 'old@north.test');
    const [, old] = await deliveries(northHead.token, endpoint.id);
    await t.database.db.execute(
      sql`update webhook_events set at = ${Date.now() - 31 * 86_400_000} where id = ${old!.eventId}`,
    );
    await sender().prune();
    expect((await deliveries(northHead.token, endpoint.id)).map((delivery) => delivery.eventId)).not.toContain(
      old!.eventId,
    );
    expect(await deliveries(northHead.token, endpoint.id)).toHaveLength(1);
  });
});

describe('events', () => {
  it('tells a licence near its expiry once per window, and its expiry, from every instance once', async () => {
    await createEndpoint(northHead.token, { url: receiver.url, events: ['license.expiring', 'license.expired'] });
    const now = Date.now();
    const licence = async (label: string, expirationDate: number) => {
      const [row] = await t.database.db
        .insert(licenses)
        .values({
          companyId: north.id,
          tenantId: north.tenantId,
          typeKey: 'pro',
          label,
          issueDate: now - 300 * DAY,
          expirationDate,
          maxAccounts: 1,
        })
        .returning({ id: licenses.id });
      return row!.id;
    };
    const inFiveDays = await licence('In five days', now + 5 * DAY);
    const yesterday = await licence('Yesterday', now - DAY);
    await licence('Long ago', now - 10 * DAY);
    await licence('Next quarter', now + 90 * DAY);

    const due = await licenseExpiryEvents(t.database.db, now);
    expect(due.map((event) => [event.type, (event.data as { license: { id: number } }).license.id])).toEqual(
      expect.arrayContaining([
        ['license.expiring', inFiveDays],
        ['license.expired', yesterday],
      ]),
    );
    // Two instances looking at once, and a later look: each told once.
    const outbox = t.app.services.webhooks.outbox;
    await Promise.all([outbox.emitAll(due), outbox.emitAll(due)]);
    await outbox.emitAll(await licenseExpiryEvents(t.database.db, now + 60_000));
    await sender().runOnce();
    const bodies = receiver.received.map(
      (request) => JSON.parse(request.body) as { type: WebhookEventType; data: unknown },
    );
    expect(bodies).toHaveLength(2);
    for (const body of bodies) WEBHOOK_EVENT_DATA[body.type].parse(body.data);
    expect(bodies.find((body) => body.type === 'license.expiring')).toMatchObject({
      data: { license: { id: inFiveDays, label: 'In five days' }, daysLeft: 7, companyName: 'North Hooks' },
    });
    expect(expiryWindow(29 * DAY)).toBe(30);
    expect(expiryWindow(12 * 3_600_000)).toBe(1);
    expect(expiryWindow(31 * DAY)).toBeNull();
    expect(expiryWindow(-8 * DAY)).toBeNull();
    await t.database.db.delete(licenses).where(eq(licenses.companyId, north.id));
  });

  it("tells a provider-wide endpoint every company's events, each with the payload its schema documents", async () => {
    const everything = await createEndpoint(admin, { url: receiver.url, events: [...WEBHOOK_EVENT_TYPES] });
    expect(everything.tenantId).toBeNull();
    const { tenant, newKey } = liveTenants(
      () => t,
      () => admin,
    );
    const live = await tenant('Eventful Hooks');
    const headToken = (await signInCompanyHead(t, live.company)).token;
    // A smaller licence: the key that takes the ninth of ten seats is 'nearly full'.
    await t.call('/api/license/company/update', {
      token: admin,
      json: {
        companyId: live.company.id,
        licenseId: live.license.id,
        expirationDate: live.license.expirationDate,
        maxAccounts: 10,
      },
    });
    const keys = [];
    for (let k = 0; k < 9; k += 1) keys.push(await newKey(live));

    const mac = newMac();
    const agent = await connectPeer(t.baseUrl, agentHeaders(keys[0]!.key, mac));
    await agent.close();

    const ingest = createExecutionLogsService({ db: t.database.db, outbox: t.app.services.webhooks.outbox });
    const executing = {
      accountId: keys[0]!.id,
      tenantId: live.company.tenantId,
      macAddress: mac,
      hostname: 'hook-host',
    };
    const run = { workflowId: live.workflow.id, start: Date.now() - 60_000, end: Date.now() };
    const finished = reportOf(run);
    const faulted = reportOf({ ...run, status: 'faulted', errorMessage: 'Selector not found' });
    await ingest.record(executing, finished);
    await ingest.record(executing, faulted);
    // A report sent again (its answer lost) writes no second event.
    await ingest.record(executing, finished);

    await t.call('/api/account/invalidate', {
      token: admin,
      json: { company: live.company.id, license: live.license.id, account: keys[1]!.id },
    });
    await t.call('/api/license/company/invalidate', {
      token: admin,
      json: { companyId: live.company.id, licenseId: live.license.id },
    });
    const role = await createRole(t.database.db, live.company, ['VIEW_USER']);
    const user = await t.call<{ id: number }>('/api/user/register', {
      token: headToken,
      json: {
        firstName: 'Event',
        lastName: 'Person',
        emailAddress: 'event.person@eventful.test',
        credential: { newPassword: 'Hooks-are-long-2026!', confirmPassword: 'Hooks-are-long-2026!' },
        groups: [role.id],
      },
    });
    await t.call(`/api/user/archive/${user.body.id}`, { method: 'DELETE', token: headToken });
    const deleted = await t.call(`/api/workflow/delete/${live.workflow.id}`, {
      token: headToken,
      form: { directory: 'Workflows' },
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

    // The agent's departure is told when its socket closes on the server.
    await expect
      .poll(async () => {
        await sender().runOnce();
        return receiver.received.map((request) => JSON.parse(request.body).type as string);
      })
      .toContain('agent.disconnected');
    const bodies = receiver.received.map(
      (request) => JSON.parse(request.body) as { type: WebhookEventType; data: unknown },
    );
    const told = new Set(bodies.map((body) => body.type));
    for (const type of [
      'workflow.uploaded',
      'account.generated',
      'seats.nearly_full',
      'agent.connected',
      'agent.disconnected',
      'execution.finished',
      'execution.faulted',
      'account.invalidated',
      'license.invalidated',
      'user.created',
      'user.archived',
      'workflow.deleted',
    ] as const) {
      expect(told, type).toContain(type);
    }
    for (const body of bodies) {
      const data = WEBHOOK_EVENT_DATA[body.type].parse(body.data) as {
        tenantId: string | null;
        companyName: string | null;
      };
      expect(data, body.type).toMatchObject({ tenantId: live.company.tenantId, companyName: 'Eventful Hooks' });
    }
    expect(bodies.filter((body) => body.type === 'account.generated')).toHaveLength(9);
    expect(bodies.filter((body) => body.type === 'seats.nearly_full')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ used: 9, seats: 10, percent: 90 }) }),
    ]);
    expect(bodies.filter((body) => body.type === 'execution.finished')).toHaveLength(1);
    expect(bodies.find((body) => body.type === 'execution.faulted')).toMatchObject({
      data: { execution: { id: faulted.id, status: 'faulted', error: 'Selector not found' } },
    });
    expect(bodies.find((body) => body.type === 'agent.connected')).toMatchObject({
      data: { agent: { accountId: keys[0]!.id, partialKey: keys[0]!.partialKey } },
    });
  });

  it('tells every workflow a directory deletion takes, in its transaction, once each', async () => {
    const endpoint = await createEndpoint(northHead.token, { url: receiver.url, events: ['workflow.deleted'] });
    const ok = async (path: string, json: Record<string, unknown>) => {
      const result = await t.call(path, { token: northHead.token, json });
      expect(result.status, `${path} ${JSON.stringify(result.body)}`).toBeLessThan(300);
      return result.body;
    };
    await ok('/api/directory/create', { name: 'Going', parent: 'Workflows' });
    await ok('/api/directory/create', { name: 'Below', parent: 'Workflows/Going' });
    const made = [];
    for (const [directory, file] of [
      ['Workflows/Going', 'first.rax'],
      ['Workflows/Going/Below', 'second.rax'],
      ['Workflows', 'loose.rax'],
      ['Workflows', 'kept.rax'],
    ] as const) {
      const upload = await uploadWorkflow(t, northHead.token, directory, file);
      expect(upload.status, JSON.stringify(upload.body)).toBe(201);
      made.push(upload.body);
    }
    const [first, second, loose] = made;

    // One directory (with the one below it) and one loose workflow, in one call.
    expect(
      await ok('/api/directory/delete/multiple', { directory: 'Workflows', files: ['Going', 'loose.rax'] }),
    ).toEqual({ directories: 2, workflows: 3 });
    await sender().runOnce();
    const told = receiver.received.map((request) => JSON.parse(request.body) as { type: string; data: unknown });
    expect(told.every((body) => body.type === 'workflow.deleted')).toBe(true);
    expect(told.map((body) => WEBHOOK_EVENT_DATA['workflow.deleted'].parse(body.data).workflow)).toEqual(
      expect.arrayContaining(
        [first!, second!, loose!].map((workflow) => ({
          id: workflow.id,
          name: workflow.name,
          fileName: workflow.file,
        })),
      ),
    );
    expect(told).toHaveLength(3);
    expect(await deliveries(northHead.token, endpoint.id)).toHaveLength(3);
  });

  it("tells the provider's endpoints of a solo account made and archived", async () => {
    const provider = await createEndpoint(admin, {
      url: receiver.url,
      events: ['account.generated', 'account.invalidated', 'license.invalidated'],
    });
    const form = new FormData();
    form.set('licenseType', 'pro');
    const file = registrationFileText({
      fullName: 'Solo Hooks',
      emailAddress: 'solo.hooks@example.test',
      macAddresses: ['AA:BB:CC:00:0E:01'],
    });
    form.set('regFile', new Blob([file]), 'machine.dat');
    const solo = await t.call<GeneratedAccount>('/api/account/solo', { token: admin, multipart: form });
    expect(solo.status, JSON.stringify(solo.body)).toBe(201);
    const archived = await t.call('/api/license/solo/invalidate', {
      token: admin,
      json: { licenseId: solo.body.license.id },
    });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);

    await sender().runOnce();
    const bodies = receiver.received.map(
      (request) => JSON.parse(request.body) as { type: WebhookEventType; data: unknown },
    );
    const account = { id: solo.body.id, partialKey: solo.body.partialKey, licenseId: solo.body.license.id };
    const tenant = { tenantId: null, companyName: null };
    expect(bodies.map((body) => [body.type, WEBHOOK_EVENT_DATA[body.type].parse(body.data)])).toEqual([
      ['account.generated', { ...tenant, account }],
      ['license.invalidated', { ...tenant, license: expect.objectContaining({ id: solo.body.license.id }) }],
      ['account.invalidated', { ...tenant, account }],
    ]);
    expect(await deliveries(admin, provider.id)).toHaveLength(3);
  });
});
