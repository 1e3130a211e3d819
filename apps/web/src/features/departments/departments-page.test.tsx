import type { Department } from '@opsdeck/contract/departments';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { reloadSessionFromStorage } from '../../lib/session';
import { buildProfile, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const ref = (id: number, name: string) => ({ id, name });
const department = (id: number, name: string, parent: { id: number; name: string } | null): Department => ({
  id,
  name,
  head: null,
  headId: null,
  parent,
  parentId: parent?.id ?? null,
  tenantId: 'tenant-acme',
  companyName: 'Acme Robotics',
  archived: false,
});

const departments = [
  department(1, 'Operations', null),
  department(2, 'Dispatch', ref(1, 'Operations')),
  department(3, 'Night shift', ref(2, 'Dispatch')),
  department(4, 'Finance', null),
];

function openDepartments() {
  window.localStorage.setItem('opsdeck.authToken', 'tok-1');
  reloadSessionFromStorage();
  fakeApi({
    'GET /api/user/profile/current-user': () => ({
      body: buildProfile({ auths: ['ACCESS_DEPARTMENT_TAB', 'VIEW_DEPARTMENT', 'COMPANY_ACCESS_LEVEL'] }),
    }),
    'GET /api/department': () => ({ body: departments }),
  });
  return renderApp('/dashboard/management/departments');
}

const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const cellTexts = (table: HTMLElement, column: number) =>
  bodyRows(table).map((row) => within(row).getAllByRole('cell')[column]?.textContent);

describe('the departments page', () => {
  it('shows and sorts by the Parent column', async () => {
    const user = userEvent.setup();
    openDepartments();
    const table = await screen.findByRole('table', { name: 'Departments' });
    await within(table).findByText('Night shift');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Head', 'Parent']);
    // Sorted by name: Dispatch, Finance, Night shift, Operations.
    expect(cellTexts(table, 2)).toEqual(['Operations', '-', 'Dispatch', '-']);

    await user.click(within(table).getByRole('button', { name: 'Parent' }));
    expect(cellTexts(table, 2)?.slice(0, 2)).toEqual(['Dispatch', 'Operations']);
  });

  it('narrows the tree to the matches and their ancestors as the search does the table', async () => {
    const user = userEvent.setup();
    openDepartments();
    const tree = await screen.findByRole('tree', { name: 'Department hierarchy' });
    await within(tree).findByText('Finance');
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'night');

    const narrowed = screen.getByRole('tree', { name: 'Department hierarchy' });
    expect(within(narrowed).queryByText('Finance')).toBeNull();
    expect(within(narrowed).getByText('Operations')).toBeTruthy();
    expect(within(narrowed).getByText('Night shift')).toBeTruthy();
    expect(within(narrowed).getByText('No children')).toBeTruthy();

    await user.clear(screen.getByRole('textbox', { name: 'Search' }));
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'nowhere');
    expect(screen.queryByRole('tree')).toBeNull();
    expect(screen.getByText('No department matches "nowhere".')).toBeTruthy();
  });
});
