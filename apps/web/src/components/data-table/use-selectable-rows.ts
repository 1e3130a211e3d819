import { type KeyboardEvent, type MouseEvent, useState } from 'react';
import type { RowId, RowProps } from './data-table';
import { clickSelection, contextSelection, NO_SELECTION, type Selection, toggleSelection } from './row-selection';

const ROW_KEY = 'data-row-key';

/** Context-menu events the table sent itself, already placed at their row. */
const placedMenuEvents = new WeakSet<Event>();

/**
 * Opens the context menu of the row from the keyboard: the event a right-click sends, placed
 * under the row's start, so that one handler (and Mantine's Menu.ContextMenu) serves both.
 */
function requestContextMenu(row: HTMLElement) {
  const box = row.getBoundingClientRect();
  const event = new window.MouseEvent('contextmenu', {
    bubbles: true,
    cancelable: true,
    clientX: box.left + 24,
    clientY: box.bottom,
  });
  placedMenuEvents.add(event);
  row.dispatchEvent(event);
}

function focusRowAt(from: HTMLElement, index: (current: number, count: number) => number) {
  const rows = [...(from.parentElement?.querySelectorAll<HTMLElement>(`[${ROW_KEY}]`) ?? [])];
  const target = rows[index(rows.indexOf(from), rows.length)];
  target?.focus();
}

interface SelectableRowsOptions<T> {
  /** The rows shown, in their order. */
  rows: readonly T[];
  rowKey: (row: T) => RowId;
  /** Another value (another folder, page or search) starts again with nothing selected. */
  scope: string;
  /** Double-click or Enter on a row. */
  onOpen: (row: T) => void;
}

interface State {
  scope: string;
  selection: Selection;
  /** The row that takes the Tab stop (one row at a time: a roving tabindex). */
  focused: number;
}

/**
 * The spec's selectable table (section 2, Workflow list), as the rows of a DataTable: a click
 * selects one row, ctrl/cmd-click toggles one, shift-click selects the range from the last row
 * clicked; selected rows are highlighted and aria-selected. From the keyboard the rows are one Tab
 * stop: arrows, Home and End move, Enter opens, Space toggles, ctrl+A selects the page, Escape
 * clears, and the context-menu key or Shift+F10 opens the menu a right-click opens. Spread
 * `rowProps` on the table and `surfaceProps` on the element the context menu listens on.
 */
export function useSelectableRows<T>({ rows, rowKey, scope, onOpen }: SelectableRowsOptions<T>) {
  const [state, setState] = useState<State>({ scope, selection: NO_SELECTION, focused: 0 });
  const current: State = state.scope === scope ? state : { scope, selection: NO_SELECTION, focused: 0 };
  const order = rows.map(rowKey);
  // Rows gone after a reload (deleted, renamed) drop out of the selection.
  const ids = current.selection.ids.filter((id) => order.includes(id));
  const selected = rows.filter((row) => ids.includes(rowKey(row)));
  const focused = Math.min(current.focused, Math.max(0, rows.length - 1));

  const update = (selection: Selection, at: number = focused) => setState({ scope, selection, focused: at });

  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, row: T, index: number) => {
    const id = rowKey(row);
    const key = event.key;
    if (key === 'ContextMenu' || (key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      requestContextMenu(event.currentTarget);
    } else if (key === 'Enter') {
      event.preventDefault();
      onOpen(row);
    } else if (key === ' ') {
      event.preventDefault();
      update(toggleSelection(current.selection, id), index);
    } else if (key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End') {
      event.preventDefault();
      focusRowAt(event.currentTarget, (at, count) =>
        key === 'Home'
          ? 0
          : key === 'End'
            ? count - 1
            : Math.min(count - 1, Math.max(0, at + (key === 'ArrowDown' ? 1 : -1))),
      );
    } else if (key.toLowerCase() === 'a' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      update({ ids: order, anchor: current.selection.anchor }, index);
    } else if (key === 'Escape' && ids.length > 0) {
      update(NO_SELECTION, index);
    }
  };

  const rowProps = (row: T, index: number): RowProps => {
    const id = rowKey(row);
    const isSelected = ids.includes(id);
    return {
      [ROW_KEY]: String(id),
      'aria-selected': isSelected,
      tabIndex: index === focused ? 0 : -1,
      className: 'mantine-focus-auto',
      style: { backgroundColor: isSelected ? 'var(--mantine-primary-color-light)' : undefined, cursor: 'default' },
      // A shift-click selects rows, not the text between them.
      onMouseDown: (event: MouseEvent) => {
        if (event.shiftKey) event.preventDefault();
      },
      onClick: (event: MouseEvent) =>
        update(
          clickSelection(current.selection, id, order, {
            toggle: event.ctrlKey || event.metaKey,
            range: event.shiftKey,
          }),
          index,
        ),
      onDoubleClick: () => onOpen(row),
      onFocus: () => {
        if (index !== focused) update(current.selection, index);
      },
      onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => onKeyDown(event, row, index),
    };
  };

  /**
   * The right-click (or the keyboard's menu key) on the table: a row not selected is selected
   * alone first; outside the rows nothing stays selected. A keyboard's own context-menu event comes
   * at the window's corner (0, 0): it is sent again placed at the row.
   */
  const onContextMenu = (event: MouseEvent<HTMLElement>) => {
    const target = event.target as Element;
    // The menu itself (a portal, whose events bubble through React) is not the table.
    if (!event.currentTarget.contains(target)) return event.preventDefault();
    const row = target.closest<HTMLElement>(`[${ROW_KEY}]`);
    if (row && event.clientX === 0 && event.clientY === 0 && !placedMenuEvents.has(event.nativeEvent)) {
      event.preventDefault();
      return requestContextMenu(row);
    }
    const index = row ? order.findIndex((id) => String(id) === row.getAttribute(ROW_KEY)) : -1;
    const id = order[index];
    update(id === undefined ? NO_SELECTION : contextSelection(current.selection, id), index < 0 ? focused : index);
  };

  return {
    /** The selected rows, in the table's order. */
    selected,
    rowProps,
    surfaceProps: { onContextMenu },
    /** The key of the row that holds the Tab stop (a control inside it may share the stop). */
    tabStop: rows[focused] === undefined ? null : rowKey(rows[focused]),
    clear: () => update(NO_SELECTION),
  };
}
