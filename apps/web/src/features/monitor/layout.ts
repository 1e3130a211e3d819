import type { UpdateVisibleWidgets, VisibleWidget, WidgetColumn, WidgetKey } from '@opsdeck/contract/monitor';

/**
 * The dashboard's layout as the grid shows it: the visible widgets of each of the two columns,
 * top first (spec section 9: 2 grid columns). Hidden widgets are in neither.
 */
export type Layout = Readonly<Record<WidgetColumn, readonly WidgetKey[]>>;

export const EMPTY_LAYOUT: Layout = { 1: [], 2: [] };

/** A column's droppable id in the grid: an empty column can take a widget too. */
export const columnId = (column: WidgetColumn) => `column-${column}`;

/** The column a droppable id names, or null when it names a widget. */
export function columnOfId(id: string): WidgetColumn | null {
  return id === 'column-1' ? 1 : id === 'column-2' ? 2 : null;
}

/** The layout of the server's sixteen: the visible ones (order above 0) in their order, in their columns. */
export function layoutFromWidgets(widgets: readonly VisibleWidget[]): Layout {
  const visible = widgets.filter((widget) => widget.widgetOrder > 0).sort((a, b) => a.widgetOrder - b.widgetOrder);
  return {
    1: visible.filter((widget) => widget.widgetColumnNumber !== 2).map((widget) => widget.widgetKey),
    2: visible.filter((widget) => widget.widgetColumnNumber === 2).map((widget) => widget.widgetKey),
  };
}

/**
 * The update call's body for a layout: every visible widget listed, numbered in reading order
 * (row by row, column 1 first), so that a one-column view of the same orders reads as the grid does.
 * Nothing goes through `toAdd`: the console has already put new widgets at the end of column 1.
 */
export function layoutToBody(layout: Layout): UpdateVisibleWidgets {
  const currentVisibleWidgets: UpdateVisibleWidgets['currentVisibleWidgets'] = [];
  const rows = Math.max(layout[1].length, layout[2].length);
  for (let row = 0; row < rows; row += 1) {
    for (const column of [1, 2] as const) {
      const widgetKey = layout[column][row];
      if (widgetKey) {
        currentVisibleWidgets.push({
          widgetKey,
          widgetOrder: currentVisibleWidgets.length + 1,
          widgetColumnNumber: column,
        });
      }
    }
  }
  return { toAdd: [], currentVisibleWidgets };
}

/** The column a widget is shown in, or null when it is hidden. */
export function columnOf(layout: Layout, key: WidgetKey): WidgetColumn | null {
  if (layout[1].includes(key)) return 1;
  if (layout[2].includes(key)) return 2;
  return null;
}

export const isShown = (layout: Layout, key: WidgetKey) => columnOf(layout, key) !== null;

/** `key` hidden (the close button, or a toggle off). */
export function hideWidget(layout: Layout, key: WidgetKey): Layout {
  if (!isShown(layout, key)) return layout;
  return { 1: layout[1].filter((item) => item !== key), 2: layout[2].filter((item) => item !== key) };
}

/** `key` shown at the end of column 1, as the server adds a widget (docs/monitor.md). */
export function showWidget(layout: Layout, key: WidgetKey): Layout {
  if (isShown(layout, key)) return layout;
  return { ...layout, 1: [...layout[1], key] };
}

/** `key` moved to `index` of `column` (clamped to the column's length). */
export function moveWidget(layout: Layout, key: WidgetKey, column: WidgetColumn, index: number): Layout {
  const without = hideWidget(layout, key);
  const target = [...without[column]];
  target.splice(Math.max(0, Math.min(index, target.length)), 0, key);
  return { ...without, [column]: target };
}

/**
 * Where a dragged widget goes when it is over `overId` (a widget or a column): into the place of
 * the widget it is over (after it when coming from above in the same column, as a sortable list
 * moves), or at the end of the column it is over. Unchanged when over itself or nothing.
 */
export function dragTo(layout: Layout, key: WidgetKey, overId: string | null): Layout {
  if (overId === null || overId === key) return layout;
  const from = columnOf(layout, key);
  if (from === null) return layout;
  const overColumn = columnOfId(overId);
  if (overColumn !== null) {
    return from === overColumn ? layout : moveWidget(layout, key, overColumn, layout[overColumn].length);
  }
  const column = columnOf(layout, overId as WidgetKey);
  if (column === null) return layout;
  const index = layout[column].indexOf(overId as WidgetKey);
  return moveWidget(layout, key, column, index);
}

export function sameLayout(a: Layout, b: Layout): boolean {
  return ([1, 2] as const).every(
    (column) => a[column].length === b[column].length && a[column].every((key, index) => b[column][index] === key),
  );
}
