import {
  DndContext,
  type DragEndEvent,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { ActionIcon, Badge, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import type { CatalogueActivity } from '@opsdeck/contract/activities';
import { IconArrowLeft, IconArrowRight, IconSearch, IconStarFilled } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { holds, isAdmin } from '../../lib/authorities';
import { notifyError } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { premiumActivitiesQueryOptions } from '../../resources/activities';
import { matchesActivity } from './activity-form-schema';
import { useSetPremium } from './api';

type ListId = 'regular' | 'premium';

/**
 * Spec section 2, Premium Activities: a search box and two lists, regular and premium. Dragging an
 * activity into the other list (or its arrow button, for the keyboard) makes it premium, unlocked
 * by the 'pro' licence type, or regular again; then both lists reload. Premium items show a star,
 * partial ones 'Limited'.
 */
export function PremiumActivitiesPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  // Only the provider changes the catalogue (docs/license-management.md).
  const canMove = isAdmin(viewer) && holds(viewer, 'EDIT_ACTIVITY');
  const [search, setSearch] = useState('');
  const catalogue = useQuery(premiumActivitiesQueryOptions());
  const setPremium = useSetPremium();
  // Pointer drags start after 5 px, so that a click on the arrow button is a click.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));

  const shown = (catalogue.data ?? []).filter((activity) => matchesActivity(activity, search));
  const move = (activity: CatalogueActivity, to: ListId) => {
    if (activity.premium === (to === 'premium')) return;
    setPremium.mutate(
      { id: activity.id, premium: to === 'premium' },
      { onError: (error) => notifyError(error, activity.name) },
    );
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const activity = catalogue.data?.find((item) => item.id === active.id);
    if (activity && over) move(activity, over.id as ListId);
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={26}>
          {t('activities.premiumTitle')}
        </Title>
        <TextInput
          label={t('search.text')}
          placeholder={t('activities.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={320}
        />
      </Group>
      <DndContext sensors={sensors} onDragEnd={onDragEnd}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {(['regular', 'premium'] as const).map((list) => (
            <ActivityList
              key={list}
              list={list}
              activities={shown.filter((activity) => activity.premium === (list === 'premium'))}
              loading={catalogue.isPending}
              onMove={canMove ? move : undefined}
            />
          ))}
        </SimpleGrid>
      </DndContext>
    </Stack>
  );
}

function ActivityList({
  list,
  activities,
  loading,
  onMove,
}: {
  list: ListId;
  activities: CatalogueActivity[];
  loading: boolean;
  onMove?: (activity: CatalogueActivity, to: ListId) => void;
}) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: list });
  const title = t(list === 'premium' ? 'activities.premiumList' : 'activities.regularList');
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      radius="md"
      p="md"
      bg={isOver ? 'var(--mantine-color-blue-light)' : undefined}
      role="region"
      aria-label={title}
    >
      <Title order={2} fz={18} mb="sm">
        {title} ({activities.length})
      </Title>
      <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0, minHeight: 120 }}>
        {!loading && activities.length === 0 && (
          <Text component="li" c="dimmed" size="sm">
            {t('table.empty')}
          </Text>
        )}
        {activities.map((activity) => (
          <ActivityItem key={activity.id} activity={activity} list={list} onMove={onMove} />
        ))}
      </Stack>
    </Paper>
  );
}

function ActivityItem({
  activity,
  list,
  onMove,
}: {
  activity: CatalogueActivity;
  list: ListId;
  onMove?: (activity: CatalogueActivity, to: ListId) => void;
}) {
  const { t } = useTranslation();
  const { listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: activity.id,
    disabled: !onMove,
  });
  const to: ListId = list === 'premium' ? 'regular' : 'premium';
  const moveLabel = t(to === 'premium' ? 'activities.makePremium' : 'activities.makeRegular', { name: activity.name });
  return (
    <Paper
      component="li"
      ref={setNodeRef}
      withBorder
      radius="sm"
      px="sm"
      py={6}
      data-testid="activity-item"
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        opacity: isDragging ? 0.6 : 1,
        cursor: onMove ? 'grab' : undefined,
        touchAction: 'none',
      }}
      // Dragged by the pointer only: the arrow button is the keyboard's way, so the item takes no
      // focus and no button role (dnd-kit's `attributes`), which would nest one button in another.
      {...listeners}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap={6} wrap="nowrap">
          {activity.premium && (
            <IconStarFilled
              size={16}
              color="var(--mantine-color-yellow-7)"
              role="img"
              aria-label={t('activities.premium')}
            />
          )}
          <Text size="sm">{activity.name}</Text>
          {activity.isPartial && (
            <Badge size="xs" variant="outline" color="gray.8">
              {t('activities.limited')}
            </Badge>
          )}
        </Group>
        {onMove && (
          <Tooltip label={moveLabel}>
            <ActionIcon variant="subtle" aria-label={moveLabel} onClick={() => onMove(activity, to)}>
              {to === 'premium' ? <IconArrowRight size={16} /> : <IconArrowLeft size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    </Paper>
  );
}
