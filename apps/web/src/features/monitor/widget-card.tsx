import { useSortable } from '@dnd-kit/sortable';
import { ActionIcon, Card, Group, Title } from '@mantine/core';
import type { WidgetKey } from '@opsdeck/contract/monitor';
import { IconGripVertical, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { widgetTitle } from './widget-title';

/** Cards keep one height while their data loads, so the grid does not jump (docs/monitor.md). */
export const WIDGET_MIN_HEIGHT = 260;

/**
 * One widget of the grid: its title, a move handle (the drag and keyboard handle) and a close
 * button that hides it. A section named by its title, so each card is a landmark-like region.
 */
export function WidgetCard({
  widgetKey,
  onHide,
  children,
}: {
  widgetKey: WidgetKey;
  onHide: (key: WidgetKey) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const title = widgetTitle(t, widgetKey);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: widgetKey,
  });
  const titleId = `widget-title-${widgetKey}`;
  return (
    <Card
      ref={setNodeRef}
      component="section"
      aria-labelledby={titleId}
      data-widget={widgetKey}
      withBorder
      radius="md"
      padding="md"
      mih={WIDGET_MIN_HEIGHT}
      style={{
        transform: transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined,
        transition,
        opacity: isDragging ? 0.6 : undefined,
        zIndex: isDragging ? 1 : undefined,
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" mb="xs">
        <Group gap={4} wrap="nowrap" miw={0}>
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            aria-label={t('monitor.grid.move', { title })}
            style={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            <IconGripVertical size={18} aria-hidden />
          </ActionIcon>
          <Title order={3} size="h5" id={titleId} lineClamp={1}>
            {title}
          </Title>
        </Group>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={t('monitor.grid.hide', { title })}
          onClick={() => onHide(widgetKey)}
        >
          <IconX size={18} aria-hidden />
        </ActionIcon>
      </Group>
      <div style={{ flex: 1 }}>{children}</div>
    </Card>
  );
}
