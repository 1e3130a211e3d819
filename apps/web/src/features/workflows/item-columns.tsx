import { Group, Text, VisuallyHidden } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { DirectoryItem } from '@opsdeck/contract/workflows';
import { IconFileCode, IconFolderFilled, IconLock } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/data-table/data-table';
import { Truncate } from '../../components/truncate';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { formatBytes } from '../../lib/file-size';
import { PremiumBadge } from './workflow-details';

/** A listing item's identity: its type, its directory and its name there (a search lists several directories). */
export const itemKey = (item: Pick<DirectoryItem, 'type' | 'parent' | 'fileName'>) =>
  `${item.type}:${item.parent}/${item.fileName}`;

/** The name column's content: the type's icon (read as a word), the name, and its marks. */
function ItemName({ item }: { item: DirectoryItem }) {
  const { t } = useTranslation();
  const folder = item.type === 'directory';
  return (
    <Group gap={8} wrap="nowrap">
      {folder ? (
        <IconFolderFilled size={18} color="var(--mantine-color-yellow-6)" aria-hidden="true" style={{ flex: 'none' }} />
      ) : (
        <IconFileCode size={18} color="var(--mantine-color-indigo-6)" aria-hidden="true" style={{ flex: 'none' }} />
      )}
      <VisuallyHidden>{t(folder ? 'workflows.types.directory' : 'workflows.types.workflow')}</VisuallyHidden>
      <Text span size="sm" fw={folder ? 600 : undefined}>
        <Truncate text={item.name} max={LIMITS.truncate.tableContent} />
      </Text>
      {item.premium && <PremiumBadge />}
      {item.protected && (
        <IconLock size={14} aria-label={t('workflows.protected')} role="img" style={{ flex: 'none' }} />
      )}
    </Group>
  );
}

const date = (value: number) => formatEpoch(value, DATE_FORMATS.dateTime);

/**
 * The workflow table's columns (spec section 2): type and name, description, file, size, created,
 * updated, updated by, and the hit's directory while searching. The server sorts by the name,
 * description, dates and size.
 */
export function itemColumns(t: TFunction, { searching }: { searching: boolean }): Column<DirectoryItem>[] {
  const columns: Column<DirectoryItem>[] = [
    {
      key: 'name',
      header: t('workflows.columns.name'),
      value: (item) => item.name,
      render: (item) => <ItemName item={item} />,
      sortable: true,
    },
    {
      key: 'description',
      header: t('workflows.columns.description'),
      value: (item) => item.description,
      sortable: true,
      priority: 2,
    },
    {
      key: 'file',
      header: t('workflows.columns.file'),
      value: (item) => (item.type === 'workflow' ? item.fileName : null),
      priority: 3,
    },
    {
      key: 'size',
      header: t('workflows.columns.size'),
      value: (item) => item.size,
      render: (item) => formatBytes(item.size),
      sortable: true,
      align: 'right',
      priority: 3,
    },
    {
      key: 'createDate',
      header: t('workflows.columns.created'),
      value: (item) => item.createDate,
      render: (item) => date(item.createDate),
      sortable: true,
      priority: 2,
    },
    {
      key: 'updateDate',
      header: t('workflows.columns.updated'),
      value: (item) => item.updateDate,
      render: (item) => date(item.updateDate),
      sortable: true,
      priority: 3,
    },
    { key: 'updatedBy', header: t('workflows.columns.updatedBy'), value: (item) => item.updatedBy, priority: 3 },
  ];
  if (searching)
    columns.push({ key: 'path', header: t('workflows.columns.path'), value: (item) => item.parent, priority: 2 });
  return columns;
}
