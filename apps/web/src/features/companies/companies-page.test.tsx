import type { Company } from '@opsdeck/contract/companies';
import { ERROR_MESSAGES as MESSAGES } from '@opsdeck/contract/errors';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildCompany, buildUser, signedIn } from '../../test/builders';
import { errorBody, type RecordedCall } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const COMPANIES = '/dashboard/license/companies';
const ALL = ['ACCESS_COMPANY_TAB', 'ACCESS_COMPANY_LICENSE_PAGE', 'CREATE_COMPANY', 'EDIT_COMPANY', 'DELETE_COMPANY'];

const company = (overrides: Partial<Company> = {}): Company => buildCompany({ id: 1, ...overrides });

const LONG_NAME = `Northwind ${'Traders '.repeat(8)}Limited`;

const industries = [
  { key: 'manufacturing', name: 'Manufacturing' },
  { key: 'finance', name: 'Finance' },
];

/** An admin (no company) holding `auths`, with a list of two companies. */
function api(auths = ALL, handlers = {}) {
  return signedIn(
    [...auths, 'ADMIN_ACCESS_LEVEL'],
    {
      'GET /api/company': () => ({
        body: {
          items: [
            company(),
            company({ id: 2, tenantId: 'tenant-north', name: LONG_NAME, head: null, industryType: industries[1]! }),
          ],
          total: 23,
          page: 1,
          size: 10,
        },
      }),
      'GET /api/industry-type': () => ({ body: industries }),
      ...handlers,
    },
    { company: null, tenantId: null },
  );
}

const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'GET' && call.url.startsWith('/api/company?'));
const lastListQuery = (calls: RecordedCall[]) =>
  Object.fromEntries(new URL(listCalls(calls).at(-1)!.url, 'http://x').searchParams);

async function openPage() {
  const user = userEvent.setup();
  renderApp(COMPANIES);
  const table = await screen.findByRole('table', { name: 'Companies' }, { timeout: 15_000 });
  await within(table).findByText('Acme Robotics');
  return { user, table };
}

describe('companies page', { timeout: 40_000 }, () => {
  it('lists name (a link to the company page, cut at 50), head and industry, paged, sorted and searched by the server', async () => {
    const { calls } = api();
    const { user, table } = await openPage();
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(1, 3)
        .map((cell) => cell.textContent),
    );
    expect(cells).toEqual([
      ['Grace Hopper', 'Manufacturing'],
      ['-', 'Finance'],
    ]);
    const link = within(table).getByRole('link', { name: 'Acme Robotics' });
    expect(link.getAttribute('href')).toBe('/dashboard/license/companies/1');
    // The long name shows cut with '...', and is read (and hovered) whole.
    const longLink = within(table).getByRole('link', { name: LONG_NAME });
    expect(within(longLink).getByText(`${LONG_NAME.slice(0, 50)}...`)).toBeTruthy();
    expect(lastListQuery(calls)).toEqual({ page: '1', size: '10', sort: 'name,asc' });
    // Companies belong to no tenant: the list is read without a tenant header.
    expect(listCalls(calls)[0]!.headers.get('X-Tenant-Id')).toBeNull();

    await user.click(within(table).getByRole('button', { name: /Head/ }));
    await waitFor(() => expect(lastListQuery(calls)).toMatchObject({ sort: 'head,asc', page: '1' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastListQuery(calls)).toMatchObject({ sort: 'head,asc', page: '2' }));
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'hopper');
    await waitFor(() =>
      expect(lastListQuery(calls)).toEqual({ page: '1', size: '10', sort: 'head,asc', search: 'hopper' }),
    );
  });

  it('creates a company with its head: every rule on its field before the call, the server keys on theirs after', async () => {
    let refuse = true;
    const { calls } = api(ALL, {
      'POST /api/company': () =>
        refuse
          ? {
              status: 409,
              body: errorBody('ERROR_COMPANY_NAME_DUPLICATE', undefined, {
                name: 'ERROR_COMPANY_NAME_DUPLICATE',
                'head.emailAddress': 'ERROR_COMPANY_EMAIL_DUPLICATE',
              }),
            }
          : { status: 201, body: company({ id: 3, name: 'Initech' }) },
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Create company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create company' });
    const field = (name: RegExp) => within(dialog).getByLabelText(name, { selector: 'input' });

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    for (const key of [
      'ERROR_COMPANY_NAME_REQUIRED',
      'ERROR_COMPANY_INDUSTRY_REQUIRED',
      'ERROR_USER_FIRST_NAME_REQUIRED',
      'ERROR_USER_LAST_NAME_REQUIRED',
      'ERROR_USER_EMAIL_REQUIRED',
      'ERROR_USER_PASSWORD_REQUIRED',
      'ERROR_USER_CONFIRM_PASSWORD_REQUIRED',
    ]) {
      expect(await within(dialog).findByText(ERROR(key))).toBeTruthy();
    }
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.type(field(/^Name/), 'Initech.');
    await user.type(field(/^Head's e-mail/), 'peter@@initech.test');
    await user.type(field(/^Password/), 'orbit-velvet-42');
    await user.type(field(/^Confirm password/), 'orbit-velvet-43');
    await user.click(field(/^Head's first name/));
    expect(await within(dialog).findByText(ERROR('ERROR_COMPANY_NAME_INVALID'))).toBeTruthy();
    expect(within(dialog).getByText(ERROR('ERROR_USER_EMAIL_INVALID'))).toBeTruthy();
    expect(within(dialog).getByText(ERROR('ERROR_USER_PASSWORD_MISMATCH'))).toBeTruthy();

    await user.clear(field(/^Name/));
    await user.type(field(/^Name/), 'Initech');
    await user.click(within(dialog).getByRole('combobox', { name: /^Industry/ }));
    await user.click(await screen.findByRole('option', { name: 'Finance' }));
    await user.type(field(/^Head's first name/), 'Peter');
    await user.type(field(/^Head's last name/), 'Gibbons');
    await user.clear(field(/^Head's e-mail/));
    await user.type(field(/^Head's e-mail/), 'peter@initech.test');
    await user.clear(field(/^Confirm password/));
    await user.type(field(/^Confirm password/), 'orbit-velvet-42');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText(ERROR('ERROR_COMPANY_NAME_DUPLICATE'))).toBeTruthy();
    expect(within(dialog).getByText(ERROR('ERROR_COMPANY_EMAIL_DUPLICATE'))).toBeTruthy();
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.body).toEqual({
      name: 'Initech',
      industryType: 'finance',
      head: {
        firstName: 'Peter',
        lastName: 'Gibbons',
        emailAddress: 'peter@initech.test',
        credential: {
          username: 'peter@initech.test',
          newPassword: 'orbit-velvet-42',
          confirmPassword: 'orbit-velvet-42',
        },
      },
    });
    expect(post.headers.get('X-Tenant-Id')).toBeNull();

    refuse = false;
    await user.type(field(/^Name/), ' Corp');
    await user.clear(field(/^Head's e-mail/));
    await user.type(field(/^Head's e-mail/), 'peter@initech.corp');
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    await user.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create company' })).toBeNull());
    expect(await screen.findByText('Successfully added Initech Corp')).toBeTruthy();
  });

  it("edits the name, industry and head (chosen among the company's users) in the company's tenant", async () => {
    const { calls } = api(ALL, {
      'GET /api/company/1': () => ({ body: company() }),
      'GET /api/user/find-by-company/1': () => ({
        body: [buildUser({ id: 7, completeName: 'Grace Hopper' }), buildUser({ id: 8, completeName: 'Alan Turing' })],
      }),
      'PUT /api/company/1': () => ({ body: company({ name: 'Acme Robotics Ltd' }) }),
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Edit Acme Robotics' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Acme Robotics' });
    const head = within(dialog).getByRole('combobox', { name: /^Company head/ }) as HTMLInputElement;
    await waitFor(() => expect(head.value).toBe('Grace Hopper'));
    expect(within(dialog).queryByLabelText(/Password/)).toBeNull();

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), ' Ltd');
    await user.click(head);
    await user.click(await screen.findByRole('option', { name: 'Alan Turing' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully updated Acme Robotics Ltd')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.body).toEqual({ name: 'Acme Robotics Ltd', industryType: 'manufacturing', headId: 8 });
    expect(put.headers.get('X-Tenant-Id')).toBe('tenant-acme');
    expect(calls.find((call) => call.url === '/api/user/find-by-company/1')!.headers.get('X-Tenant-Id')).toBe(
      'tenant-acme',
    );
  });

  it('puts a head taken by another company on the head field', async () => {
    api(ALL, {
      'GET /api/company/1': () => ({ body: company() }),
      'GET /api/user/find-by-company/1': () => ({ body: [buildUser({ id: 7, completeName: 'Grace Hopper' })] }),
      'PUT /api/company/1': () => ({ status: 409, body: errorBody('ERROR_COMPANY_HEAD_INVALID') }),
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Edit Acme Robotics' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Acme Robotics' });
    await waitFor(() =>
      expect((within(dialog).getByRole('combobox', { name: /^Company head/ }) as HTMLInputElement).value).toBe(
        'Grace Hopper',
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const head = within(dialog).getByRole('combobox', { name: /^Company head/ });
    await waitFor(() => expect(head.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(ERROR('ERROR_COMPANY_HEAD_INVALID'))).toBeTruthy();
  });

  it('deletes after saying what goes, in the tenant of the company; a company with licences toasts', async () => {
    const { calls } = api(ALL, {
      'DELETE /api/company/1': () => ({ status: 409, body: errorBody('ERROR_COMPANY_HAS_LICENSE') }),
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Delete Acme Robotics' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete company' });
    expect(within(dialog).getByText(/Its users will no longer be able to sign in/)).toBeTruthy();
    expect(within(dialog).getByText(/all of its data .* is deleted/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Company has licenses and cannot be deleted. (Acme Robotics)')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const remove = calls.find((call) => call.method === 'DELETE')!;
    expect(remove.url).toBe('/api/company/1');
    expect(remove.headers.get('X-Tenant-Id')).toBe('tenant-acme');
  });

  it('offers no create, edit, delete or company link without their authorities', async () => {
    api(['ACCESS_COMPANY_TAB']);
    const { table } = await openPage();
    expect(within(table).queryByRole('link')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create company' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});

function ERROR(key: string): string {
  return MESSAGES[key as keyof typeof MESSAGES];
}
