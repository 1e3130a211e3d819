import { Card, Stack } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CsvDownloadButtonProps } from './csv-download-button';
import { type Column, DataTable } from './data-table/data-table';
import type { ListState } from './data-table/use-list-params';
import { ListPageHeader } from './list-page-header';
import { RowDialogs, type RowDialogsProps } from './row-dialogs';

interface AreaListPageProps<Row extends { id: number }, TKey extends QueryKey> extends RowDialogsProps<Row, TKey> {
  /** The area whose strings the page shows: `<area>.title`, `.searchPlaceholder`, `.create`, `.tableLabel`. */
  area: string;
  /** The page's list state (useListParams): search, sort and page in the URL. */
  list: ListState;
  columns: readonly Column<Row>[];
  /** The rows to show: the whole filtered list, or with `total` one page the server chose. */
  rows: readonly Row[];
  /** The server pages, sorts and searches: the number of matches. */
  total?: number;
  loading: boolean;
  /** The viewer holds the area's create authority. */
  canCreate: boolean;
  /** A different search placeholder than the area's (a company user's users page). */
  searchPlaceholder?: string;
  /** The table's 'Download CSV' button: its list call and filter (docs/csv-export.md). */
  csv?: CsvDownloadButtonProps;
  /** More of the page, below the table (the departments' tree). */
  children?: ReactNode;
}

/**
 * An area's list page (spec section 2): its title, search and create button, its table, and its
 * create, edit and delete dialogs. Each area passes its columns, rows and dialogs.
 */
export function AreaListPage<Row extends { id: number }, TKey extends QueryKey>({
  area,
  list,
  columns,
  rows,
  total,
  loading,
  canCreate,
  searchPlaceholder,
  csv,
  children,
  ...dialogs
}: AreaListPageProps<Row, TKey>) {
  const { t } = useTranslation();
  const common = { columns, rows, rowKey: (row: Row) => row.id, label: t(`${area}.tableLabel`), loading };
  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t(`${area}.title`)}
        searchPlaceholder={searchPlaceholder ?? t(`${area}.searchPlaceholder`)}
        serverSearch={total !== undefined}
        list={list}
        csv={csv}
        create={canCreate ? { label: t(`${area}.create`), onClick: dialogs.dialogs.create } : undefined}
      />
      <Card withBorder radius="md" padding="md">
        {total === undefined ? (
          <DataTable {...list.table} {...common} />
        ) : (
          <DataTable mode="server" {...list.table} {...common} total={total} />
        )}
      </Card>
      {children}
      <RowDialogs {...dialogs} />
    </Stack>
  );
}
