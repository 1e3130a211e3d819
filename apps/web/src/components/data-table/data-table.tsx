import { Checkbox, Group, Pagination, Table, Text, UnstyledButton, useMatches } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import { IconArrowsSort, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { type ComponentPropsWithoutRef, type CSSProperties, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Truncate } from '../truncate';
import {
  clampPage,
  nextSort,
  pageCount,
  pageSlice,
  type SortChange,
  type SortState,
  type SortValue,
  sortRows,
} from './table-state';

export interface Column<T> {
  key: string;
  /** Translated header text. */
  header: string;
  /** The cell's value: sorted on, and shown (truncated) when there is no `render`. */
  value?: (row: T) => SortValue;
  render?: (row: T) => ReactNode;
  sortable?: boolean;
  /** Characters before '...' for the default rendering; LIMITS.truncate.tableContent unless set. */
  truncate?: number | false;
  width?: CSSProperties['width'];
  align?: 'left' | 'center' | 'right';
  /**
   * Which columns a narrow screen drops first: 1 (the default) always shows, 2 from 576 px, 3 from
   * 768 px. Give the row's name and its actions 1; what stays is scrolled sideways with a visible bar.
   */
  priority?: ColumnPriority;
}

export type ColumnPriority = 1 | 2 | 3;

export type RowId = string | number;

/**
 * Optional row selection: a checkbox on each row the predicate allows, and a select-all toggle in
 * the header for those rows (all of them in client mode, the current page in server mode). The
 * caller holds the selected ids.
 */
export interface RowSelection<T> {
  selectable: (row: T) => boolean;
  selected: readonly RowId[];
  onChange: (ids: RowId[]) => void;
  /** Accessible names: the header toggle, and one row's checkbox. */
  selectAllLabel: string;
  rowLabel: (row: T) => string;
}

/** What a row element takes besides its cells: handlers, ARIA states, data attributes. */
export type RowProps = Omit<ComponentPropsWithoutRef<'tr'>, 'children'> & {
  [data: `data-${string}`]: string | number | boolean | undefined;
};

interface CommonProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** The table's accessible name. */
  label: string;
  /** Defaults to 'No matching records found.' (spec section 2, shared tables). */
  emptyText?: string;
  /** The rows are loading, or still the previous page's while the next one loads: `aria-busy`. */
  loading?: boolean;
  pageSize?: number;
  onRowClick?: (row: T) => void;
  selection?: RowSelection<T>;
  /** More of each row's element: the selectable table's handlers and states (useSelectableRows). */
  rowProps?: (row: T, index: number) => RowProps;
}

/**
 * The whole list is in memory: the table sorts and pages it. Its page and sort are its own unless
 * the caller holds them (`{...list.table}` of useListParams, which keeps them in the URL).
 */
export interface ClientTableProps<T> extends CommonProps<T> {
  mode?: 'client';
  initialSort?: SortState | null;
  page?: number;
  onPageChange?: (page: number) => void;
  sort?: SortState | null;
  onSortChange?: (change: SortChange) => void;
}

/** The server pages and sorts: `rows` is the current page, and the state is the caller's. */
export interface ServerTableProps<T> extends CommonProps<T> {
  mode: 'server';
  total: number;
  /** `total` is a floor: more rows match than the server counted (summary "of more than 10000"). */
  totalCapped?: boolean;
  page: number;
  onPageChange: (page: number) => void;
  sort: SortState | null;
  onSortChange: (change: SortChange) => void;
}

export type DataTableProps<T> = ClientTableProps<T> | ServerTableProps<T>;

const SCROLL_AREA = { type: 'auto', offsetScrollbars: 'x' } as const;

const SORT_BUTTON: CSSProperties = { display: 'block', width: '100%' };

const DotsIcon = ({ style }: { style?: CSSProperties }) => (
  <span style={{ ...style, display: 'inline-flex', alignItems: 'center', justifyContent: 'center' }}>…</span>
);

function SortIcon({ direction }: { direction: 'asc' | 'desc' | null }) {
  const props = { size: 14, stroke: 1.8, 'aria-hidden': true } as const;
  if (direction === 'asc') return <IconSortAscending {...props} />;
  if (direction === 'desc') return <IconSortDescending {...props} />;
  return <IconArrowsSort {...props} opacity={0.4} />;
}

function cellContent<T>(column: Column<T>, row: T): ReactNode {
  if (column.render) return column.render(row);
  const value = column.value?.(row);
  if (value === null || value === undefined || value === '') return '-';
  const text = String(value);
  return column.truncate === false ? (
    text
  ) : (
    <Truncate text={text} max={column.truncate ?? LIMITS.truncate.tableContent} />
  );
}

/**
 * The spec's paginated sortable table (10 per page, page links with ellipsis, previous and next,
 * an empty text), for a list in memory or a list the server pages.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const {
    columns: allColumns,
    rowKey,
    label,
    emptyText,
    loading = false,
    pageSize = LIMITS.pageSize,
    onRowClick,
    rowProps,
  } = props;
  const [clientPage, setClientPage] = useState(1);
  const [clientSort, setClientSort] = useState<SortState | null>(
    props.mode === 'server' ? null : (props.initialSort ?? null),
  );

  // The caller holds the state in server mode, and in client mode when it passes the handlers.
  const server = props.mode === 'server';
  const held = server || props.onPageChange !== undefined;
  const sort = server || props.onSortChange ? (props.sort ?? null) : clientSort;
  const total = server ? props.total : props.rows.length;
  const page = clampPage(held ? (props.page ?? 1) : clientPage, total, pageSize);
  // Narrow screens drop the columns of lower priority (see Column.priority).
  const shownPriority = useMatches<ColumnPriority>({ base: 1, xs: 2, sm: 3 });
  const columns = allColumns.filter((column) => (column.priority ?? 1) <= shownPriority);
  const pages = pageCount(total, pageSize);

  let visible: readonly T[] = props.rows;
  if (!server) {
    const valueAt = (row: T, key: string) => columns.find((column) => column.key === key)?.value?.(row);
    visible = pageSlice(sortRows(props.rows, sort, valueAt), page, pageSize);
  }

  const changePage = (next: number) => (held && props.onPageChange ? props.onPageChange(next) : setClientPage(next));
  const changeSort = (key: string) => {
    const change: SortChange = (current) => nextSort(current, key);
    if (props.onSortChange) props.onSortChange(change);
    else setClientSort(change);
    if (!held) setClientPage(1);
  };

  const { selection } = props;
  const selectedIds = new Set(selection?.selected ?? []);
  const selectableIds = selection ? props.rows.filter(selection.selectable).map(rowKey) : [];
  const allSelected = selectableIds.length > 0 && selectableIds.every((id) => selectedIds.has(id));
  const someSelected = selectableIds.some((id) => selectedIds.has(id));
  const toggleAll = () => {
    if (!selection) return;
    const rest = selection.selected.filter((id) => !selectableIds.includes(id));
    selection.onChange(allSelected ? rest : [...rest, ...selectableIds]);
  };
  const toggleRow = (id: RowId) => {
    if (!selection) return;
    selection.onChange(
      selectedIds.has(id) ? selection.selected.filter((other) => other !== id) : [...selection.selected, id],
    );
  };
  const columnCount = columns.length + (selection ? 1 : 0);

  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);

  return (
    <>
      {/* Wider than the screen, the table scrolls sideways with its scroll bar always shown. */}
      <Table.ScrollContainer minWidth={Math.min(640, columns.length * 120)} scrollAreaProps={SCROLL_AREA}>
        <Table highlightOnHover={Boolean(onRowClick)} verticalSpacing="sm" aria-label={label} aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={selection.selectAllLabel}
                    checked={allSelected}
                    indeterminate={someSelected && !allSelected}
                    disabled={selectableIds.length === 0}
                    onChange={toggleAll}
                  />
                </Table.Th>
              )}
              {columns.map((column) => {
                const direction = sort?.key === column.key ? sort.direction : null;
                return (
                  <Table.Th
                    key={column.key}
                    w={column.width}
                    ta={column.align}
                    // The whole cell sorts, not only its label: a click anywhere in it reaches this
                    // handler, and the button inside (Tab, Enter, Space) bubbles its click up to it.
                    onClick={column.sortable ? () => changeSort(column.key) : undefined}
                    style={column.sortable ? { cursor: 'pointer' } : undefined}
                    aria-sort={
                      column.sortable
                        ? direction === 'asc'
                          ? 'ascending'
                          : direction === 'desc'
                            ? 'descending'
                            : 'none'
                        : undefined
                    }
                  >
                    {column.sortable ? (
                      <UnstyledButton fw={600} fz="sm" style={SORT_BUTTON}>
                        <Group
                          gap={4}
                          wrap="nowrap"
                          component="span"
                          justify={
                            column.align === 'right' ? 'flex-end' : column.align === 'center' ? 'center' : undefined
                          }
                        >
                          {column.header}
                          <SortIcon direction={direction} />
                        </Group>
                      </UnstyledButton>
                    ) : (
                      column.header
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columnCount} ta="center" c="dimmed" py="xl">
                  {loading ? t('table.loading') : (emptyText ?? t('table.empty'))}
                </Table.Td>
              </Table.Tr>
            ) : (
              visible.map((row, index) => (
                <Table.Tr
                  key={rowKey(row)}
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  style={onRowClick ? { cursor: 'pointer' } : undefined}
                  {...rowProps?.(row, index)}
                >
                  {selection && (
                    <Table.Td w={40} onClick={(event) => event.stopPropagation()}>
                      {selection.selectable(row) && (
                        <Checkbox
                          aria-label={selection.rowLabel(row)}
                          checked={selectedIds.has(rowKey(row))}
                          onChange={() => toggleRow(rowKey(row))}
                        />
                      )}
                    </Table.Td>
                  )}
                  {columns.map((column) => (
                    <Table.Td key={column.key} ta={column.align}>
                      {cellContent(column, row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > 0 && (
        <Group justify="space-between" mt="md" gap="sm">
          <Text size="sm" c="dimmed">
            {t(server && props.totalCapped ? 'table.summaryCapped' : 'table.summary', { from: first, to: last, total })}
          </Text>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={page}
              onChange={changePage}
              siblings={1}
              boundaries={1}
              size="sm"
              dotsIcon={DotsIcon}
              aria-label={t('table.pagination')}
              component="nav"
              getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
              getControlProps={(control) =>
                control === 'previous'
                  ? { 'aria-label': t('table.previous') }
                  : control === 'next'
                    ? { 'aria-label': t('table.next') }
                    : {}
              }
            />
          )}
        </Group>
      )}
    </>
  );
}
