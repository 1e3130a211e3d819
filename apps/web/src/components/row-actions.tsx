import { ActionIcon, Group, type MantineSpacing, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { Column } from './data-table/data-table';
import { HistoryLink, type HistoryTarget } from './history-link';

interface RowActionsProps {
  /** The edit icon's accessible name, naming the row (e.g. 'Edit Sales'). */
  editLabel: string;
  deleteLabel: string;
  /** Hover texts; none shows no tooltip. */
  editTooltip?: string;
  deleteTooltip?: string;
  /** None hides the icon (the viewer lacks the authority). */
  onEdit?: () => void;
  onDelete?: () => void;
  /**
   * Why this row cannot be deleted (a built-in role, one's own account, a department head): the
   * icon shows disabled with the reason as its tooltip, instead of offering a delete the server
   * refuses.
   */
  deleteBlockedReason?: string;
  /** The row's entity: a 'History' link to its audit records, for a viewer with VIEW_AUDIT_LOG. */
  history?: HistoryTarget;
  gap?: MantineSpacing;
}

/** A row's edit (pencil) and delete (red bin) icons of the list pages. */
export function RowActions({
  editLabel,
  deleteLabel,
  editTooltip,
  deleteTooltip,
  onEdit,
  onDelete,
  deleteBlockedReason,
  history,
  gap = 4,
}: RowActionsProps) {
  return (
    <Group gap={gap} justify="flex-end" wrap="nowrap">
      {history && <HistoryLink {...history} />}
      {onEdit && (
        <WithTooltip label={editTooltip}>
          <ActionIcon variant="subtle" aria-label={editLabel} onClick={onEdit}>
            <IconPencil size={18} />
          </ActionIcon>
        </WithTooltip>
      )}
      {onDelete && !deleteBlockedReason && (
        <WithTooltip label={deleteTooltip}>
          <ActionIcon variant="subtle" color="red" aria-label={deleteLabel} onClick={onDelete}>
            <IconTrash size={18} />
          </ActionIcon>
        </WithTooltip>
      )}
      {onDelete && deleteBlockedReason && (
        // data-disabled rather than disabled: a disabled button gets no hover or focus, so its
        // tooltip, the reason, could never show (Mantine's advice for tooltips on disabled buttons).
        <Tooltip label={deleteBlockedReason}>
          <ActionIcon
            variant="subtle"
            color="red"
            data-disabled
            aria-disabled="true"
            aria-label={`${deleteLabel}: ${deleteBlockedReason}`}
            onClick={(event) => event.preventDefault()}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

function WithTooltip({ label, children }: { label?: string; children: ReactNode }) {
  return label ? <Tooltip label={label}>{children}</Tooltip> : children;
}

/** The list tables' last column, of each row's actions. */
export function actionsColumn<T>(header: string, render: (row: T) => ReactNode): Column<T> {
  return { key: 'actions', header, align: 'right', width: 110, render };
}

interface AreaActions<T> {
  /** The area whose strings label the actions: `<area>.actions`, `.edit`, `.editNamed`, `.delete`, `.deleteNamed`. */
  area: string;
  /** The row's name, for the icons' accessible names ('Edit Sales'). */
  name: (row: T) => string;
  /** None when the viewer lacks the authority: the icon is not shown. */
  onEdit?: (row: T) => void;
  onDelete?: (row: T) => void;
  /** Rows the viewer may not change (not of a department they head) show no actions. */
  changeable?: (row: T) => boolean;
  /** Why a row cannot be deleted: its bin shows disabled with the reason. */
  deleteBlocked?: (row: T) => string | undefined;
  /** What a row shows instead of its actions (a built-in status's badge), when it returns something. */
  instead?: (row: T) => ReactNode;
  /** Each row's 'History' link (rowHistory of history-link.tsx); none for a viewer without VIEW_AUDIT_LOG. */
  history?: (row: T) => HistoryTarget;
}

/**
 * An area's actions column: each row's edit and delete icons with the area's strings, or no column
 * at all for a viewer who may neither edit, delete nor see a history. Spread it into the columns.
 */
export function areaActionsColumn<T>(t: TFunction, actions: AreaActions<T>): Column<T>[] {
  const { area, name, onEdit, onDelete, changeable, deleteBlocked, instead, history } = actions;
  if (!onEdit && !onDelete && !history) return [];
  return [
    actionsColumn(t(`${area}.actions`), (row: T) => {
      const replaced = instead?.(row);
      if (replaced) return replaced;
      if (changeable && !changeable(row)) return history ? <HistoryLink {...history(row)} /> : null;
      return (
        <RowActions
          editLabel={t(`${area}.editNamed`, { name: name(row) })}
          editTooltip={t(`${area}.edit`)}
          onEdit={onEdit && (() => onEdit(row))}
          deleteLabel={t(`${area}.deleteNamed`, { name: name(row) })}
          deleteTooltip={t(`${area}.delete`)}
          onDelete={onDelete && (() => onDelete(row))}
          deleteBlockedReason={deleteBlocked?.(row)}
          history={history?.(row)}
        />
      );
    }),
  ];
}
