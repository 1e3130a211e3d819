import {
  type Announcements,
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { SimpleGrid, Stack } from '@mantine/core';
import type { WidgetColumn, WidgetKey } from '@opsdeck/contract/monitor';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { columnId, columnOf, columnOfId, dragTo, hideWidget, type Layout, sameLayout } from './layout';
import { WidgetBody } from './widget-body';
import { WIDGET_MIN_HEIGHT, WidgetCard } from './widget-card';
import { widgetTitle } from './widget-title';

function Column({ column, keys, children }: { column: WidgetColumn; keys: readonly WidgetKey[]; children: ReactNode }) {
  const { t } = useTranslation();
  const { setNodeRef } = useDroppable({ id: columnId(column) });
  return (
    <SortableContext id={columnId(column)} items={[...keys]} strategy={verticalListSortingStrategy}>
      <Stack
        component="ul"
        ref={setNodeRef}
        gap="md"
        mih={WIDGET_MIN_HEIGHT}
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label={t('monitor.grid.column', { column })}
      >
        {children}
      </Stack>
    </SortableContext>
  );
}

/**
 * The two columns of widget cards (spec sections 2 and 9), sortable within and across columns by
 * mouse, touch and keyboard. While a card is dragged the grid shows where it would land; the
 * layout changes (and is saved) once it is dropped. A cancelled drag puts it back.
 */
export function WidgetGrid({ layout, onChange }: { layout: Layout; onChange: (next: Layout) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Layout | null>(null);
  const shown = draft ?? layout;
  const sensors = useSensors(
    // A few pixels before a drag starts, so that a click on the handle stays a click.
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const titleOf = (id: string | number) => widgetTitle(t, id as WidgetKey);
  const placeOf = (id: string | number) => {
    const column = columnOf(shown, id as WidgetKey) ?? 1;
    return { column, place: shown[column].indexOf(id as WidgetKey) + 1 };
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('monitor.grid.pickedUp', { title: titleOf(active.id) }),
    onDragOver: ({ active }) => t('monitor.grid.over', { title: titleOf(active.id), ...placeOf(active.id) }),
    onDragEnd: ({ active }) => t('monitor.grid.dropped', { title: titleOf(active.id), ...placeOf(active.id) }),
    onDragCancel: ({ active }) => t('monitor.grid.cancelled', { title: titleOf(active.id) }),
  };

  const onDragStart = (_event: DragStartEvent) => setDraft(layout);
  // Across columns the card moves while it is held, so that the other column makes room for it.
  const onDragOver = ({ active, over }: DragOverEvent) => {
    setDraft((current) => {
      const base = current ?? layout;
      const key = active.id as WidgetKey;
      const overId = over ? String(over.id) : null;
      const overColumn = overId === null ? null : (columnOfId(overId) ?? columnOf(base, overId as WidgetKey));
      if (overColumn === null || overColumn === columnOf(base, key)) return base;
      return dragTo(base, key, overId);
    });
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const base = draft ?? layout;
    const next = dragTo(base, active.id as WidgetKey, over ? String(over.id) : null);
    setDraft(null);
    if (!sameLayout(next, layout)) onChange(next);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCorners}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDraft(null)}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('monitor.grid.instructions') } }}
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" aria-label={t('monitor.grid.label')}>
        {([1, 2] as const).map((column) => (
          <Column key={column} column={column} keys={shown[column]}>
            {shown[column].map((key) => (
              <li key={key}>
                <WidgetCard widgetKey={key} onHide={(hidden) => onChange(hideWidget(layout, hidden))}>
                  <WidgetBody widgetKey={key} />
                </WidgetCard>
              </li>
            ))}
          </Column>
        ))}
      </SimpleGrid>
    </DndContext>
  );
}
