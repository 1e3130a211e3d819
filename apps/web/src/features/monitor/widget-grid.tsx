import {
  type Announcements,
  closestCorners,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  type UniqueIdentifier,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import type { WidgetColumn, WidgetKey } from '@opsdeck/contract/monitor';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { columnId, columnOf, dragTo, hideWidget, type Layout, sameLayout } from './layout';
import { WidgetBody } from './widget-body';
import { WIDGET_MIN_HEIGHT, WidgetCard } from './widget-card';
import { widgetTitle } from './widget-title';

function Column({ column, keys, children }: { column: WidgetColumn; keys: readonly WidgetKey[]; children: ReactNode }) {
  const { t } = useTranslation();
  // Only an empty column is a drop target of its own: a column with cards is dropped on through
  // them, and as a target it would win the keyboard's moves within itself (it spans them all).
  const { setNodeRef } = useDroppable({ id: columnId(column), disabled: keys.length > 0 });
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

/** The card under the pointer while it is dragged: its title and body, not a second sortable. */
function DraggedCard({ widgetKey }: { widgetKey: WidgetKey }) {
  const { t } = useTranslation();
  return (
    // A picture of the held card: the announcements speak for it, so it is hidden from assistive technology.
    <Card
      withBorder
      radius="md"
      padding="md"
      shadow="lg"
      mih={WIDGET_MIN_HEIGHT}
      style={{ cursor: 'grabbing' }}
      aria-hidden
    >
      <Text fw={700} mb="xs" pl={32}>
        {widgetTitle(t, widgetKey)}
      </Text>
      <WidgetBody widgetKey={widgetKey} />
    </Card>
  );
}

/**
 * The two columns of widget cards (spec sections 2 and 9), sortable within and across columns by
 * mouse, touch and keyboard. The held card follows the pointer (or the arrow keys) as an overlay
 * while its own column makes room; the layout changes (and is saved) only once it is dropped, so
 * a cancelled drag changes nothing. Moving it between columns while held, as dnd-kit's
 * multi-container example does, made the two columns trade it back and forth without end.
 */
export function WidgetGrid({ layout, onChange }: { layout: Layout; onChange: (next: Layout) => void }) {
  const { t } = useTranslation();
  const [held, setHeld] = useState<WidgetKey | null>(null);
  const sensors = useSensors(
    // A few pixels before a drag starts, so that a click on the handle stays a click.
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const titleOf = (id: UniqueIdentifier) => widgetTitle(t, id as WidgetKey);
  /** Where the held card would land over `over`, as the announcements say it. */
  const landing = (id: UniqueIdentifier, over: UniqueIdentifier | null) => {
    const next = dragTo(layout, id as WidgetKey, over === null ? null : String(over));
    const column = columnOf(next, id as WidgetKey) ?? 1;
    return { title: titleOf(id), column, place: next[column].indexOf(id as WidgetKey) + 1 };
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('monitor.grid.pickedUp', { title: titleOf(active.id) }),
    onDragOver: ({ active, over }) => t('monitor.grid.over', landing(active.id, over?.id ?? null)),
    onDragEnd: ({ active, over }) => t('monitor.grid.dropped', landing(active.id, over?.id ?? null)),
    onDragCancel: ({ active }) => t('monitor.grid.cancelled', { title: titleOf(active.id) }),
  };

  const onDragStart = ({ active }: DragStartEvent) => setHeld(active.id as WidgetKey);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setHeld(null);
    const next = dragTo(layout, active.id as WidgetKey, over ? String(over.id) : null);
    if (!sameLayout(next, layout)) onChange(next);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCorners}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setHeld(null)}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('monitor.grid.instructions') } }}
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {([1, 2] as const).map((column) => (
          <Column key={column} column={column} keys={layout[column]}>
            {layout[column].map((key) => (
              <li key={key}>
                <WidgetCard widgetKey={key} onHide={(hidden) => onChange(hideWidget(layout, hidden))}>
                  <WidgetBody widgetKey={key} />
                </WidgetCard>
              </li>
            ))}
          </Column>
        ))}
      </SimpleGrid>
      <DragOverlay>{held ? <DraggedCard widgetKey={held} /> : null}</DragOverlay>
    </DndContext>
  );
}
