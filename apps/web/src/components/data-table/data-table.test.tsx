import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { type Column, DataTable } from './data-table';
import type { SortChange, SortState } from './table-state';

interface Person {
  id: number;
  name: string;
  age: number;
}

const people = (count: number): Person[] =>
  Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `Person ${String(index + 1).padStart(3, '0')}`,
    age: (index * 37) % 90,
  }));

const columns: Column<Person>[] = [
  { key: 'name', header: 'Name', value: (row) => row.name, sortable: true },
  { key: 'age', header: 'Age', value: (row) => row.age, sortable: true },
];

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'People' }))
    .getAllByRole('row')
    .slice(1);
const firstCells = () => bodyRows().map((row) => within(row).getAllByRole('cell')[0]?.textContent);
const pageButtons = () =>
  within(screen.getByRole('navigation', { name: 'Pagination' }))
    .getAllByRole('button')
    .map((button) => button.getAttribute('aria-label'));

describe('DataTable, client side', () => {
  it('shows 10 rows a page with page links, an ellipsis, previous and next', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DataTable label="People" columns={columns} rows={people(95)} rowKey={(row) => row.id} />);
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('Showing 1–10 of 95')).toBeTruthy();
    expect(pageButtons()).toEqual([
      'Previous page',
      'Page 1',
      'Page 2',
      'Page 3',
      'Page 4',
      'Page 5',
      'Page 10',
      'Next page',
    ]);
    expect(screen.getAllByText('…')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(firstCells()[0]).toBe('Person 041');
    expect(pageButtons()).toEqual(['Previous page', 'Page 1', 'Page 4', 'Page 5', 'Page 6', 'Page 10', 'Next page']);
    expect(screen.getAllByText('…')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Page 5' }).getAttribute('aria-current')).toBe('page');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(firstCells()[0]).toBe('Person 051');
    await user.click(screen.getByRole('button', { name: 'Page 10' }));
    expect(bodyRows()).toHaveLength(5);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(firstCells()[0]).toBe('Person 081');
  });

  it('sorts by a header, ascending then descending, and back to the first page', async () => {
    const user = userEvent.setup();
    const rows = [
      { id: 1, name: 'Charlie', age: 30 },
      { id: 2, name: 'alice', age: 9 },
      { id: 3, name: 'Bob', age: 100 },
    ];
    renderWithProviders(<DataTable label="People" columns={columns} rows={rows} rowKey={(row) => row.id} />);
    const ageHeader = screen.getByRole('columnheader', { name: /Age/ });
    expect(ageHeader.getAttribute('aria-sort')).toBe('none');

    await user.click(screen.getByRole('button', { name: 'Age' }));
    expect(ageHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(firstCells()).toEqual(['alice', 'Charlie', 'Bob']);

    await user.click(screen.getByRole('button', { name: 'Age' }));
    expect(ageHeader.getAttribute('aria-sort')).toBe('descending');
    expect(firstCells()).toEqual(['Bob', 'Charlie', 'alice']);

    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(firstCells()).toEqual(['alice', 'Bob', 'Charlie']);
    expect(ageHeader.getAttribute('aria-sort')).toBe('none');
  });

  it("shows 'No matching records found.' or the area's own empty text", () => {
    const { unmount } = renderWithProviders(
      <DataTable label="People" columns={columns} rows={[]} rowKey={(row) => row.id} />,
    );
    expect(screen.getByText('No matching records found.')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    unmount();
    renderWithProviders(
      <DataTable label="People" columns={columns} rows={[]} rowKey={(row) => row.id} emptyText="No users yet." />,
    );
    expect(screen.getByText('No users yet.')).toBeTruthy();
  });

  it('truncates long cell text with ... and keeps the whole text for screen readers', () => {
    const long = 'A'.repeat(60);
    renderWithProviders(
      <DataTable label="People" columns={columns} rows={[{ id: 1, name: long, age: 1 }]} rowKey={(row) => row.id} />,
    );
    expect(screen.getByText(`${'A'.repeat(50)}...`)).toBeTruthy();
    expect(screen.getByText(long)).toBeTruthy();
  });
});

type Reports = { onPage: (page: number) => void; onSort: (sort: SortState) => void };

/** The page and sort held by the test, as a page holds them, with each change reported. */
function useHeldState({ onPage, onSort }: Reports, initialPage: number, initialSort: SortState | null) {
  const [page, setPage] = useState(initialPage);
  const [sort, setSort] = useState(initialSort);
  return {
    page,
    onPageChange: (next: number) => {
      onPage(next);
      setPage(next);
    },
    sort,
    onSortChange: (change: SortChange) => {
      const next = change(sort);
      onSort(next);
      setSort(next);
    },
  };
}

function ServerTable(reports: Reports) {
  const held = useHeldState(reports, 3, null);
  // The server answers one page; the table must show it as given, not slice or sort it again.
  const rows = people(10).map((row) => ({
    ...row,
    id: row.id + (held.page - 1) * 10,
    name: `Server ${held.page}-${row.id}`,
  }));
  return (
    <DataTable
      mode="server"
      label="People"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
      total={250}
      {...held}
    />
  );
}

describe('DataTable, server side', () => {
  it('asks the caller for pages and sorts, and shows the rows it is given', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    const onSort = vi.fn();
    renderWithProviders(<ServerTable onPage={onPage} onSort={onSort} />);
    expect(screen.getByText('Showing 21–30 of 250')).toBeTruthy();
    expect(firstCells()[0]).toBe('Server 3-1');
    expect(pageButtons()).toContain('Page 25');

    await user.click(screen.getByRole('button', { name: 'Page 4' }));
    expect(onPage).toHaveBeenCalledWith(4);
    expect(firstCells()[0]).toBe('Server 4-1');

    await user.click(screen.getByRole('button', { name: 'Name' }));
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(onSort).toHaveBeenNthCalledWith(1, { key: 'name', direction: 'asc' });
    expect(onSort).toHaveBeenNthCalledWith(2, { key: 'name', direction: 'desc' });
    expect(firstCells()[0]).toBe('Server 4-1');
  });

  it('says "more than" when the server counted only up to its cap', () => {
    renderWithProviders(
      <DataTable
        mode="server"
        label="People"
        columns={columns}
        rows={people(10)}
        rowKey={(row) => row.id}
        total={10_000}
        totalCapped
        page={1}
        onPageChange={() => {}}
        sort={null}
        onSortChange={() => {}}
      />,
    );
    expect(screen.getByText('Showing 1–10 of more than 10000')).toBeTruthy();
  });
});

function SelectableTable({ rows, onChange }: { rows: Person[]; onChange: (ids: (string | number)[]) => void }) {
  const [selected, setSelected] = useState<(string | number)[]>([]);
  return (
    <DataTable
      label="People"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
      selection={{
        selectable: (row) => row.age >= 18,
        selected,
        onChange: (ids) => {
          onChange(ids);
          setSelected(ids);
        },
        selectAllLabel: 'Select all',
        rowLabel: (row) => `Select ${row.name}`,
      }}
    />
  );
}

describe('DataTable, row selection', () => {
  const rows: Person[] = [
    { id: 1, name: 'Adult One', age: 30 },
    { id: 2, name: 'Child', age: 9 },
    { id: 3, name: 'Adult Two', age: 40 },
  ];

  it('shows checkboxes only on selectable rows and selects them one by one', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<SelectableTable rows={rows} onChange={onChange} />);
    expect(screen.getByRole('checkbox', { name: 'Select Adult One' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Select Child' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Select Adult Two' }));
    expect(onChange).toHaveBeenLastCalledWith([3]);
    expect((screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByRole('checkbox', { name: 'Select Adult Two' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('selects and clears every selectable row with the select-all toggle', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<SelectableTable rows={rows} onChange={onChange} />);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(onChange).toHaveBeenLastCalledWith([1, 3]);
    expect((screen.getByRole('checkbox', { name: 'Select Adult One' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('disables the toggle when no row is selectable', () => {
    renderWithProviders(<SelectableTable rows={[rows[1]!]} onChange={vi.fn()} />);
    expect((screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement).disabled).toBe(true);
  });
});

function HeldTable(reports: Reports) {
  const held = useHeldState(reports, 2, { key: 'name', direction: 'desc' });
  return <DataTable label="People" columns={columns} rows={people(25)} rowKey={(row) => row.id} {...held} />;
}

describe('DataTable, client side with the state held by the page (the URL)', () => {
  it('sorts and pages the list at the page and sort it is given, and reports changes', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    const onSort = vi.fn();
    renderWithProviders(<HeldTable onPage={onPage} onSort={onSort} />);
    // Page 2 of the names in descending order: 025 … 016, then 015 … 006.
    expect(firstCells()[0]).toBe('Person 015');
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPage).toHaveBeenCalledWith(3);
    expect(firstCells()[0]).toBe('Person 005');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(onSort).toHaveBeenCalledWith({ key: 'name', direction: 'asc' });
  });
});

/** happy-dom's window can be resized; its type is not in the DOM library's. */
const setViewport = (size: { width: number; height: number }) =>
  (
    window as unknown as { happyDOM: { setViewport: (size: { width: number; height: number }) => void } }
  ).happyDOM.setViewport(size);

describe('DataTable, columns by priority', () => {
  const prioritized: Column<Person>[] = [
    { key: 'name', header: 'Name', value: (row) => row.name },
    { key: 'age', header: 'Age', value: (row) => row.age, priority: 3 },
  ];
  const headers = () => screen.getAllByRole('columnheader').map((cell) => cell.textContent);

  it('drops the columns of lower priority on a narrow screen', async () => {
    const render = () =>
      renderWithProviders(<DataTable label="People" columns={prioritized} rows={people(2)} rowKey={(row) => row.id} />);
    const wide = render();
    await waitFor(() => expect(headers()).toEqual(['Name', 'Age']));
    wide.unmount();
    setViewport({ width: 360, height: 700 });
    try {
      render();
      await waitFor(() => expect(headers()).toEqual(['Name']));
    } finally {
      setViewport({ width: 1024, height: 768 });
    }
  });
});
