import type { AlertRule } from '@opsdeck/contract/alerts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildCompany, signedIn } from '../../test/builders';
import { errorBody } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const PAGE = '/dashboard/management/alerts';
const DAY = 86_400_000;

const rule = (overrides: Partial<AlertRule> = {}): AlertRule => ({
  id: 1,
  tenantId: 'tenant-acme',
  kind: 'agent_offline',
  params: { minutes: 15, timeZone: 'UTC' },
  channels: ['console', 'email'],
  createdAt: Date.now() - 10 * DAY,
  updatedAt: Date.now() - DAY,
  ...overrides,
});

async function openPage() {
  const user = userEvent.setup();
  renderApp(PAGE);
  const table = await screen.findByRole('table', { name: 'Alert rules' }, { timeout: 15_000 });
  return { user, table };
}

async function openCreateForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Add alert rule' }));
  return screen.findByRole('dialog', { name: 'Add alert rule' });
}

async function pickKind(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, kind: string) {
  await user.click(within(dialog).getByRole('combobox', { name: /^What the rule watches/ }));
  await user.click(await screen.findByRole('option', { name: kind }));
}

describe('alert rules page', { timeout: 40_000 }, () => {
  it('lists the rules with their kind, parameters and channels in words', async () => {
    signedIn(['MANAGE_ALERTS'], {
      'GET /api/alert-rule': () => ({
        body: [
          rule(),
          rule({ id: 2, kind: 'workflow_faulted', params: { count: 3, minutes: 60 }, channels: ['webhook'] }),
          rule({ id: 3, kind: 'seats_nearly_full', params: { percent: 90 }, channels: ['console'] }),
          rule({ id: 4, kind: 'late_arrival', params: {}, channels: ['console'] }),
        ],
      }),
    });
    const { table } = await openPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Alerts' })).toBeTruthy();
    const offline = (await within(table).findByText('Agent offline')).closest('tr') as HTMLElement;
    expect(within(offline).getByText('Offline for more than 15 min (Mon–Fri 08:00–18:00, UTC)')).toBeTruthy();
    expect(within(offline).getByText('Console, E-mail')).toBeTruthy();
    const faulted = within(table).getByText('Workflow faulted').closest('tr') as HTMLElement;
    expect(within(faulted).getByText('A workflow faulted 3 times or more within 1 h')).toBeTruthy();
    expect(within(faulted).getByText('Webhooks')).toBeTruthy();
    expect(within(table).getByText('A license’s keys use 90 % or more of its seats')).toBeTruthy();
    expect(within(table).getByText(/arrives more than 5 minutes late/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Alerts' }).getAttribute('href')).toBe(PAGE);
  });

  it('changes the parameters with the kind and sends only the kind’s own', async () => {
    let list: AlertRule[] = [];
    const { calls } = signedIn(['MANAGE_ALERTS'], {
      'GET /api/alert-rule': () => ({ body: list }),
      'POST /api/alert-rule': (call) => {
        const created = rule({ id: 9, ...(call.body as Partial<AlertRule>) });
        list = [created];
        return { status: 201, body: created };
      },
    });
    const { user } = await openPage();
    const dialog = await openCreateForm(user);
    // No kind yet: no parameters; the console channel is chosen.
    expect(within(dialog).queryByRole('textbox', { name: /minutes/ })).toBeNull();
    expect((within(dialog).getByRole('checkbox', { name: /^Console/ }) as HTMLInputElement).checked).toBe(true);

    await pickKind(user, dialog, 'Agent offline');
    const minutes = within(dialog).getByRole('textbox', { name: /^Offline for more than \(minutes\)/ });
    expect((minutes as HTMLInputElement).value).toBe('15');
    expect(within(dialog).getByRole('combobox', { name: /^Time zone of the working hours/ })).toBeTruthy();
    expect(within(dialog).queryByRole('textbox', { name: /^Seats in use/ })).toBeNull();

    await pickKind(user, dialog, 'Workflow faulted');
    expect(within(dialog).getByRole('textbox', { name: /^Faulted runs/ })).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: /^Within \(minutes\)/ }) as HTMLInputElement).value).toBe('60');
    expect(within(dialog).queryByRole('combobox', { name: /^Time zone/ })).toBeNull();

    await pickKind(user, dialog, 'Break over');
    expect(within(dialog).getByText(/No settings: each status’s break threshold applies/)).toBeTruthy();

    await pickKind(user, dialog, 'Seats nearly full');
    expect(within(dialog).queryByRole('textbox', { name: /^Faulted runs/ })).toBeNull();
    const percent = within(dialog).getByRole('textbox', { name: /^Seats in use/ });
    await user.clear(percent);
    await user.type(percent, '101');
    await user.tab();
    expect(await within(dialog).findByText('A setting of the rule is missing or out of range.')).toBeTruthy();
    await user.clear(percent);
    await user.type(percent, '1');
    await user.click(within(dialog).getByRole('checkbox', { name: /^E-mail/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = calls.find((call) => call.method === 'POST' && call.url === '/api/alert-rule');
    expect(post?.body).toEqual({ kind: 'seats_nearly_full', params: { percent: 1 }, channels: ['console', 'email'] });
    // A company user's calls name no tenant: the server takes their own company.
    expect(post?.headers.get('X-Tenant-Id')).toBeNull();
    expect(await screen.findByText('A license’s keys use 1 % or more of its seats')).toBeTruthy();
  });

  it('shows the server’s refusal of a parameter on its field, keeping the dialog open', async () => {
    signedIn(['MANAGE_ALERTS'], {
      'GET /api/alert-rule': () => ({ body: [] }),
      'POST /api/alert-rule': () => ({
        status: 400,
        body: errorBody('ERROR_ALERT_PARAMS_INVALID', 'bad', { 'params.minutes': 'ERROR_ALERT_PARAMS_INVALID' }),
      }),
    });
    const { user } = await openPage();
    const dialog = await openCreateForm(user);
    await pickKind(user, dialog, 'Agent offline');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const message = await within(dialog).findByText('A setting of the rule is missing or out of range.');
    const minutes = within(dialog).getByRole('textbox', { name: /^Offline for more than \(minutes\)/ });
    expect(minutes.getAttribute('aria-invalid')).toBe('true');
    expect(minutes.getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.getByRole('dialog', { name: 'Add alert rule' })).toBeTruthy();
  });

  it('asks for a kind and a channel before sending anything', async () => {
    const { calls } = signedIn(['MANAGE_ALERTS'], { 'GET /api/alert-rule': () => ({ body: [] }) });
    const { user } = await openPage();
    const dialog = await openCreateForm(user);
    await user.click(within(dialog).getByRole('checkbox', { name: /^Console/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Choose what the rule watches.')).toBeTruthy();
    expect(within(dialog).getByText('Choose at least one channel.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('edits a rule with its stored parameters', async () => {
    const stored = rule({ params: { minutes: 30, timeZone: 'Europe/Paris' } });
    const { calls } = signedIn(['MANAGE_ALERTS'], {
      'GET /api/alert-rule': () => ({ body: [stored] }),
      'PUT /api/alert-rule/1': (call) => ({ body: { ...stored, ...(call.body as object) } }),
    });
    const { user, table } = await openPage();
    await user.click(await within(table).findByRole('button', { name: /^Edit Agent offline/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit alert rule: Agent offline' });
    const minutes = within(dialog).getByRole('textbox', { name: /^Offline for more than/ }) as HTMLInputElement;
    expect(minutes.value).toBe('30');
    expect((within(dialog).getByRole('combobox', { name: /^Time zone/ }) as HTMLInputElement).value).toBe(
      'Europe/Paris',
    );
    await user.clear(minutes);
    await user.type(minutes, '45');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      kind: 'agent_offline',
      params: { minutes: 45, timeZone: 'Europe/Paris' },
      channels: ['console', 'email'],
    });
  });

  it('deletes a rule through the confirm dialog', async () => {
    let list = [rule()];
    const { calls } = signedIn(['MANAGE_ALERTS'], {
      'GET /api/alert-rule': () => ({ body: list }),
      'DELETE /api/alert-rule/1': () => {
        list = [];
        return { body: { ok: true } };
      },
    });
    const { user, table } = await openPage();
    await user.click(await within(table).findByRole('button', { name: /^Delete Agent offline/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete alert rule' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    expect(await within(table).findByText('No alert rules yet.')).toBeTruthy();
  });
});

describe("a company's alert rules on its company page", { timeout: 40_000 }, () => {
  const company = buildCompany();

  it("lists the company's rules in its tenant for the provider, whose alerts page sends him there", async () => {
    const { calls } = signedIn(
      ['ACCESS_COMPANY_LICENSE_PAGE', 'ACCESS_COMPANY_TAB', 'MANAGE_ALERTS', 'ADMIN_ACCESS_LEVEL'],
      {
        'GET /api/company/5': () => ({ body: company }),
        'GET /api/license/company': () => ({ body: [] }),
        'GET /api/alert-rule': () => ({ body: [rule()] }),
      },
      { company: null, tenantId: null },
    );
    const { router } = renderApp('/dashboard/license/companies/5');
    const section = await screen.findByRole('region', { name: 'Alerts' }, { timeout: 15_000 });
    expect(await within(section).findByText('Agent offline')).toBeTruthy();
    const read = calls.find((call) => call.method === 'GET' && call.url === '/api/alert-rule');
    expect(read?.headers.get('X-Tenant-Id')).toBe('tenant-acme');

    await router.navigate(PAGE);
    expect(await screen.findByText(/Alert rules belong to a company/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the companies' }).getAttribute('href')).toBe(
      '/dashboard/license/companies',
    );
  });
});
