import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../../test/builders';
import { renderApp } from '../../test/render';
import {
  ALL_WORKFLOW_AUTHORITIES,
  buildDirectory,
  buildWorkflowItem,
  companyTree,
  directoryView,
  FINANCE,
  viewCalls,
  workflowFile,
} from './test-data';

const PAGE = '/dashboard/workflow/list';

async function openPage(query = '') {
  const view = renderApp(`${PAGE}${query}`);
  const table = await screen.findByRole('table', { name: 'Workflows and directories' }, { timeout: 15_000 });
  await waitFor(() => expect(within(table).getAllByRole('row').length).toBeGreaterThan(1));
  return { ...view, table };
}

const rowOf = (table: HTMLElement, name: RegExp) => within(table).getByRole('row', { name });
const selectedNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-selected') === 'true')
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

async function openMenuOn(row: HTMLElement) {
  fireEvent.contextMenu(row);
  return screen.findByRole('menu');
}

const menuItems = (menu: HTMLElement) =>
  Object.fromEntries(
    within(menu)
      .getAllByRole('menuitem')
      .map((item) => [item.textContent, !(item as HTMLButtonElement).disabled]),
  );

describe('workflows page', { timeout: 60_000 }, () => {
  it('searches below the directory, jumps back with a breadcrumb level, and drilling into a folder clears the search', async () => {
    const { calls } = signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const user = userEvent.setup();
    const { table, router } = await openPage('?path=Workflows/Finance&q=invoice');

    // The search lists the hits of Finance and below, each with its own directory.
    expect(viewCalls(calls)[0]).toEqual({ parent: FINANCE, page: 1, size: 10, search: 'invoice' });
    expect(calls.find((call) => call.url === '/api/directory/view')?.headers.has('x-tenant-id')).toBe(false);
    expect((screen.getByRole('textbox', { name: 'Search' }) as HTMLInputElement).value).toBe('invoice');
    expect(within(table).getByRole('columnheader', { name: 'Path' })).toBeTruthy();
    expect(within(rowOf(table, /Vendor invoices/)).getByText(`${FINANCE}/Invoices`)).toBeTruthy();

    const trail = screen.getByRole('navigation', { name: 'Directory path' });
    expect(within(trail).getByText('Finance').closest('[aria-current]')?.getAttribute('aria-current')).toBe('location');
    await user.click(within(trail).getByRole('link', { name: 'Workflows' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(rowOf(table, /HR/)).toBeTruthy());
    expect(viewCalls(calls).at(-1)).toEqual({ parent: 'Workflows', page: 1, size: 10 });
    // A company user's root offers no search (spec: fewer than 2 levels).
    expect(screen.queryByRole('search')).toBeNull();

    await user.dblClick(rowOf(table, /Directory Finance/));
    await waitFor(() => expect(router.state.location.search).toBe('?path=Workflows%2FFinance'));
    await waitFor(() => expect(rowOf(table, /Payroll/)).toBeTruthy());
    expect((screen.getByRole('textbox', { name: 'Search' }) as HTMLInputElement).value).toBe('');
    expect(viewCalls(calls).at(-1)).toEqual({ parent: FINANCE, page: 1, size: 10 });
    expect(within(table).queryByRole('columnheader', { name: 'Path' })).toBeNull();

    // Back returns to the root, as the levels are history entries.
    router.navigate(-1);
    await waitFor(() => expect(rowOf(table, /HR/)).toBeTruthy());
  });

  it('shows the last five levels of a deep path, with an ellipsis that jumps back to the one before', async () => {
    const deep = 'Workflows/A/B/C/D/E/F';
    signedIn(ALL_WORKFLOW_AUTHORITIES, {
      'POST /api/directory/view': directoryView({ [deep]: [buildWorkflowItem(9, 'Deep', deep)] }, () => 'tenant-acme'),
    });
    await openPage(`?path=${deep}`);
    const trail = screen.getByRole('navigation', { name: 'Directory path' });
    expect(
      within(trail)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['…', 'B', 'C', 'D', 'E']);
    expect(within(trail).getByText('F')).toBeTruthy();
    const earlier = within(trail).getByRole('link', { name: 'Earlier levels, back to A' });
    expect(earlier.getAttribute('href')).toBe(`${PAGE}?path=Workflows%2FA`);
  });

  it('selects one row on a click, toggles with ctrl, selects a range with shift, and from the keyboard', async () => {
    signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const { table, router } = await openPage('?path=Workflows/Finance');
    const [invoices, intake, payroll, reconcile] = [/Invoices/, /Invoice intake/, /Payroll/, /Reconcile/].map((name) =>
      rowOf(table, name),
    ) as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];

    fireEvent.click(intake);
    expect(selectedNames(table)).toEqual(['WorkflowInvoice intakePremium']);
    fireEvent.click(reconcile, { ctrlKey: true });
    expect(selectedNames(table)).toHaveLength(2);
    expect(reconcile.getAttribute('aria-selected')).toBe('true');
    // Shift selects from the last row clicked (Reconcile) to this one.
    fireEvent.click(invoices, { shiftKey: true });
    expect([invoices, intake, payroll, reconcile].map((row) => row.getAttribute('aria-selected'))).toEqual([
      'true',
      'true',
      'true',
      'true',
    ]);
    fireEvent.click(intake, { metaKey: true });
    expect(selectedNames(table)).toHaveLength(3);
    expect(intake.getAttribute('aria-selected')).toBe('false');
    // Shift alone replaces the selection by the range from the anchor (Invoice intake, clicked last).
    fireEvent.click(payroll, { shiftKey: true });
    expect([invoices, intake, payroll, reconcile].map((row) => row.getAttribute('aria-selected'))).toEqual([
      'false',
      'true',
      'true',
      'false',
    ]);
    fireEvent.click(payroll);
    expect([invoices, intake, payroll, reconcile].map((row) => row.getAttribute('aria-selected'))).toEqual([
      'false',
      'false',
      'true',
      'false',
    ]);
    expect(payroll.style.backgroundColor).not.toBe('');

    // The rows are one Tab stop; Space toggles, arrows move, Enter opens.
    expect(payroll.tabIndex).toBe(0);
    expect(intake.tabIndex).toBe(-1);
    payroll.focus();
    fireEvent.keyDown(payroll, { key: ' ' });
    expect(payroll.getAttribute('aria-selected')).toBe('false');
    fireEvent.keyDown(payroll, { key: 'Home' });
    expect(document.activeElement).toBe(invoices);
    fireEvent.keyDown(invoices, { key: 'Enter' });
    await waitFor(() => expect(router.state.location.search).toBe('?path=Workflows%2FFinance%2FInvoices'));
    await waitFor(() => expect(rowOf(table, /Vendor invoices/)).toBeTruthy());
  });

  it('offers the context menu actions the five authorities allow, on the row right-clicked or the selection', async () => {
    signedIn(['ACCESS_WORKFLOW_TAB', 'VIEW_WORKFLOW', 'DOWNLOAD_WORKFLOW'], companyTree());
    const first = await openPage('?path=Workflows/Finance');
    const reader = await openMenuOn(rowOf(first.table, /Invoice intake/));
    expect(reader.getAttribute('aria-labelledby')).toBeTruthy();
    expect(screen.getByRole('menu', { name: 'Actions for Invoice intake' })).toBe(reader);
    expect(menuItems(reader)).toEqual({
      Open: true,
      Edit: false,
      Download: true,
      Delete: false,
      'Create workflow here': false,
      'Create directory here': false,
    });
    // No create menu for a user who may not create.
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    first.unmount();

    signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const { table } = await openPage('?path=Workflows/Finance');
    fireEvent.click(rowOf(table, /Payroll/));
    // A right-click on a row that is not selected selects it alone.
    const one = await openMenuOn(rowOf(table, /Directory Invoices/));
    expect(selectedNames(table)).toEqual(['DirectoryInvoices']);
    expect(menuItems(one)).toEqual({
      Open: true,
      Rename: true,
      'Download as zip': true,
      Delete: true,
      'Create workflow here': true,
      'Create directory here': true,
    });
    fireEvent.keyDown(one, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    fireEvent.click(rowOf(table, /Reconcile/), { ctrlKey: true });
    // On a selected row the menu acts on the whole selection; from the keyboard with Shift+F10.
    const payroll = rowOf(table, /Payroll/);
    fireEvent.click(payroll, { ctrlKey: true });
    fireEvent.keyDown(payroll, { key: 'F10', shiftKey: true });
    const several = await screen.findByRole('menu', { name: 'Actions for 3 items' });
    expect(menuItems(several)).toEqual({
      'Rename selected': true,
      'Download selected': true,
      'Delete selected': true,
      'Create workflow here': true,
      'Create directory here': true,
    });
  });

  it('gives the focus back to the rows after a folder opens and after a dialog is cancelled (issue 18)', async () => {
    signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const user = userEvent.setup();
    const { table } = await openPage('?path=Workflows/Finance');
    const focusedRow = () =>
      document.activeElement?.tagName === 'TR' && table.contains(document.activeElement)
        ? document.activeElement
        : null;

    const invoices = rowOf(table, /Directory Invoices/);
    invoices.focus();
    fireEvent.keyDown(invoices, { key: 'Enter' });
    await waitFor(() => expect(focusedRow()).toBe(rowOf(table, /Vendor invoices/)));

    // A dialog opened from the row's menu, closed with Escape: back on the row.
    const vendor = rowOf(table, /Vendor invoices/);
    fireEvent.keyDown(vendor, { key: 'F10', shiftKey: true });
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Create directory here' }));
    await screen.findByRole('dialog', { name: 'Create directory' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(focusedRow()).toBe(rowOf(table, /Vendor invoices/)));
  });

  it("offers a row's actions from its … button, by touch and keyboard alike, acting on that row alone", async () => {
    signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const user = userEvent.setup();
    const { table } = await openPage('?path=Workflows/Finance');
    fireEvent.click(rowOf(table, /Payroll/));
    const reconcile = rowOf(table, /Reconcile/);
    const button = within(reconcile).getByRole('button', { name: 'Actions for Reconcile' });
    // In the Tab order only in the row holding the table's Tab stop.
    expect(button.tabIndex).toBe(-1);
    expect(within(rowOf(table, /Payroll/)).getByRole('button', { name: 'Actions for Payroll' }).tabIndex).toBe(0);

    await user.click(button);
    const menu = await screen.findByRole('menu', { name: 'Actions for Reconcile' });
    expect(menuItems(menu)).toEqual({ Open: true, Edit: true, Download: true, Delete: true });
    // The button neither selects its row nor opens it.
    expect(selectedNames(table)).toEqual(['WorkflowPayroll']);

    await user.click(within(menu).getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete workflow' });
    expect(within(dialog).getByText(/Reconcile/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The button took the Tab stop to its row; the focus comes back there.
    await waitFor(() => expect(document.activeElement).toBe(rowOf(table, /Reconcile/)));
  });

  it('hides the search, edit and delete at the top levels: the admin above level 3, a company user at its root', async () => {
    const northwind = 'Workflows/Northwind Logistics';
    const tree = {
      Workflows: [buildDirectory('Northwind Logistics', 'Workflows', { protected: true })],
      [northwind]: [buildDirectory('Finance', northwind)],
      [`${northwind}/Finance`]: [buildWorkflowItem(7, 'Freight audit', `${northwind}/Finance`)],
    };
    const { calls } = signedIn(
      ALL_WORKFLOW_AUTHORITIES,
      { 'POST /api/directory/view': directoryView(tree, (path) => (path === 'Workflows' ? null : 'tenant-northwind')) },
      { company: null, tenantId: null },
    );
    const user = userEvent.setup();
    const root = await openPage();
    expect(screen.queryByRole('search')).toBeNull();
    // Nothing is created at the provider's root: it holds the company folders.
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    expect(menuItems(await openMenuOn(rowOf(root.table, /Northwind Logistics/)))).toEqual({
      Open: true,
      'Download as zip': true,
    });
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    await user.dblClick(rowOf(root.table, /Northwind Logistics/));
    await waitFor(() => expect(rowOf(root.table, /Directory Finance/)).toBeTruthy());
    expect(screen.queryByRole('search')).toBeNull();
    expect(menuItems(await openMenuOn(rowOf(root.table, /Directory Finance/)))).toEqual({
      Open: true,
      'Download as zip': true,
      'Create workflow here': true,
      'Create directory here': true,
    });
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    await user.dblClick(rowOf(root.table, /Directory Finance/));
    await waitFor(() => expect(rowOf(root.table, /Freight audit/)).toBeTruthy());
    expect(screen.getByRole('search')).toBeTruthy();
    expect(Object.keys(menuItems(await openMenuOn(rowOf(root.table, /Freight audit/))))).toContain('Delete');
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });

    // The admin acts on the company through its folder: calls carry that page's tenant.
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Create directory' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create directory' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Audits');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/directory/create')).toBe(true));
    const create = calls.find((call) => call.url === '/api/directory/create');
    expect(create?.body).toEqual({ name: 'Audits', parent: `${northwind}/Finance` });
    expect(create?.headers.get('x-tenant-id')).toBe('tenant-northwind');
    root.unmount();

    signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const company = await openPage();
    expect(screen.queryByRole('search')).toBeNull();
    expect(Object.keys(menuItems(await openMenuOn(rowOf(company.table, /Directory Finance/))))).not.toContain('Rename');
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await user.dblClick(rowOf(company.table, /Directory Finance/));
    await waitFor(() => expect(screen.getByRole('search')).toBeTruthy());
    expect(Object.keys(menuItems(await openMenuOn(rowOf(company.table, /Directory Invoices/))))).toContain('Rename');
  });

  it('hides and shows columns from the Columns menu, remembered in local storage across reloads', async () => {
    signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const user = userEvent.setup();
    const first = await openPage('?path=Workflows/Finance');
    expect(within(first.table).getByRole('columnheader', { name: 'Description' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const menu = await screen.findByRole('menu', { name: 'Columns' });
    const description = within(menu).getByRole('menuitemcheckbox', { name: 'Description' });
    expect(description.getAttribute('aria-checked')).toBe('true');
    await user.click(description);
    await user.click(within(menu).getByRole('menuitemcheckbox', { name: 'Updated by' }));
    expect(within(first.table).queryByRole('columnheader', { name: 'Description' })).toBeNull();
    expect(within(first.table).queryByRole('columnheader', { name: 'Updated by' })).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('opsdeck.workflowColumns') ?? 'null')).toEqual([
      'description',
      'updatedBy',
    ]);
    first.unmount();

    const second = await openPage('?path=Workflows/Finance');
    expect(within(second.table).queryByRole('columnheader', { name: 'Description' })).toBeNull();
    expect(within(second.table).getByRole('columnheader', { name: 'Size' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const again = await screen.findByRole('menu', { name: 'Columns' });
    expect(within(again).getByRole('menuitemcheckbox', { name: 'Description' }).getAttribute('aria-checked')).toBe(
      'false',
    );
    await user.click(within(again).getByRole('menuitemcheckbox', { name: 'Description' }));
    expect(within(second.table).getByRole('columnheader', { name: 'Description' })).toBeTruthy();
    expect(window.localStorage.getItem('opsdeck.workflowColumns')).toBe('["updatedBy"]');
  });

  it('sorts on the server by a header, says when a folder is empty, and leaves a directory that is not there', async () => {
    const { calls } = signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const user = userEvent.setup();
    const { table, router } = await openPage('?path=Workflows/Finance');
    await user.click(within(table).getByRole('columnheader', { name: 'Size' }));
    await waitFor(() => expect(viewCalls(calls).at(-1)?.sort).toBe('size,asc'));
    expect(router.state.location.search).toContain('sort=size');
    await user.dblClick(rowOf(table, /Directory Invoices/));
    await waitFor(() =>
      expect(viewCalls(calls).at(-1)).toEqual({ parent: `${FINANCE}/Invoices`, page: 1, size: 10, sort: 'size,asc' }),
    );

    await router.navigate(`${PAGE}?path=Workflows/HR`);
    expect(await within(table).findByText('This directory is empty.')).toBeTruthy();
    await router.navigate(`${PAGE}?path=Workflows/Gone`);
    expect(await screen.findByText('The directory does not exist. (Workflows/Gone)')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(rowOf(table, /Directory HR/)).toBeTruthy());
  });

  it('opens the create dialog with a file dropped on the table, where the user may create', async () => {
    signedIn(ALL_WORKFLOW_AUTHORITIES, companyTree());
    const { table } = await openPage('?path=Workflows/Finance');
    const file = workflowFile();
    const dataTransfer = { types: ['Files'], files: [file], dropEffect: 'none' };
    fireEvent.dragEnter(table, { dataTransfer });
    expect(screen.getByRole('status').textContent).toContain(
      'Drop a .rax file to create a workflow in Workflows/Finance',
    );
    fireEvent.drop(table, { dataTransfer });
    const dialog = await screen.findByRole('dialog', { name: 'Create workflow' });
    expect((within(dialog).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement).value).toBe('Invoice intake');
    expect(within(dialog).getByText('Invoice intake.rax')).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: 'Directory' }) as HTMLInputElement).value).toBe(FINANCE);
  });
});
