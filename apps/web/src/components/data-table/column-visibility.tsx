import { Button, Menu } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconColumns3 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Column } from './data-table';

/** The stored list of hidden column keys, or none for anything else (an older console, a hand edit). */
export function parseHiddenColumns(raw: string | undefined): string[] {
  try {
    const value: unknown = raw === undefined ? [] : JSON.parse(raw);
    return Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Which of a table's columns are hidden, remembered in local storage under `storageKey` (spec
 * section 9: the workflow table's column visibility). The hidden keys are stored, so that a column
 * added later shows.
 */
export function useHiddenColumns(storageKey: string) {
  const [hidden, setHidden] = useLocalStorage<string[]>({
    key: storageKey,
    defaultValue: [],
    // Read at once, so that a reload never flashes the columns the user hid.
    getInitialValueInEffect: false,
    deserialize: parseHiddenColumns,
  });
  return {
    hidden,
    toggle: (key: string) =>
      setHidden((current) => (current.includes(key) ? current.filter((other) => other !== key) : [...current, key])),
    /** The columns to show. */
    shown: <T,>(columns: readonly Column<T>[]) => columns.filter((column) => !hidden.includes(column.key)),
  };
}

interface ColumnsMenuProps<T> {
  /** The columns the user may hide or show. */
  columns: readonly Column<T>[];
  hidden: readonly string[];
  onToggle: (key: string) => void;
}

/** The 'Columns' button: a menu of the table's columns, each checked while shown. */
export function ColumnsMenu<T>({ columns, hidden, onToggle }: ColumnsMenuProps<T>) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal closeOnItemClick={false}>
      <Menu.Target>
        <Button variant="default" leftSection={<IconColumns3 size={16} aria-hidden="true" />}>
          {t('table.columns')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {columns.map((column) => (
          <Menu.CheckboxItem
            key={column.key}
            checked={!hidden.includes(column.key)}
            onChange={() => onToggle(column.key)}
          >
            {column.header}
          </Menu.CheckboxItem>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
