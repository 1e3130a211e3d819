import type { Account } from '@opsdeck/contract/accounts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../../test/builders';
import { errorBody, type RecordedCall } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { buildAccount, buildGenerated, FULL_KEY } from './test-data';

const PATH = '/dashboard/license/accounts';
const ALL = ['ACCESS_ACCOUNT_TAB', 'DELETE_ACCOUNT', 'CREATE_LICENSE'];

const solo = (overrides: Partial<Account> = {}) =>
  buildAccount({
    id: 20,
    type: { key: 'solo', name: 'Solo' },
    fullName: 'Sol Vega',
    emailAddress: 'sol@vega.test',
    license: {
      id: 77,
      type: { key: 'enterprise', name: 'Enterprise' },
      label: '',
      expirationDate: new Date(2031, 11, 31, 9, 5).getTime(),
      company: null,
    },
    ...overrides,
  });

const rows = [
  buildAccount({
    id: 1,
    fullName: 'Amara Okoye',
    macAddresses: ['AA:BB:CC:DD:EE:01', 'AA:BB:CC:DD:EE:02', 'AA:BB:CC:DD:EE:03', 'AA:BB:CC:DD:EE:04'],
    license: {
      id: 9,
      type: { key: 'pro', name: 'Professional' },
      label: 'Dispatch robots',
      expirationDate: new Date(2020, 0, 5, 15, 0).getTime(),
      company: { id: 5, name: 'Northwind Traders', tenantId: 'tenant-northwind' },
    },
  }),
  solo(),
];

type Handlers = Parameters<typeof signedIn>[1];

function api(handlers: Handlers = {}, auths: string[] = ALL, total = rows.length) {
  return signedIn(auths, {
    'GET /api/account': () => ({ body: { items: rows, total, page: 1, size: 10 } }),
    ...handlers,
  });
}

async function openPage() {
  const view = renderApp(PATH);
  const table = await screen.findByRole('table', { name: 'Accounts' }, { timeout: 15_000 });
  await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
  return { ...view, table };
}

const pageCalls = (calls: RecordedCall[]) =>
  calls
    .filter((call) => call.url.startsWith('/api/account?'))
    .map((call) => new URL(call.url, 'http://x').searchParams);

describe('accounts page', { timeout: 60_000 }, () => {
  it('lists type, full name, e-mail, MACs and the expiration as YYYY MMM DD hh:mm A', async () => {
    api();
    const { table } = await openPage();
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 5)
          .map((cell) => cell.textContent),
      );
    expect(cells[0]?.[0]).toBe('Company');
    expect(cells[0]?.[1]).toBe('Amara Okoye');
    expect(cells[0]?.[2]).toBe('person1@northwind.test');
    expect(cells[0]?.[4]).toBe('2020 Jan 05 03:00 PM');
    expect(cells[1]?.[0]).toBe('Solo');
    expect(cells[1]?.[4]).toBe('2031 Dec 31 09:05 AM');
  });

  it('tells every row apart, a key with no person yet included: its partial key, company, licence and department', async () => {
    rows.push(
      buildAccount({
        id: 3,
        fullName: null,
        emailAddress: null,
        macAddress: null,
        macAddresses: [],
        departmentName: 'Billing',
      }),
    );
    try {
      api();
      const view = renderApp(PATH);
      const table = await screen.findByRole('table', { name: 'Accounts' }, { timeout: 15_000 });
      await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
      const text = (index: number, column: string) => {
        const header = within(table).getByRole('columnheader', { name: column });
        const at = within(table).getAllByRole('columnheader').indexOf(header);
        return within(within(table).getAllByRole('row')[index] as HTMLElement).getAllByRole('cell')[at]?.textContent;
      };
      expect(text(3, 'Key')).toBe('ODK-7F33-…-XW2D');
      expect(text(3, 'Company, license and department')).toBe('Northwind TradersDispatch robots · Billing');
      expect(text(2, 'Key')).toBe('ODK-7F320-…-XW2D');
      expect(text(2, 'Company, license and department')).toBe('SoloEnterprise · Dispatch');
      view.unmount();
    } finally {
      rows.pop();
    }
  });

  it('shows the first 3 MAC addresses, and the rest with See More until See Less', async () => {
    api();
    const user = userEvent.setup();
    const { table } = await openPage();
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByText('AA:BB:CC:DD:EE:03')).toBeTruthy();
    expect(within(row).queryByText('AA:BB:CC:DD:EE:04')).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'See More' }));
    expect(within(row).getByText('AA:BB:CC:DD:EE:04')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'See Less' }));
    expect(within(row).queryByText('AA:BB:CC:DD:EE:04')).toBeNull();
    // One address: no toggle.
    expect(
      within(within(table).getAllByRole('row')[2] as HTMLElement).queryByRole('button', { name: 'See More' }),
    ).toBeNull();
  });

  it('asks the server for 10 a page, sorted and searched, and keeps them in the URL', async () => {
    const { calls } = api({}, ALL, 25);
    const user = userEvent.setup();
    const { router } = await openPage();
    expect(Object.fromEntries(pageCalls(calls)[0] ?? [])).toEqual({ page: '1', size: '10', sort: 'fullName,asc' });

    await user.click(screen.getByRole('button', { name: 'License expiration' }));
    await waitFor(() => expect(pageCalls(calls).at(-1)?.get('sort')).toBe('expiration,asc'));
    await user.click(screen.getByRole('button', { name: 'License expiration' }));
    await waitFor(() => expect(pageCalls(calls).at(-1)?.get('sort')).toBe('expiration,desc'));

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(pageCalls(calls).at(-1)?.get('page')).toBe('2'));

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'amara');
    await waitFor(() => expect(pageCalls(calls).at(-1)?.get('search')).toBe('amara'));
    // A new search starts again at page 1.
    expect(pageCalls(calls).at(-1)?.get('page')).toBe('1');
    expect(router.state.location.search).toContain('q=amara');
    expect(router.state.location.search).toContain('sort=-expiration');
  });

  it("deletes a company account's key through its licence", async () => {
    const { calls } = api({
      'DELETE /api/license/company/5/license/9/account/1': () => ({ body: { ok: true } }),
    });
    const user = userEvent.setup();
    await openPage();
    await user.click(screen.getByRole('button', { name: 'Delete Amara Okoye' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete account' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Successfully deleted Amara Okoye')).toBeTruthy();
    const remove = calls.find((call) => call.method === 'DELETE');
    expect(remove?.headers.get('x-tenant-id')).toBe('tenant-northwind');
  });

  it("deletes a solo account by invalidating its licence, with spec section 8's mapping of refusals", async () => {
    const answers = [
      { status: 400, body: errorBody('ERROR_LICENSE_ID_REQUIRED') },
      { status: 404, body: errorBody('ERROR_LICENSE_NOT_EXIST') },
      { status: 409, body: errorBody('ERROR_LICENSE_NOT_SOLO') },
      { status: 409, body: errorBody('ERROR_GENERAL_PROTECTED') },
      { status: 200, body: { ok: true } },
    ];
    const expected = [
      'The license does not exist. (Sol Vega)',
      'The license does not exist. (Sol Vega)',
      'The license is not a solo license. (Sol Vega)',
      'Oops! Something went wrong in processing your request. (Sol Vega)',
      'Successfully deleted Sol Vega',
    ];
    let next = 0;
    const { calls } = api({ 'POST /api/license/solo/invalidate': () => answers[next++] ?? { status: 500 } });
    const user = userEvent.setup();
    await openPage();
    for (const [index, text] of expected.entries()) {
      await user.click(screen.getByRole('button', { name: 'Delete Sol Vega' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete solo account' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      // A toast stays 5 s: the same text twice in a row shows twice.
      const shown = expected.slice(0, index + 1).filter((earlier) => earlier === text).length;
      await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(shown));
    }
    expect(calls.filter((call) => call.url === '/api/license/solo/invalidate').map((call) => call.body)).toEqual(
      Array(5).fill({ licenseId: 77 }),
    );
  });

  it('lets the provider add a solo account from a registration file, showing its key once', async () => {
    const { calls } = api({
      'POST /api/account/solo': () => ({ status: 201, body: buildGenerated({ type: { key: 'solo', name: 'Solo' } }) }),
    });
    const user = userEvent.setup();
    await openPage();
    await user.click(screen.getByRole('button', { name: 'Add solo account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add solo account' });
    await user.click(within(dialog).getByRole('combobox', { name: /^License type/ }));
    await user.click(await screen.findByRole('option', { name: 'Enterprise' }));
    await user.upload(
      dialog.querySelector('input[type=file]') as HTMLInputElement,
      new File(['{}'], 'sol.dat', { type: 'application/octet-stream' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const shown = await screen.findByRole('dialog', { name: 'Your new license key' });
    expect((within(shown).getByRole('textbox', { name: 'License key' }) as HTMLInputElement).value).toBe(FULL_KEY);
    const body = calls.find((call) => call.url === '/api/account/solo')?.body as FormData;
    expect(body.get('licenseType')).toBe('enterprise');
    expect((body.get('regFile') as File).name).toBe('sol.dat');
  });

  it('hides delete and the solo account creation without their authorities', async () => {
    api({}, ['ACCESS_ACCOUNT_TAB']);
    const { table } = await openPage();
    expect(within(table).queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add solo account' })).toBeNull();
  });
});
