import { ActionIcon, Group, Menu } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { DirectoryItem } from '@opsdeck/contract/workflows';
import {
  IconDots,
  IconDownload,
  IconEye,
  IconFilePlus,
  IconFolderOpen,
  IconFolderPlus,
  IconPencil,
  IconTrash,
} from '@tabler/icons-react';
import { type ReactElement, type ReactNode, type SyntheticEvent, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { HistoryMenuItem } from '../../components/history-link';
import { truncateText } from '../../lib/truncate';
import type { Availability, ItemActions } from './workflow-access';

export interface ItemMenuHandlers {
  open: () => void;
  edit: () => void;
  download: () => void;
  remove: () => void;
  createWorkflow: () => void;
  createDirectory: () => void;
}

interface ItemContextMenuProps {
  /** The items the menu acts on: the selection after the right-click; none on the table's background. */
  items: readonly DirectoryItem[];
  actions: ItemActions;
  on: ItemMenuHandlers;
  /** The element a right-click (or the keyboard's menu key on a row) opens the menu on. */
  children: ReactElement;
}

function Action({
  availability,
  icon,
  onClick,
  danger,
  children,
}: {
  availability: Availability;
  icon: ReactNode;
  onClick: () => void;
  danger?: boolean;
  children: ReactNode;
}) {
  if (availability === 'hidden') return null;
  return (
    <Menu.Item
      leftSection={icon}
      onClick={onClick}
      disabled={availability === 'disabled'}
      color={danger ? 'red.9' : undefined}
    >
      {children}
    </Menu.Item>
  );
}

/** What an action says for the items: one workflow, one directory, or several. */
function useLabels(items: readonly DirectoryItem[]) {
  const { t } = useTranslation();
  const [first] = items;
  const kind = items.length > 1 ? 'several' : first?.type === 'directory' ? 'directory' : 'workflow';
  return {
    menu:
      items.length === 0
        ? t('workflows.menu.here')
        : items.length === 1 && first
          ? t('workflows.menu.one', { name: truncateText(first.name, LIMITS.truncate.navigationName) })
          : t('workflows.menu.several', { count: items.length }),
    open: t(kind === 'directory' ? 'workflows.menu.openDirectory' : 'workflows.menu.openWorkflow'),
    edit: t(`workflows.menu.edit.${kind}`),
    download: t(`workflows.menu.download.${kind}`),
    remove: t(`workflows.menu.remove.${kind === 'several' ? 'several' : 'one'}`),
  };
}

/** The menu's entries for the items: open, edit or rename, download, delete, and create here. */
function ItemMenuEntries({
  items,
  actions,
  on,
}: {
  items: readonly DirectoryItem[];
  actions: ItemActions;
  on: ItemMenuHandlers;
}) {
  const { t } = useTranslation();
  const labels = useLabels(items);
  const [first] = items;
  const offered = Object.values(actions).some((availability) => availability !== 'hidden');
  return (
    <>
      <Action
        availability={actions.open}
        icon={first?.type === 'directory' ? <IconFolderOpen size={16} /> : <IconEye size={16} />}
        onClick={on.open}
      >
        {labels.open}
      </Action>
      <Action availability={actions.edit} icon={<IconPencil size={16} />} onClick={on.edit}>
        {labels.edit}
      </Action>
      <Action availability={actions.download} icon={<IconDownload size={16} />} onClick={on.download}>
        {labels.download}
      </Action>
      <Action availability={actions.remove} icon={<IconTrash size={16} />} onClick={on.remove} danger>
        {labels.remove}
      </Action>
      {items.length === 1 && first?.type === 'workflow' && first.id !== null && (
        <HistoryMenuItem entityType="workflow" entityId={first.id} />
      )}
      <Action availability={actions.create} icon={<IconFilePlus size={16} />} onClick={on.createWorkflow}>
        {t('workflows.menu.createWorkflow')}
      </Action>
      <Action availability={actions.create} icon={<IconFolderPlus size={16} />} onClick={on.createDirectory}>
        {t('workflows.menu.createDirectory')}
      </Action>
      {!offered && <Menu.Item disabled>{t('workflows.menu.nothing')}</Menu.Item>}
    </>
  );
}

/**
 * The workflow table's context menu (spec section 2), at the pointer: open, edit or rename,
 * download, delete, and create here, each as the five workflow authorities allow (an action the
 * user lacks the authority for shows disabled).
 */
export function ItemContextMenu({ items, actions, on, children }: ItemContextMenuProps) {
  const labels = useLabels(items);
  const labelId = useId();
  return (
    <>
      {/* The menu's name; kept outside it, where a menu may hold only its items. */}
      <span id={labelId} hidden>
        {labels.menu}
      </span>
      <Menu position="bottom-start" withinPortal>
        <Menu.ContextMenu>{children}</Menu.ContextMenu>
        <Menu.Dropdown aria-labelledby={labelId}>
          <ItemMenuEntries items={items} actions={actions} on={on} />
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

/** Keeps the row's own handlers (select on click, open on double-click or Enter, arrows) off the button and its menu. */
const keepFromRow = (event: SyntheticEvent) => event.stopPropagation();

/**
 * A row's actions button (the '…' at its end): the same menu as a right-click, for one item, for
 * touch (a phone has no right-click, and a tap only selects) and the keyboard alike. It is a Tab
 * stop only in the row that holds the table's Tab stop (`tabbable`), so the table stays two Tab
 * presses wide. Its menu acts on its row, whatever else is selected.
 */
export function ItemActionsButton({
  item,
  actions,
  on,
  tabbable,
}: {
  item: DirectoryItem;
  actions: ItemActions;
  on: Pick<ItemMenuHandlers, 'open' | 'edit' | 'download' | 'remove'>;
  tabbable: boolean;
}) {
  const labels = useLabels([item]);
  const noop = () => {};
  return (
    <Group justify="flex-end" onClick={keepFromRow} onDoubleClick={keepFromRow} onKeyDown={keepFromRow}>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={labels.menu} tabIndex={tabbable ? 0 : -1}>
            <IconDots size={18} aria-hidden="true" />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown aria-label={labels.menu}>
          <ItemMenuEntries
            items={[item]}
            actions={{ ...actions, create: 'hidden' }}
            on={{ ...on, createWorkflow: noop, createDirectory: noop }}
          />
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
