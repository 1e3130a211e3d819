import { ColorSwatch, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table/data-table';

/**
 * Every table of the monitor (the table widgets and the one behind each chart): the console's
 * table, sorted by any header and 10 rows a page, named after its widget.
 */
export function WidgetTable<T>({
  title,
  columns,
  rows,
  rowKey,
}: {
  title: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
}) {
  const { t } = useTranslation();
  const sortable = columns.map((column) => ({ ...column, sortable: true }));
  return <DataTable columns={sortable} rows={rows} rowKey={rowKey} label={t('monitor.widget.tableOf', { title })} />;
}

/** A status's name after its colour (the colour is decoration: the name says it). */
export function ColoredName({ name, color }: { name: string; color: string }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ColorSwatch color={color} size={12} aria-hidden />
      {name}
    </Group>
  );
}
