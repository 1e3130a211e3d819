import type { RowId } from './data-table';

/**
 * The selectable table's selection (spec section 2, Workflow list), as a file manager keeps it:
 * the rows selected, and the anchor a shift-click selects from (the last row clicked alone or
 * toggled).
 */
export interface Selection {
  ids: readonly RowId[];
  anchor: RowId | null;
}

export const NO_SELECTION: Selection = { ids: [], anchor: null };

export interface ClickModifiers {
  /** Ctrl (Cmd on a Mac): add or remove the row, keeping the others. */
  toggle: boolean;
  /** Shift: the rows from the anchor to this one. */
  range: boolean;
}

/** The selection after a click on `id`; `order` is the rows' ids as shown. */
export function clickSelection(current: Selection, id: RowId, order: readonly RowId[], modifiers: ClickModifiers) {
  if (modifiers.range) {
    const anchor = current.anchor !== null && order.includes(current.anchor) ? current.anchor : id;
    const [start, end] = [order.indexOf(anchor), order.indexOf(id)].sort((a, b) => a - b) as [number, number];
    const range = order.slice(start, end + 1);
    // Ctrl+Shift adds the range to what was selected; Shift alone replaces it.
    const ids = modifiers.toggle ? [...current.ids.filter((other) => !range.includes(other)), ...range] : range;
    return { ids, anchor };
  }
  if (modifiers.toggle) return toggleSelection(current, id);
  return { ids: [id], anchor: id };
}

/** Adds or removes one row (ctrl-click, Space), which becomes the anchor. */
export function toggleSelection(current: Selection, id: RowId): Selection {
  const ids = current.ids.includes(id) ? current.ids.filter((other) => other !== id) : [...current.ids, id];
  return { ids, anchor: id };
}

/** A right-click acts on the selection when it lands on a selected row, else on that row alone. */
export function contextSelection(current: Selection, id: RowId): Selection {
  return current.ids.includes(id) ? current : { ids: [id], anchor: id };
}
