import type { Company } from '@opsdeck/contract/companies';
import { ERROR_MESSAGES } from '@opsdeck/contract/errors';
import type { License } from '@opsdeck/contract/licenses';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { buildCompany, signedIn } from '../../test/builders';
import { errorBody } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const DAY = 86_400_000;
const now = Date.now();
const shown = (epoch: number) => dayjs(epoch).format('MM/DD/YYYY');
const ERROR = (key: keyof typeof ERROR_MESSAGES) => ERROR_MESSAGES[key];

const PRO = { key: 'pro', name: 'Professional' } as const;
const ENTERPRISE = { key: 'enterprise', name: 'Enterprise' } as const;

const company = (overrides: Partial<Company> = {}): Company =>
  buildCompany({ license: { type: PRO, issueDate: now - 30 * DAY, expirationDate: now + 335 * DAY }, ...overrides });

const license = (overrides: Partial<License> = {}): License => ({
  id: 1,
  company: { id: 5, name: 'Acme Robotics', tenantId: 'tenant-acme' },
  type: PRO,
  label: 'Main',
  issueDate: now - 30 * DAY,
  expirationDate: now + 335 * DAY,
  maxAccounts: 10,
  unusedAccounts: 4,
  invalidated: false,
  expired: false,
  ...overrides,
});

const LICENSES = [
  license(),
  license({
    id: 2,
    type: ENTERPRISE,
    label: '',
    issueDate: now - 400 * DAY,
    expirationDate: now - 35 * DAY,
    maxAccounts: 3,
    unusedAccounts: 0,
    expired: true,
  }),
  license({ id: 3, label: 'Old', issueDate: now - 500 * DAY, invalidated: true }),
];

const ALL = [
  'ACCESS_COMPANY_TAB',
  'ACCESS_COMPANY_LICENSE_PAGE',
  'ACCESS_COMPANY_LICENSE_KEY_PAGE',
  'CREATE_LICENSE',
  'EDIT_LICENSE',
  'DELETE_LICENSE',
  'ADMIN_ACCESS_LEVEL',
];

/** An admin (no company of their own) on Acme's page. */
function api(handlers = {}, auths = ALL) {
  return signedIn(
    auths,
    {
      'GET /api/company/5': () => ({ body: company() }),
      'GET /api/license/company': () => ({ body: LICENSES }),
      ...handlers,
    },
    { company: null, tenantId: null },
  );
}

async function openPage(path = '/dashboard/license/companies/5') {
  const user = userEvent.setup();
  const view = renderApp(path);
  const table = await screen.findByRole('table', { name: 'Licenses' }, { timeout: 15_000 });
  await within(table).findByText('Main');
  return { user, table, view };
}

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 7)
        .map((cell) => cell.textContent),
    );

describe('company page', { timeout: 40_000 }, () => {
  it("shows the company's card with its licence badge and dates, and its licences with their state", async () => {
    const { calls } = api();
    const { table } = await openPage();

    const card = screen.getByRole('region', { name: 'Company summary' });
    expect(within(card).getByRole('heading', { name: 'Acme Robotics' })).toBeTruthy();
    expect(within(card).getByText('Manufacturing')).toBeTruthy();
    expect(within(card).getByText('grace@acme.test')).toBeTruthy();
    expect(within(card).getByText(shown(now - 30 * DAY))).toBeTruthy();
    expect(within(card).getByText(shown(now + 335 * DAY))).toBeTruthy();
    // Spec section 2: PRO in the warning (yellow) style, ENTERPRISE in the info (blue) style.
    expect(within(card).getByText('PRO').closest('.mantine-Badge-root')?.getAttribute('style')).toContain('yellow');

    expect(cellsOf(table)).toEqual([
      ['PRO', 'Main', shown(now - 30 * DAY), shown(now + 335 * DAY), '10', '4', 'Active'],
      ['ENTERPRISE', '-', shown(now - 400 * DAY), shown(now - 35 * DAY), '3', '0', 'Expired'],
      ['PRO', 'Old', shown(now - 500 * DAY), shown(now + 335 * DAY), '10', '4', 'Invalidated'],
    ]);
    const enterprise = within(table).getByText('ENTERPRISE').closest('.mantine-Badge-root');
    expect(enterprise?.getAttribute('style')).toContain('blue');

    // The keys of each licence; an invalidated licence can only be looked at and deleted.
    expect(within(table).getByRole('link', { name: 'View keys of Main' }).getAttribute('href')).toBe(
      '/dashboard/license/companies/5/license/1',
    );
    expect(within(table).getByRole('button', { name: 'Renew Enterprise license 2' })).toBeTruthy();
    expect(within(table).queryByRole('button', { name: 'Renew Old' })).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Invalidate Old' })).toBeNull();
    expect(within(table).getByRole('button', { name: 'Delete Old' })).toBeTruthy();

    // The licences are read in the company's tenant.
    const read = calls.find((call) => call.url === '/api/license/company?id=5');
    expect(read?.headers.get('X-Tenant-Id')).toBe('tenant-acme');
  });

  it("renews in 'Renew License Confirmation': no past date, 1 to 100 keys, and a company over the new count on the keys field", async () => {
    const expired = LICENSES[1]!;
    const { calls } = api({
      'GET /api/license/company/license': () => ({ body: expired }),
      'POST /api/license/company/update': () => ({
        status: 400,
        body: errorBody('ERROR_COMPANY_MORE_LICENSES'),
      }),
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Renew Enterprise license 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renew License Confirmation' });
    const date = within(dialog).getByRole('textbox', { name: /^Expiration date/ }) as HTMLInputElement;
    const keys = within(dialog).getByRole('textbox', { name: /^Allowed keys/ }) as HTMLInputElement;
    expect(date.value).toBe(shown(expired.expirationDate));
    expect(keys.value).toBe('3');
    expect(keys.maxLength).toBe(10);

    // The expired licence's own date is past: refused before any call.
    await user.click(within(dialog).getByRole('button', { name: 'Renew' }));
    expect(await within(dialog).findByText(ERROR('ERROR_LICENSE_EXPIRATION_DATE_INVALID'))).toBeTruthy();
    expect(calls.some((call) => call.url === '/api/license/company/update')).toBe(false);

    await user.clear(keys);
    await user.type(keys, '0');
    await user.tab();
    expect(await within(dialog).findByText(ERROR('ERROR_LICENSE_ALLOWED_KEYS_TOO_LOW'))).toBeTruthy();
    await user.clear(keys);
    await user.type(keys, '101');
    expect(await within(dialog).findByText(ERROR('ERROR_LICENSE_ALLOWED_KEYS_TOO_HIGH'))).toBeTruthy();
    await user.clear(keys);
    await user.type(keys, '2');
    await waitFor(() => expect(within(dialog).queryByText(ERROR('ERROR_LICENSE_ALLOWED_KEYS_TOO_HIGH'))).toBeNull());

    const future = dayjs(now).add(1, 'year');
    await user.clear(date);
    await user.type(date, future.format('MM/DD/YYYY'));
    await user.tab();
    await waitFor(() => expect(within(dialog).queryByText(ERROR('ERROR_LICENSE_EXPIRATION_DATE_INVALID'))).toBeNull());
    await user.type(within(dialog).getByRole('textbox', { name: /^Label/ }), 'Renewed');
    const renew = within(dialog).getByRole('button', { name: 'Renew' }) as HTMLButtonElement;
    await waitFor(() => expect(renew.disabled).toBe(false));
    await user.click(renew);

    expect(await within(dialog).findByText(ERROR('ERROR_COMPANY_MORE_LICENSES'))).toBeTruthy();
    expect(keys.getAttribute('aria-invalid')).toBe('true');
    const post = calls.find((call) => call.url === '/api/license/company/update')!;
    expect(post.body).toEqual({
      companyId: 5,
      licenseId: 2,
      expirationDate: future.endOf('day').valueOf(),
      maxAccounts: 2,
      label: 'Renewed',
    });
    expect(post.headers.get('X-Tenant-Id')).toBe('tenant-acme');
  });

  it('refuses a typed date before today on the field', async () => {
    api({ 'GET /api/license/company/license': () => ({ body: LICENSES[0] }) });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Renew Main' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renew License Confirmation' });
    const date = within(dialog).getByRole('textbox', { name: /^Expiration date/ });
    await user.clear(date);
    await user.type(date, dayjs(now).subtract(2, 'day').format('MM/DD/YYYY'));
    await user.tab();
    expect(await within(dialog).findByText(ERROR('ERROR_LICENSE_EXPIRATION_DATE_INVALID'))).toBeTruthy();
  });

  it("adds a licence ('pro' pre-selected), invalidates one and deletes one", async () => {
    const { calls } = api({
      'POST /api/license/company/add': () => ({ status: 201, body: license({ id: 4, label: 'Robots' }) }),
      'POST /api/license/company/invalidate': () => ({ body: license({ invalidated: true }) }),
      'DELETE /api/license/company/5/license/3': () => ({ body: { ok: true } }),
    });
    const { user } = await openPage();

    await user.click(screen.getByRole('button', { name: 'Add license' }));
    const add = await screen.findByRole('dialog', { name: 'Add license' });
    expect((within(add).getByRole('combobox', { name: /^Type/ }) as HTMLInputElement).value).toBe('Professional');
    await user.type(within(add).getByRole('textbox', { name: /^Label/ }), 'Robots');
    await user.click(within(add).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully added Robots')).toBeTruthy();
    expect(calls.find((call) => call.url === '/api/license/company/add')?.body).toEqual({
      companyId: 5,
      licenseType: 'pro',
      label: 'Robots',
    });

    await user.click(screen.getByRole('button', { name: 'Invalidate Main' }));
    const invalidate = await screen.findByRole('dialog', { name: 'Invalidate license' });
    expect(within(invalidate).getByText(/Its keys stop working/)).toBeTruthy();
    await user.click(within(invalidate).getByRole('button', { name: 'Invalidate' }));
    expect(await screen.findByText('Successfully invalidated Main')).toBeTruthy();
    expect(calls.find((call) => call.url === '/api/license/company/invalidate')?.body).toEqual({
      companyId: 5,
      licenseId: 1,
    });

    await user.click(screen.getByRole('button', { name: 'Delete Old' }));
    const remove = await screen.findByRole('dialog', { name: 'Delete license' });
    await user.click(within(remove).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Successfully deleted Old')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.headers.get('X-Tenant-Id')).toBe('tenant-acme');
  });

  it('toasts a missing company and goes back to the companies list', async () => {
    api({
      'GET /api/company/99': () => ({ status: 404, body: errorBody('ERROR_COMPANY_NOT_EXIST') }),
      'GET /api/company': () => ({ body: { items: [], total: 0, page: 1, size: 10 } }),
    });
    const view = renderApp('/dashboard/license/companies/99');
    expect(await screen.findByText(ERROR('ERROR_COMPANY_NOT_EXIST'), undefined, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard/license/companies'));
    expect(await screen.findByRole('table', { name: 'Companies' })).toBeTruthy();
  });

  it("takes a company user who opens another company's page back to their own, not to a page that answers 403", async () => {
    signedIn(['ACCESS_COMPANY_LICENSE_PAGE'], {
      'GET /api/company/99': () => ({ status: 404, body: errorBody('ERROR_COMPANY_NOT_EXIST') }),
      'GET /api/company/5': () => ({ body: company() }),
      'GET /api/license/company': () => ({ body: LICENSES }),
    });
    const view = renderApp('/dashboard/license/companies/99');
    expect(await screen.findByText(ERROR('ERROR_COMPANY_NOT_EXIST'), undefined, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard/license/companies/5'));
    expect(await screen.findByRole('region', { name: 'Company summary' })).toBeTruthy();
    expect(screen.queryByText(/not allowed|forbidden/i)).toBeNull();
  });

  it("shows a company user their own company's licences, without the actions they do not hold", async () => {
    signedIn(['ACCESS_COMPANY_LICENSE_PAGE', 'MANAGE_LICENSING'], {
      'GET /api/company/5': () => ({
        body: company({ license: { type: ENTERPRISE, issueDate: now, expirationDate: now } }),
      }),
      'GET /api/license/company': () => ({ body: LICENSES }),
    });
    const { table } = await openPage();
    const card = screen.getByRole('region', { name: 'Company summary' });
    expect(within(card).getByText('ENTERPRISE').closest('.mantine-Badge-root')?.getAttribute('style')).toContain(
      'blue',
    );
    expect(screen.queryByRole('button', { name: 'Add license' })).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    expect(within(table).queryByRole('link')).toBeNull();
    expect(within(table).queryByRole('button', { name: /^(Renew|Invalidate|Delete) / })).toBeNull();
  });
});
