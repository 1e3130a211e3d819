import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { downloadCsv } from './csv-download';

describe('downloadCsv', () => {
  it("asks the list's own call for CSV with its filter, without paging, and saves it under the server's name", async () => {
    const { calls } = fakeApi({
      'GET /api/report/agent/logs': () => ({
        text: 'id\r\n',
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="runs.csv"' },
      }),
      'GET /api/user/get-user-list': () => ({ text: 'id\r\n', headers: { 'Content-Type': 'text/csv' } }),
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:console/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });

    const name = await downloadCsv(
      '/report/agent/logs',
      { from: 1, to: 2, search: 'sap', page: 3, size: 10, sort: 'executionStart,desc' },
      'fallback.csv',
    );
    expect(name).toBe('runs.csv');
    expect(calls[0]?.url).toBe('/api/report/agent/logs?from=1&to=2&search=sap&sort=executionStart%2Cdesc&format=csv');
    expect(calls[0]?.headers.get('Accept')).toBe('*/*');

    // Another table's list, with no name from the server: the fallback.
    expect(await downloadCsv('/user/get-user-list', { search: undefined }, 'users.csv')).toBe('users.csv');
    expect(saved).toEqual(['runs.csv', 'users.csv']);
  });
});
