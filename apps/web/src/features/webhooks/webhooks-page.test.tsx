import {
  type CreatedWebhookEndpoint,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@opsdeck/contract/webhooks';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildCompany, signedIn } from '../../test/builders';
import { errorBody } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { WEBHOOK_EVENT_GROUPS } from './webhook-events';

const PAGE = '/dashboard/management/webhooks';
const DAY = 86_400_000;

const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 1,
  tenantId: 'tenant-acme',
  url: 'https://hooks.acme.test/opsdeck',
  description: 'Ops chat',
  events: ['execution.faulted', 'agent.disconnected'],
  enabled: true,
  disabledReason: null,
  createdAt: Date.now() - 10 * DAY,
  updatedAt: Date.now() - DAY,
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 1,
  eventId: 'msg_1',
  eventType: 'execution.faulted',
  attempt: 1,
  status: 'succeeded',
  statusCode: 200,
  durationMs: 42,
  at: Date.now() - 60_000,
  lastAttemptAt: Date.now() - 59_000,
  nextAttemptAt: null,
  response: '{"ok":true}',
  ...overrides,
});

const page = (items: WebhookDelivery[]) => ({ items, total: items.length, page: 1, size: 10 });

async function openPage() {
  const user = userEvent.setup();
  renderApp(PAGE);
  const table = await screen.findByRole('table', { name: 'Webhook endpoints' }, { timeout: 15_000 });
  return { user, table };
}

describe('webhook event groups', () => {
  it('offer every event type of the catalogue exactly once', () => {
    const grouped = WEBHOOK_EVENT_GROUPS.flatMap((group) => [...group.events]);
    expect([...grouped].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });
});

describe('webhooks page', { timeout: 40_000 }, () => {
  it('lists the endpoints with their events and state, a disabled one saying why', async () => {
    signedIn(['MANAGE_WEBHOOKS'], {
      'GET /api/webhook': () => ({
        body: [
          endpoint(),
          endpoint({
            id: 2,
            url: 'https://old.acme.test/hook',
            events: ['user.created'],
            enabled: false,
            disabledReason: 'gone',
          }),
        ],
      }),
    });
    const { table } = await openPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeTruthy();
    const first = (await within(table).findByText('https://hooks.acme.test/opsdeck')).closest('tr') as HTMLElement;
    expect(within(first).getByText('2 events')).toBeTruthy();
    expect(within(first).getByText('Enabled')).toBeTruthy();
    const second = within(table).getByText('https://old.acme.test/hook').closest('tr') as HTMLElement;
    expect(within(second).getByText('User created')).toBeTruthy();
    expect(within(second).getByText('Disabled')).toBeTruthy();
    expect(within(second).getByText('The receiver answered 410 Gone')).toBeTruthy();
  });

  it('links each endpoint to its audit history for a viewer with VIEW_AUDIT_LOG', async () => {
    signedIn(['MANAGE_WEBHOOKS', 'VIEW_AUDIT_LOG'], { 'GET /api/webhook': () => ({ body: [endpoint({ id: 7 })] }) });
    const { table } = await openPage();
    const link = await within(table).findByRole('link', { name: 'History of https://hooks.acme.test/opsdeck' });
    expect(link.getAttribute('href')).toBe('/dashboard/management/audit?entityType=webhook&entityId=7');
  });

  it('offers no history link without VIEW_AUDIT_LOG', async () => {
    signedIn(['MANAGE_WEBHOOKS'], { 'GET /api/webhook': () => ({ body: [endpoint()] }) });
    const { table } = await openPage();
    await within(table).findByText('https://hooks.acme.test/opsdeck');
    expect(within(table).queryByRole('link', { name: /^History of/ })).toBeNull();
  });

  it('creates an endpoint with the events chosen and shows its secret once', async () => {
    const created: CreatedWebhookEndpoint = {
      ...endpoint({ id: 3, url: 'https://new.acme.test/hook', description: '' }),
      events: [...WEBHOOK_EVENT_TYPES],
      secret: 'whsec_c2VjcmV0LXZhbHVlLW9mLXRoaXJ0eS10d28tYnl0ZXM=',
    };
    let list: WebhookEndpoint[] = [];
    const { calls } = signedIn(['MANAGE_WEBHOOKS'], {
      'GET /api/webhook': () => ({ body: list }),
      'POST /api/webhook': () => {
        const { secret: _secret, ...row } = created;
        list = [row];
        return { status: 201, body: created };
      },
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    // A new endpoint is enabled, with no event chosen yet.
    expect((within(dialog).getByRole('switch', { name: /Enabled/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Endpoint URL is required.')).toBeTruthy();
    expect(within(dialog).getByText('Choose at least one event.')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }), 'https://new.acme.test/hook');
    // A group's box ticks its events; 'Select all events' ticks the rest.
    await user.click(within(dialog).getByRole('checkbox', { name: 'Runs' }));
    expect((within(dialog).getByRole('checkbox', { name: /Run faulted/ }) as HTMLInputElement).checked).toBe(true);
    const all = within(dialog).getByRole('checkbox', { name: 'Select all events' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(true);
    await user.click(all);
    expect(all.checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    const shown = await screen.findByRole('dialog', { name: 'The endpoint’s signing secret' });
    expect((within(shown).getByRole('textbox', { name: 'Signing secret' }) as HTMLInputElement).value).toBe(
      created.secret,
    );
    const post = calls.find((call) => call.method === 'POST' && call.url === '/api/webhook');
    expect(post?.body).toEqual({
      url: 'https://new.acme.test/hook',
      description: '',
      events: [...WEBHOOK_EVENT_TYPES],
      enabled: true,
    });
    // A company user's calls name no tenant: the server takes their own company.
    expect(post?.headers.get('X-Tenant-Id')).toBeNull();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue(created.secret)).toBeNull();
    expect(await screen.findByText('https://new.acme.test/hook')).toBeTruthy();
  });

  it('shows the server’s refusal of the URL on the URL field, keeping the dialog open', async () => {
    signedIn(['MANAGE_WEBHOOKS'], {
      'GET /api/webhook': () => ({ body: [] }),
      'POST /api/webhook': () => ({
        status: 400,
        body: errorBody('ERROR_WEBHOOK_URL_FORBIDDEN', 'no', { url: 'ERROR_WEBHOOK_URL_FORBIDDEN' }),
      }),
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    const url = within(dialog).getByRole('textbox', { name: /Endpoint URL/ });
    await user.type(url, 'https://10.0.0.5/hook');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Select all events' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const message = await within(dialog).findByText(
      'Endpoint URL points to a private, loopback, link-local or metadata address.',
    );
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(url.getAttribute('aria-describedby')).toContain(message.id);
  });

  it('edits a disabled endpoint: says why, and enables it again', async () => {
    const gone = endpoint({ enabled: false, disabledReason: 'failing' });
    const { calls } = signedIn(['MANAGE_WEBHOOKS'], {
      'GET /api/webhook': () => ({ body: [gone] }),
      'PUT /api/webhook/1': (call) => ({ body: { ...gone, ...(call.body as object), disabledReason: null } }),
    });
    const { user, table } = await openPage();
    await user.click(await within(table).findByRole('button', { name: `Edit ${gone.url}` }));
    const dialog = await screen.findByRole('dialog', { name: `Edit endpoint ${gone.url}` });
    expect(within(dialog).getByText(/its deliveries failed for three days/)).toBeTruthy();
    const enabled = within(dialog).getByRole('switch', { name: /Enabled/ }) as HTMLInputElement;
    expect(enabled.checked).toBe(false);
    await user.click(enabled);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      url: gone.url,
      description: gone.description,
      events: ['execution.faulted', 'agent.disconnected'],
      enabled: true,
    });
  });

  it('shows the delivery log with each status, a response on click, a test event and a redelivery', async () => {
    let deliveries = [
      delivery({ id: 3, status: 'pending', statusCode: 503, attempt: 2, nextAttemptAt: Date.now() + 300_000 }),
      delivery({ id: 2, status: 'failed', statusCode: null, durationMs: null, response: 'connection refused' }),
      delivery({ id: 1 }),
    ];
    const { calls } = signedIn(['MANAGE_WEBHOOKS'], {
      'GET /api/webhook': () => ({ body: [endpoint()] }),
      'GET /api/webhook/1/deliveries': () => ({ body: page(deliveries) }),
      'POST /api/webhook/1/test': () => {
        const test = delivery({ id: 4, eventType: 'webhook.test', status: 'pending', attempt: 0, response: null });
        deliveries = [test, ...deliveries];
        return { status: 201, body: test };
      },
      'POST /api/webhook/deliveries/1/redeliver': () => ({ status: 201, body: delivery({ id: 5, attempt: 0 }) }),
    });
    const { user, table } = await openPage();
    await user.click(
      await within(table).findByRole('button', { name: 'Deliveries of https://hooks.acme.test/opsdeck' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Deliveries of https://hooks.acme.test/opsdeck' });
    const log = await within(dialog).findByRole('table', { name: 'Webhook deliveries' });
    await within(log).findByText('Pending');
    const rows = within(log).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-delivery-status'))).toEqual(['pending', 'failed', 'succeeded']);
    expect(within(rows[0] as HTMLElement).getByText('503')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('Failed')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('Succeeded')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('42 ms')).toBeTruthy();
    expect(calls.some((call) => call.url === '/api/webhook/1/deliveries?page=1&size=10')).toBe(true);

    // A row shows its response; a second click hides it.
    await user.click(rows[1] as HTMLElement);
    expect(await within(dialog).findByText('connection refused')).toBeTruthy();
    expect(rows[1]?.getAttribute('data-shown')).toBe('true');
    await user.click(rows[1] as HTMLElement);
    await waitFor(() => expect(within(dialog).queryByText('connection refused')).toBeNull());

    await user.click(within(rows[2] as HTMLElement).getByRole('button', { name: 'Redeliver' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'POST' && call.url === '/api/webhook/deliveries/1/redeliver')).toBe(
        true,
      ),
    );
    // The button's click is not the row's: no response panel opened.
    expect(within(dialog).queryByText('{"ok":true}')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Send test event' }));
    expect(await within(log).findByText('webhook.test')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST' && call.url === '/api/webhook/1/test')).toBe(true);
  });

  it('offers no test event to a disabled endpoint', async () => {
    signedIn(['MANAGE_WEBHOOKS'], {
      'GET /api/webhook': () => ({ body: [endpoint({ enabled: false })] }),
      'GET /api/webhook/1/deliveries': () => ({ body: page([]) }),
    });
    const { user, table } = await openPage();
    await user.click(await within(table).findByRole('button', { name: /^Deliveries of/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Deliveries of/ });
    expect(await within(dialog).findByText('Nothing has been sent to this endpoint yet.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Send test event' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByText(/enable it to send it a test event/)).toBeTruthy();
  });

  it('deletes an endpoint through the confirm dialog', async () => {
    let list = [endpoint()];
    const { calls } = signedIn(['MANAGE_WEBHOOKS'], {
      'GET /api/webhook': () => ({ body: list }),
      'DELETE /api/webhook/1': () => {
        list = [];
        return { body: { ok: true } };
      },
    });
    const { user, table } = await openPage();
    await user.click(await within(table).findByRole('button', { name: 'Delete https://hooks.acme.test/opsdeck' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook endpoint' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    expect(await within(table).findByText('No endpoints yet.')).toBeTruthy();
  });

  it('is in the sidebar for a holder of MANAGE_WEBHOOKS', async () => {
    signedIn(['MANAGE_WEBHOOKS'], { 'GET /api/webhook': () => ({ body: [] }) });
    await openPage();
    expect(screen.getByRole('link', { name: 'Webhooks' }).getAttribute('href')).toBe(PAGE);
  });
});

describe("a company's webhooks on its company page", { timeout: 40_000 }, () => {
  const company = buildCompany();

  it("lists and creates the company's endpoints in its tenant for the provider", async () => {
    const { calls } = signedIn(
      ['ACCESS_COMPANY_LICENSE_PAGE', 'MANAGE_WEBHOOKS', 'ADMIN_ACCESS_LEVEL'],
      {
        'GET /api/company/5': () => ({ body: company }),
        'GET /api/license/company': () => ({ body: [] }),
        'GET /api/webhook': () => ({ body: [endpoint()] }),
        'POST /api/webhook': () => ({ status: 201, body: { ...endpoint({ id: 2 }), secret: 'whsec_x' } }),
      },
      { company: null, tenantId: null },
    );
    const user = userEvent.setup();
    renderApp('/dashboard/license/companies/5');
    const section = await screen.findByRole('region', { name: 'Webhooks' }, { timeout: 15_000 });
    expect(await within(section).findByText('https://hooks.acme.test/opsdeck')).toBeTruthy();
    const read = calls.find((call) => call.method === 'GET' && call.url === '/api/webhook');
    expect(read?.headers.get('X-Tenant-Id')).toBe('tenant-acme');

    await user.click(within(section).getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    await user.type(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }), 'https://b.acme.test/hook');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Users' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByRole('dialog', { name: 'The endpoint’s signing secret' });
    const post = calls.find((call) => call.method === 'POST' && call.url === '/api/webhook');
    expect(post?.headers.get('X-Tenant-Id')).toBe('tenant-acme');
    expect(post?.body).toMatchObject({ events: ['user.created', 'user.archived'] });
  });
});
