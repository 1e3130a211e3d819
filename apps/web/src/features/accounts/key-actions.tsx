import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconBan, IconFileDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HistoryLink } from '../../components/history-link';
import { RowActions } from '../../components/row-actions';

interface KeyActionsProps {
  /** The key's partial form, naming it in the icons' accessible names. */
  name: string;
  /** None: the icon is not shown (no authority, or nothing to do). */
  onInvalidate?: () => void;
  onExport?: () => void;
  exporting?: boolean;
  onDelete?: () => void;
  /** The key's id: a 'History' link to its audit records (shown with VIEW_AUDIT_LOG only). */
  historyId?: number;
}

/** A key's actions (spec section 2, Licence keys page): invalidate, export its licence file, delete. */
export function KeyActions({ name, onInvalidate, onExport, exporting = false, onDelete, historyId }: KeyActionsProps) {
  const { t } = useTranslation();
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {historyId !== undefined && <HistoryLink entityType="account" entityId={historyId} name={name} />}
      {onExport && (
        <Tooltip label={t('accounts.keys.export')}>
          <ActionIcon
            variant="subtle"
            aria-label={t('accounts.keys.exportNamed', { name })}
            onClick={onExport}
            loading={exporting}
          >
            <IconFileDownload size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {onInvalidate && (
        <Tooltip label={t('accounts.keys.invalidate')}>
          <ActionIcon
            variant="subtle"
            color="orange"
            aria-label={t('accounts.keys.invalidateNamed', { name })}
            onClick={onInvalidate}
          >
            <IconBan size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {onDelete && (
        <RowActions
          editLabel=""
          deleteLabel={t('accounts.keys.deleteNamed', { name })}
          deleteTooltip={t('accounts.keys.delete')}
          onDelete={onDelete}
        />
      )}
    </Group>
  );
}
