import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { CsvDownloadButton, type CsvDownloadButtonProps } from './csv-download-button';
import type { ListState } from './data-table/use-list-params';
import { type CreateAction, FloatingCreateButton } from './floating-create-button';
import type { RangePreset } from './search-bar/date-range';
import { SearchBar } from './search-bar/search-bar';

interface ListPageHeaderProps {
  title: string;
  searchPlaceholder: string;
  /** The page's list state (useListParams): the bar shows its search and writes it back. */
  list: Pick<ListState, 'search' | 'preset' | 'custom' | 'setSearch'>;
  /** The server searches the list: typing waits for the search bar's debounce instead of filtering per key. */
  serverSearch?: boolean;
  /** Adds the date range (spec's shared search bar), on its own row below the title. */
  withRange?: boolean;
  /** Leaves the search bar out where the page offers no search (the workflows' top levels). */
  withSearch?: boolean;
  initialPreset?: RangePreset;
  /** The table's 'Download CSV' button (docs/csv-export.md): its list call and filter. */
  csv?: CsvDownloadButtonProps;
  /** Other page actions, before the create button (e.g. a settings menu). */
  actions?: ReactNode;
  /** The create button; leave it out for a viewer who may not create. */
  create?: CreateAction;
}

/** A list page's title with its search, its actions and its create button, in the page's flow. */
export function ListPageHeader({
  title,
  searchPlaceholder,
  list,
  serverSearch = false,
  withRange = false,
  withSearch = true,
  initialPreset,
  csv,
  actions,
  create,
}: ListPageHeaderProps) {
  const search = (
    <SearchBar
      withRange={withRange}
      initialPreset={initialPreset}
      debounceMs={serverSearch ? undefined : 0}
      placeholder={searchPlaceholder}
      value={list}
      onChange={list.setSearch}
    />
  );
  return (
    <>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Group gap="sm" align="flex-end" wrap="nowrap" style={{ flex: withRange ? 'none' : '0 1 480px' }}>
          {withSearch && !withRange && <div style={{ flex: 1, minWidth: 0 }}>{search}</div>}
          {csv && <CsvDownloadButton {...csv} />}
          {actions}
          {create && <FloatingCreateButton {...create} />}
        </Group>
      </Group>
      {withSearch && withRange && search}
    </>
  );
}
