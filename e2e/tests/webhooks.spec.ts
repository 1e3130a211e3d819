import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { DEMO_PASSWORD, signIn, signInByToken, USERS } from './support';

const APP_KEY = { 'X-App-Key': 'opsdeck-console' };

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 (the e2e server allows loopback endpoints): answers 200 and keeps each request. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/opsdeck-hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The sender's kept-alive connections would hold the close.
        server.closeAllConnections();
      }),
  };
}

/** The Standard Webhooks headers of a request, as `Webhook.verify` takes them. */
const signatureHeaders = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

/**
 * Webhooks (docs/webhooks.md) as the company head: an endpoint made on the webhooks page, its
 * signing secret shown once, a test event sent from its delivery log and received signed, a
 * redelivery of it, and the endpoint deleted.
 */
test('adding an endpoint, sending it a signed test event, redelivering it and deleting it', async ({ page }) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, USERS.companyHead.email);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page).toHaveURL(/\/dashboard\/management\/webhooks$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expectAccessible(page, 'Webhooks');

    // The form: URL, description, events (a group, then all of them) and enabled.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await form.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url);
    await form.getByRole('textbox', { name: 'Description' }).fill('E2E receiver');
    await form.getByRole('checkbox', { name: 'Runs' }).check();
    await expect(form.getByRole('checkbox', { name: /^Run faulted/ })).toBeChecked();
    await form.getByRole('checkbox', { name: 'Select all events' }).check();
    await expect(form.getByRole('checkbox', { name: /^User archived/ })).toBeChecked();
    await expect(form.getByRole('switch', { name: /Enabled/ })).toBeChecked();
    await expectAccessible(page, 'Webhooks: add endpoint', '.mantine-Modal-content');
    await form.getByRole('button', { name: 'Add', exact: true }).click();

    // The secret, this once.
    const shown = page.getByRole('dialog', { name: 'The endpoint’s signing secret' });
    await expect(shown.getByText(/shown only this once/)).toBeVisible();
    const secret = await shown.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await expectAccessible(page, 'Webhooks: the secret', '.mantine-Modal-content');
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);

    const row = page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('row')
      .filter({ hasText: receiver.url });
    await expect(row).toContainText('15 events');
    await expect(row).toContainText('Enabled');

    // A test event from the delivery log: sent within a second or so, and shown succeeded without a reload.
    await row.getByRole('button', { name: `Deliveries of ${receiver.url}` }).click();
    const log = page.getByRole('dialog', { name: `Deliveries of ${receiver.url}` });
    const deliveries = log.getByRole('table', { name: 'Webhook deliveries' });
    await expect(deliveries).toContainText('Nothing has been sent to this endpoint yet.');
    await log.getByRole('button', { name: 'Send test event' }).click();
    const first = deliveries.getByRole('row').filter({ hasText: 'webhook.test' });
    await expect(first).toHaveCount(1);
    await expect(first).toContainText('Succeeded', { timeout: 15_000 });
    await expect(first).toContainText('200');

    // What the receiver got: a POST signed as Standard Webhooks says, with the test event's body.
    await expect.poll(() => receiver.received.length).toBe(1);
    const [request] = receiver.received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/opsdeck-hook');
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(request?.headers[name], name).toBeTruthy();
    const payload = new Webhook(secret).verify(request?.body ?? '', signatureHeaders(request?.headers ?? {})) as {
      type: string;
      data: { endpointId: number };
    };
    expect(payload.type).toBe('webhook.test');
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ type: 'webhook.test' });
    // Signed with another secret, it is refused.
    expect(() =>
      new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(
        request?.body ?? '',
        signatureHeaders(request?.headers ?? {}),
      ),
    ).toThrow();

    // The row's response: the receiver's answer.
    await first.click();
    await expect(log.getByRole('region', { name: /^Response to webhook\.test/ })).toContainText('{"received":true}');
    await expectAccessible(page, 'Webhooks: delivery log', '.mantine-Modal-content');

    // A redelivery: a second delivery of the same event (the same webhook-id), also received.
    await first.getByRole('button', { name: 'Redeliver' }).click();
    const rows = deliveries.getByRole('row').filter({ hasText: 'webhook.test' });
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Succeeded', { timeout: 15_000 });
    await expect(rows.nth(1)).toContainText('Succeeded');
    await expect.poll(() => receiver.received.length).toBe(2);
    const [, again] = receiver.received;
    expect(again?.headers['webhook-id']).toBe(request?.headers['webhook-id']);
    expect(
      (new Webhook(secret).verify(again?.body ?? '', signatureHeaders(again?.headers ?? {})) as { type: string }).type,
    ).toBe('webhook.test');

    await log.getByRole('button', { name: 'Close' }).click();
    await expect(log).toHaveCount(0);

    // Deleted, with its log.
    await row.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete webhook endpoint' });
    await expect(confirm).toContainText('and its delivery log');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(row).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

/** A signed-in user's API headers. */
async function apiAs(request: APIRequestContext, email: string) {
  const login = await request.post('/api/login', {
    headers: APP_KEY,
    data: { username: email, password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
  return { ...APP_KEY, 'X-Auth-Token': ((await login.json()) as { token: string }).token };
}

test("the provider manages a company's endpoints on its company page, in that company", async ({ page, request }) => {
  const admin = await apiAs(request, USERS.admin.email);
  const companies = (await (await request.get('/api/company', { headers: admin })).json()) as {
    id: number;
    name: string;
  }[];
  const northwind = companies.find((company) => company.name === USERS.companyHead.company);
  expect(northwind).toBeDefined();
  const url = `http://127.0.0.1:9/provider-${Date.now().toString(36)}`;
  const urls = async (headers: Record<string, string>) =>
    ((await (await request.get('/api/webhook', { headers })).json()) as { url: string }[]).map((row) => row.url);

  await signInByToken(page, USERS.admin.email);
  await page.goto(`/dashboard/license/companies/${northwind?.id}`);
  const section = page.getByRole('region', { name: 'Webhooks' });
  await section.getByRole('button', { name: 'Add endpoint' }).click();
  const form = page.getByRole('dialog', { name: 'Add webhook endpoint' });
  await form.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
  await form.getByRole('checkbox', { name: 'Users' }).check();
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  const shown = page.getByRole('dialog', { name: 'The endpoint’s signing secret' });
  await shown.getByRole('button', { name: 'Done' }).click();
  const row = section.getByRole('table', { name: 'Webhook endpoints' }).getByRole('row').filter({ hasText: url });
  await expect(row).toContainText('2 events');
  await expectAccessible(page, 'Company page with its webhooks');

  // Made in Northwind: its head sees it, and it is not one of the provider's own endpoints.
  expect(await urls(await apiAs(request, USERS.companyHead.email))).toContain(url);
  expect(await urls(admin)).not.toContain(url);

  await row.getByRole('button', { name: `Delete ${url}` }).click();
  await page.getByRole('dialog', { name: 'Delete webhook endpoint' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  expect(await urls(await apiAs(request, USERS.companyHead.email))).not.toContain(url);
});
