import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { signedIn } from '../../test/builders';
import { errorBody, type RecordedCall } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { buildAccount, buildCompany, buildGenerated, buildLicense, FULL_KEY } from './test-data';

const PATH = '/dashboard/license/companies/5/license/9';
const ALL = ['ACCESS_COMPANY_LICENSE_KEY_PAGE', 'GENERATE_LICENSE_KEY', 'DELETE_LICENSE_KEY', 'EXPORT_LICENSE_FILE'];

type Handlers = Parameters<typeof signedIn>[1];

function api(handlers: Handlers = {}, auths: string[] = ALL) {
  return signedIn(auths, {
    'GET /api/company/5': () => ({ body: buildCompany() }),
    'GET /api/license/company/license': () => ({ body: buildLicense() }),
    'GET /api/account/list': () => ({
      body: [
        buildAccount({
          id: 1,
          partialKey: 'ODK-AAAA-…-0001',
          fullName: 'Amara Okoye',
          macAddresses: ['AA:BB:CC:DD:EE:01', '00:1A:2B:3C:4D:5E'],
        }),
        buildAccount({
          id: 2,
          partialKey: 'ODK-BBBB-…-0002',
          fullName: null,
          emailAddress: null,
          macAddresses: [],
          hasFile: false,
          invalidated: true,
          departmentName: 'Sales',
        }),
      ],
    }),
    ...handlers,
  });
}

async function openPage() {
  const view = renderApp(PATH);
  const table = await screen.findByRole('table', { name: 'License keys' }, { timeout: 15_000 });
  await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
  return { ...view, table };
}

const formOf = (call: RecordedCall | undefined) => call?.body as FormData;

async function openGenerate(user: ReturnType<typeof userEvent.setup>, item: 'Generate key' | 'Generate from file') {
  await user.click(screen.getByRole('button', { name: 'Generate keys' }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
  return screen.findByRole('dialog', {
    name: item === 'Generate key' ? 'Generate key' : 'Generate key from a registration file',
  });
}

async function chooseDepartment(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, name: string) {
  await user.click(within(dialog).getByRole('combobox', { name: /^Department/ }));
  await user.click(await screen.findByRole('option', { name }));
}

const departments = {
  'GET /api/department': () => ({
    body: [
      { id: 3, name: 'Dispatch' },
      { id: 4, name: 'Sales' },
    ],
  }),
};

const datFile = () =>
  new File(['{"format":"opsdeck-registration"}'], 'amara.dat', { type: 'application/octet-stream' });

describe('licence keys page', { timeout: 60_000 }, () => {
  it('shows the company and licence, and each key: partial key, department, name, MACs, e-mail, state', async () => {
    const { calls } = api();
    const { table } = await openPage();
    const summary = screen.getByRole('region', { name: 'Company and license' });
    expect(within(summary).getByText('Northwind Traders')).toBeTruthy();
    expect(within(summary).getByText('PRO')).toBeTruthy();
    expect(within(summary).getByText('Dispatch floor')).toBeTruthy();
    expect(within(summary).getByText('2027 Jan 05 03:00 PM')).toBeTruthy();
    expect(within(summary).getByText('10')).toBeTruthy();
    expect(within(summary).getByText('8')).toBeTruthy();

    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 6)
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      [
        'ODK-AAAA-…-0001',
        'Dispatch',
        'Amara Okoye',
        'AA:BB:CC:DD:EE:0100:1A:2B:3C:4D:5E',
        'person1@northwind.test',
        'Active',
      ],
      ['ODK-BBBB-…-0002', 'Sales', '-', '-', '-', 'Invalidated'],
    ]);
    expect(within(table).getByText('ODK-AAAA-…-0001').getAttribute('style') ?? '').toContain('monospace');
    // The keys are read in the company's tenant (an admin acts on another company).
    const list = calls.find((call) => call.url.startsWith('/api/account/list'));
    expect(list?.url).toBe('/api/account/list?company=5&license=9');
    expect(list?.headers.get('x-tenant-id')).toBe('tenant-northwind');
  });

  it('generates a key for a department and shows the full key once, with a copy button', async () => {
    const { calls } = api({
      ...departments,
      'POST /api/account/generate': () => ({ status: 201, body: buildGenerated() }),
    });
    const user = userEvent.setup();
    await openPage();
    const dialog = await openGenerate(user, 'Generate key');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await within(dialog).findByText('Department is required.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await chooseDepartment(user, dialog, 'Sales');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const shown = await screen.findByRole('dialog', { name: 'Your new license key' });
    expect(screen.queryByRole('dialog', { name: 'Generate key' })).toBeNull();
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.url).toBe('/api/account/generate');
    expect(post?.headers.get('x-tenant-id')).toBe('tenant-northwind');
    expect(Object.fromEntries(formOf(post).entries())).toEqual({ company: '5', license: '9', department: '4' });

    expect((within(shown).getByRole('textbox', { name: 'License key' }) as HTMLInputElement).value).toBe(FULL_KEY);
    expect(within(shown).getByText(/will not be shown again/)).toBeTruthy();
    const writeText = vi.fn(async () => {});
    vi.spyOn(navigator, 'clipboard', 'get').mockReturnValue({ writeText } as unknown as Clipboard);
    await user.click(within(shown).getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith(FULL_KEY);
    expect(await within(shown).findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(window.location.href).not.toContain(FULL_KEY);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue(FULL_KEY)).toBeNull();
    // The list and the licence's counts reload after the key is made.
    await waitFor(() => expect(calls.filter((call) => call.url.startsWith('/api/account/list'))).toHaveLength(2));
  });

  it('generates from a registration file as multipart form data with the file', async () => {
    const { calls } = api({
      ...departments,
      'POST /api/account/from-file': () => ({ status: 201, body: buildGenerated({ fullName: 'Amara Okoye' }) }),
    });
    const user = userEvent.setup();
    await openPage();
    const dialog = await openGenerate(user, 'Generate from file');
    // Where a registration file comes from, for an administrator: the agent's installer, not npm.
    expect(within(dialog).getByText(/agent's installer writes this file/)).toBeTruthy();
    expect(within(dialog).queryByText(/npm/)).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'What is in a registration file' }).getAttribute('href')).toBe(
      '/api/docs',
    );
    await chooseDepartment(user, dialog, 'Dispatch');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await within(dialog).findByText('Registration file is required.')).toBeTruthy();

    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.accept).toBe('.dat');
    await user.upload(input, datFile());
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await screen.findByRole('dialog', { name: 'Your new license key' })).toBeTruthy();
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.url).toBe('/api/account/from-file');
    const body = formOf(post);
    expect(body.get('company')).toBe('5');
    expect(body.get('license')).toBe('9');
    expect(body.get('department')).toBe('3');
    const file = body.get('regFile') as File;
    expect(file.name).toBe('amara.dat');
    expect(await file.text()).toBe('{"format":"opsdeck-registration"}');
  });

  /** The page, whose generations from a file are refused with each key in turn (on the file field too, with `onField`). */
  function refuseInTurn(refusals: readonly (readonly [string, string])[], onField: boolean) {
    let next = 0;
    api({
      ...departments,
      'POST /api/account/from-file': () => {
        const [key] = refusals[next] ?? refusals[0]!;
        return { status: 400, body: errorBody(key, key, onField ? { regFile: key } : undefined) };
      },
    });
    return {
      next: () => {
        next += 1;
      },
    };
  }

  it('toasts each key generation refusal of spec section 8, the general error otherwise, and closes', async () => {
    const refusals = [
      ['ERROR_LICENSE_EXPIRED_KEY', 'The license has expired.'],
      ['ERROR_COMPANY_FULL_LICENSES', 'Company has already reached its allowed key count.'],
      ['ERROR_DEPARTMENT_NOT_EXIST', 'Oops! Something went wrong in processing your request.'],
    ] as const;
    const answered = refuseInTurn(refusals, false);
    const user = userEvent.setup();
    await openPage();
    for (const [, text] of refusals) {
      const dialog = await openGenerate(user, 'Generate from file');
      await chooseDepartment(user, dialog, 'Dispatch');
      await user.upload(dialog.querySelector('input[type=file]') as HTMLInputElement, datFile());
      await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      const toast = await screen.findByText(text, { selector: '.mantine-Notification-description' });
      expect(toast).toBeTruthy();
      expect(screen.queryByRole('dialog', { name: 'Your new license key' })).toBeNull();
      answered.next();
    }
  });

  it('keeps the dialog open with a refused registration file on its field, the department kept', async () => {
    const refusals = [
      ['ERROR_ACCOUNT_REGFILE_INVALID', 'Registration file is not valid.'],
      ['ERROR_ACCOUNT_REGFILE_REQUIRED', 'Registration file is required.'],
      ['ERROR_ACCOUNT_REGFILE_UNSUPPORTED', 'Registration file must be a .dat file.'],
    ] as const;
    const answered = refuseInTurn(refusals, true);
    const user = userEvent.setup();
    await openPage();
    const dialog = await openGenerate(user, 'Generate from file');
    await chooseDepartment(user, dialog, 'Dispatch');
    for (const [, text] of refusals) {
      await user.upload(dialog.querySelector('input[type=file]') as HTMLInputElement, datFile());
      await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
      const field = within(dialog).getByRole('button', { name: /^Registration file/ });
      await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
      const described = (field.getAttribute('aria-describedby') ?? '').split(' ');
      const error = described.find((id) => id.endsWith('-error'));
      expect(document.getElementById(error ?? '')?.textContent).toBe(text);
      expect(screen.getByRole('dialog', { name: 'Generate key from a registration file' })).toBe(dialog);
      expect(within(dialog).getByRole('combobox', { name: /^Department/ })).toHaveProperty('value', 'Dispatch');
      expect(screen.queryByText(text, { selector: '.mantine-Notification-description' })).toBeNull();
      answered.next();
    }
  });

  it('toasts a licence that does not exist and goes back to the company page', async () => {
    api({ 'GET /api/license/company/license': () => ({ status: 404, body: errorBody('ERROR_LICENSE_NOT_EXIST') }) }, [
      ...ALL,
      'ACCESS_COMPANY_LICENSE_PAGE',
    ]);
    const { router } = renderApp(PATH);
    expect(await screen.findByText('The license does not exist.', {}, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/license/companies/5'));
  });

  it('offers export only for keys made from a file, and saves the file under the name the server gives', async () => {
    const { fetch: fake, calls } = api();
    const base = fake.getMockImplementation();
    fake.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/api/account/export-license-file/1') {
        calls.push({ method: 'GET', url: String(input), headers: new Headers(init?.headers), body: undefined });
        return new Response('-----BEGIN OPSDECK LICENSE-----\n', {
          headers: {
            'Content-Disposition': `attachment; filename="Amara_Okoye.lic"; filename*=UTF-8''Amara%20Okoye.lic`,
          },
        });
      }
      return (base as typeof fetch)(input, init);
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:console/7');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const user = userEvent.setup();
    await openPage();
    expect(screen.queryByRole('button', { name: 'Export the license file of ODK-BBBB-…-0002' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Export the license file of ODK-AAAA-…-0001' }));
    await waitFor(() => expect(saved).toEqual(['Amara Okoye.lic']));
    const exported = calls.find((call) => call.url.startsWith('/api/account/export-license-file'));
    expect(exported?.headers.get('x-tenant-id')).toBe('tenant-northwind');
  });

  it('invalidates a key and deletes one, each after a confirmation', async () => {
    const { calls } = api({
      'POST /api/account/invalidate': () => ({ body: { ok: true } }),
      'DELETE /api/license/company/5/license/9/account/2': () => ({ body: { ok: true } }),
    });
    const user = userEvent.setup();
    await openPage();
    // An invalidated key cannot be invalidated again.
    expect(screen.queryByRole('button', { name: 'Invalidate ODK-BBBB-…-0002' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Invalidate ODK-AAAA-…-0001' }));
    const confirm = await screen.findByRole('dialog', { name: 'Invalidate key' });
    await user.click(within(confirm).getByRole('button', { name: 'Invalidate' }));
    expect(await screen.findByText('Successfully invalidated ODK-AAAA-…-0001')).toBeTruthy();
    const invalidate = calls.find((call) => call.url === '/api/account/invalidate');
    expect(Object.fromEntries(formOf(invalidate).entries())).toEqual({ company: '5', license: '9', account: '1' });

    await user.click(screen.getByRole('button', { name: 'Delete ODK-BBBB-…-0002' }));
    const remove = await screen.findByRole('dialog', { name: 'Delete key' });
    await user.click(within(remove).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Successfully deleted ODK-BBBB-…-0002')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });

  it('disables generation on an expired licence, saying why', async () => {
    api({ 'GET /api/license/company/license': () => ({ body: buildLicense({ expired: true }) }) });
    const user = userEvent.setup();
    await openPage();
    const button = screen.getByRole('button', { name: /^Generate keys: / });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-label')).toContain('The license has expired');
    await user.click(button);
    expect(screen.queryByRole('menuitem')).toBeNull();
  });

  it('shows no generation and no row actions without their authorities', async () => {
    api({}, ['ACCESS_COMPANY_LICENSE_KEY_PAGE']);
    const { table } = await openPage();
    expect(screen.queryByRole('button', { name: /Generate keys/ })).toBeNull();
    expect(within(table).queryAllByRole('button', { name: /^(Export|Invalidate|Delete) / })).toHaveLength(0);
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});
