import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { renderWithProviders } from '../test/render';
import { ListPageHeader } from './list-page-header';

const list = { search: 'ana', preset: null, custom: null, setSearch: () => {} } as never;

describe("a list page's Download CSV button", () => {
  it("downloads the table's list call as CSV with the page's filter, and a POST list with its body", async () => {
    const { calls } = fakeApi({
      'GET /api/user/get-user-list': () => ({
        text: 'fullName\r\n',
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="users-2030-01-02.csv"' },
      }),
      'POST /api/directory/view': () => ({ text: 'name\r\n', headers: { 'Content-Type': 'text/csv' } }),
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:console/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { unmount } = renderWithProviders(
      <ListPageHeader
        title="Users"
        searchPlaceholder="Search"
        list={list}
        csv={{ path: '/user/get-user-list', query: { sort: 'email,desc', search: 'ana' }, fallbackName: 'users.csv' }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['users-2030-01-02.csv']));
    expect(calls[0]?.url).toBe('/api/user/get-user-list?sort=email%2Cdesc&search=ana&format=csv');
    unmount();

    renderWithProviders(
      <ListPageHeader
        title="Workflows"
        searchPlaceholder="Search"
        list={list}
        csv={{
          path: '/directory/view',
          query: {},
          fallbackName: 'workflows.csv',
          request: { method: 'POST', body: { parent: 'Workflows', search: 'x' }, tenantId: null },
        }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['users-2030-01-02.csv', 'workflows.csv']));
    expect(calls[1]?.url).toBe('/api/directory/view?format=csv');
    expect(calls[1]?.body).toEqual({ parent: 'Workflows', search: 'x' });
  });

  it('is not there when the page gives no list call', () => {
    renderWithProviders(<ListPageHeader title="Users" searchPlaceholder="Search" list={list} />);
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });
});
