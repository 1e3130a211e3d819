import { Group, Title } from '@mantine/core';
import { SearchBar } from './search-bar/search-bar';

interface ListPageHeaderProps {
  title: string;
  searchPlaceholder: string;
  onSearch: (text: string) => void;
  /** The server searches the list: typing waits for the search bar's debounce instead of filtering per key. */
  serverSearch?: boolean;
}

/** A list page's title with its text search beside it. */
export function ListPageHeader({ title, searchPlaceholder, onSearch, serverSearch = false }: ListPageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap">
      <Title order={1} fz={26}>
        {title}
      </Title>
      <div style={{ flex: '0 1 420px' }}>
        <SearchBar
          withRange={false}
          debounceMs={serverSearch ? undefined : 0}
          placeholder={searchPlaceholder}
          onChange={(value) => onSearch(value.text)}
        />
      </div>
    </Group>
  );
}
