import type { AuditRecord } from '@opsdeck/contract/audit';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ProfileContext } from '../../lib/profile-context';
import { buildUser } from '../../test/builders';
import { buildProfile, fakeApi, type RecordedCall } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render';
import { AuditPage } from './audit-page';

const AUDIT = '/api/audit';
const USERS = '/api/user/get-user-list';
const HEAD = ['VIEW_AUDIT_LOG', 'ACCESS_USER_TAB'];

function buildRecord(overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: 1,
    at: new Date(2026, 4, 6, 9, 30, 15).getTime(),
    actor: { type: 'user', id: 7, name: 'Maria Santos' },
    tenantId: 'tenant-northwind',
    companyName: 'Northwind',
    action: 'user.update',
    entityType: 'user',
    entityId: '12',
    entityName: 'Ada Byron',
    changes: [],
    address: '10.0.0.5',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    ...overrides,
  };
}

const renamed = buildRecord({
  id: 41,
  changes: [
    { field: 'firstName', before: 'Ada', after: 'Augusta' },
    { field: 'groups', before: ['Operators', 'Auditors'], after: ['Operators'] },
    { field: 'departmentId', before: null, after: 3 },
    { field: 'password', before: '[redacted]', after: '[redacted]' },
    { field: 'archived', before: false, after: true },
  ],
});
const byToken = buildRecord({
  id: 40,
  actor: { type: 'token', id: 7, name: 'Maria Santos (deploy)' },
  action: 'role.create',
  entityType: 'role',
  entityId: '3',
  entityName: 'Operators',
  tenantId: null,
  companyName: null,
});

const pageOf = (items: AuditRecord[], total = items.length) => ({ items, total, page: 1, size: 10 });

function LocationProbe() {
  const location = useLocation();
  return <output aria-label="query">{location.search}</output>;
}

type Handlers = Parameters<typeof fakeApi>[0];

function renderPage({
  auths = HEAD,
  companyId = 5 as number | null,
  path = '/dashboard/management/audit',
  handlers = {} as Handlers,
} = {}) {
  const api = fakeApi({
    [`GET ${AUDIT}`]: () => ({ body: pageOf([renamed, byToken]) }),
    [`GET ${USERS}`]: () => ({
      body: [buildUser({ id: 7, completeName: 'Maria Santos' }), buildUser({ id: 12, completeName: 'Ada Byron' })],
    }),
    ...handlers,
  });
  const company = companyId === null ? null : { id: companyId, name: 'Northwind', tenantId: 'tenant-northwind' };
  const view = renderWithProviders(
    <ProfileContext.Provider value={buildProfile({ auths, company })}>
      <AuditPage />
      <LocationProbe />
    </ProfileContext.Provider>,
    { path },
  );
  return { ...view, ...api, user: userEvent.setup() };
}

const queryOf = (call: RecordedCall) => Object.fromEntries(new URL(call.url, 'http://console.test').searchParams);
const callsTo = (calls: RecordedCall[], path: string) => calls.filter((call) => call.url.split('?')[0] === path);
const lastQuery = (calls: RecordedCall[], path: string) => queryOf(callsTo(calls, path).at(-1)!);
const location = () => new URLSearchParams(screen.getByRole('status', { name: 'query' }).textContent ?? '');
const rowsOf = () =>
  within(screen.getByRole('table', { name: 'Audit log' }))
    .getAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryAllByRole('cell').length > 1);
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

async function pick(user: ReturnType<typeof userEvent.setup>, select: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: select }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('audit page', () => {
  it('asks for the first page of 10, newest first, and shows time, person, action, entity and address', async () => {
    const { calls } = renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit Log' })).toBeTruthy();
    await waitFor(() => expect(rowsOf()).toHaveLength(2));
    expect(lastQuery(calls, AUDIT)).toEqual({ page: '1', size: '10' });
    expect(cells(rowsOf()[0]!)).toEqual([
      '2026/05/06 09:30:15',
      'Maria Santos',
      'User changed',
      'User Ada Byron',
      '10.0.0.5',
    ]);
    // A token's record says so beside the person's name.
    expect(cells(rowsOf()[1]!)[1]).toBe('Maria Santos (deploy)API token');
    // A company head sees their own company's records: no company column.
    expect(screen.queryByRole('columnheader', { name: 'Company' })).toBeNull();
  });

  it("shows the provider each record's company", async () => {
    renderPage({ auths: [...HEAD, 'ADMIN_ACCESS_LEVEL'], companyId: null });
    await waitFor(() => expect(rowsOf()).toHaveLength(2));
    expect(screen.getByRole('columnheader', { name: 'Company' })).toBeTruthy();
    expect(cells(rowsOf()[0]!)[2]).toBe('Northwind');
    expect(cells(rowsOf()[1]!)[2]).toBe('Provider');
  });

  it('puts the action and the entity type into the URL and the request, from page 1', async () => {
    const { calls, user } = renderPage({ path: '/dashboard/management/audit?page=3' });
    await waitFor(() => expect(rowsOf()).toHaveLength(2));
    expect(lastQuery(calls, AUDIT).page).toBe('3');

    await pick(user, 'Action', 'User changed');
    await waitFor(() => expect(lastQuery(calls, AUDIT)).toEqual({ page: '1', size: '10', action: 'user.update' }));
    expect(location().get('action')).toBe('user.update');
    expect(location().has('page')).toBe(false);

    await pick(user, 'Entity type', 'User');
    await waitFor(() => expect(lastQuery(calls, AUDIT).entityType).toBe('user'));
    // The action chosen is one of the user's: it stays.
    expect(lastQuery(calls, AUDIT).action).toBe('user.update');

    // Another type drops an action of another type.
    await pick(user, 'Entity type', 'Role');
    await waitFor(() => expect(lastQuery(calls, AUDIT).entityType).toBe('role'));
    expect(lastQuery(calls, AUDIT).action).toBeUndefined();
    expect(location().has('action')).toBe(false);
  });

  it('reads the users for the person filter once it opens, and filters by the user picked', async () => {
    const { calls, user } = renderPage();
    await waitFor(() => expect(rowsOf()).toHaveLength(2));
    expect(callsTo(calls, USERS)).toHaveLength(0);
    await pick(user, 'Person', 'Ada Byron');
    await waitFor(() => expect(lastQuery(calls, AUDIT)).toEqual({ page: '1', size: '10', actor: '12' }));
    expect(location().get('actor')).toBe('12');
  });

  it('sends the search and the range of the shared search bar', async () => {
    const { calls } = renderPage({
      path: '/dashboard/management/audit?q=ada&range=custom&from=1000&to=2000&action=role.create',
    });
    await waitFor(() =>
      expect(lastQuery(calls, AUDIT)).toEqual({
        page: '1',
        size: '10',
        search: 'ada',
        from: '1000',
        to: '2000',
        action: 'role.create',
      }),
    );
    expect((screen.getByRole('combobox', { name: 'Action' }) as HTMLInputElement).value).toBe('Role created');
  });

  it("opens on one entity's history from its link, and shows every record again on request", async () => {
    const { calls, user } = renderPage({ path: '/dashboard/management/audit?entityType=user&entityId=12' });
    await waitFor(() => expect(lastQuery(calls, AUDIT)).toMatchObject({ entityType: 'user', entityId: '12' }));
    expect(await screen.findByText('History of User Ada Byron')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show every record' }));
    await waitFor(() => expect(lastQuery(calls, AUDIT)).toEqual({ page: '1', size: '10' }));
    expect(screen.queryByText(/History of/)).toBeNull();
  });

  it('opens a readable before/after view of a row, by click and by Enter', async () => {
    const { user } = renderPage();
    await waitFor(() => expect(rowsOf()).toHaveLength(2));
    await user.click(rowsOf()[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'User changed: User Ada Byron' });
    expect(location().get('record')).toBe('41');
    expect(within(dialog).getByText('2026/05/06 09:30:15')).toBeTruthy();
    expect(within(dialog).getByText('Mozilla/5.0 (X11; Linux x86_64)')).toBeTruthy();

    const changes = within(dialog).getByRole('table', { name: 'Changes' });
    const rows = within(changes)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [within(row).getByRole('rowheader').textContent, ...cells(row)]);
    expect(rows).toEqual([
      ['First name', 'Ada', 'Augusta'],
      ['Groups', 'Operators, Auditors', 'Operators'],
      ['Department id', '—none', '3'],
      ['Password', 'hidden', 'hidden'],
      ['Archived', 'No', 'Yes'],
    ]);
    expect(within(dialog).getByText('Secret values are never recorded.')).toBeTruthy();

    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location().has('record')).toBe(false);

    rowsOf()[1]!.focus();
    await user.keyboard('{Enter}');
    const second = await screen.findByRole('dialog', { name: 'Role created: Role Operators' });
    expect(within(second).getByText('This action changed no fields.')).toBeTruthy();
    expect(within(second).getByText('API token')).toBeTruthy();
  });

  it('downloads the filter as CSV through the shared button, without paging', async () => {
    const spies = [
      vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:console/1'),
      vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {}),
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {}),
    ];
    try {
      const { calls, user } = renderPage({
        path: '/dashboard/management/audit?action=user.update&entityType=user&entityId=12&page=2',
        handlers: {
          [`GET ${AUDIT}`]: (call) =>
            call.url.includes('format=csv')
              ? { text: 'id\r\n', headers: { 'Content-Type': 'text/csv' } }
              : { body: pageOf([renamed]) },
        },
      });
      await waitFor(() => expect(rowsOf()).toHaveLength(1));
      await user.click(screen.getByRole('button', { name: 'Download CSV' }));
      await waitFor(() =>
        expect(lastQuery(calls, AUDIT)).toEqual({
          action: 'user.update',
          entityType: 'user',
          entityId: '12',
          format: 'csv',
        }),
      );
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('reads a record named by the URL that is not on the page', async () => {
    const old = buildRecord({ id: 9, action: 'license.invalidate', entityType: 'license', entityName: 'Gold' });
    const { calls } = renderPage({
      path: '/dashboard/management/audit?record=9',
      handlers: { [`GET ${AUDIT}/9`]: () => ({ body: old }) },
    });
    expect(await screen.findByRole('dialog', { name: 'License invalidated: License Gold' })).toBeTruthy();
    expect(callsTo(calls, `${AUDIT}/9`)).toHaveLength(1);
  });
});
