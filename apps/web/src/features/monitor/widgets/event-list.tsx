import { Badge, Group, type MantineColor, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconAlarm,
  IconAlertTriangle,
  IconClockPause,
  IconCoffee,
  IconListCheck,
  IconLogin,
  IconLogout,
  IconPoint,
  IconUserOff,
  IconUserQuestion,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CHART_FRAME_HEIGHT } from './chart-frame';
import { formatMoment } from './format';
import type { ViewProps } from './view';

type Icon = typeof IconLogin;

/** How each kind of event looks; a kind this console does not know yet gets a plain dot. */
const KINDS: Record<string, { icon: Icon; color: MantineColor }> = {
  sign_in: { icon: IconLogin, color: 'teal' },
  sign_out: { icon: IconLogout, color: 'gray' },
  status: { icon: IconUserQuestion, color: 'indigo' },
  task: { icon: IconListCheck, color: 'blue' },
  idle: { icon: IconClockPause, color: 'yellow' },
  late: { icon: IconAlarm, color: 'orange' },
  absent: { icon: IconUserOff, color: 'red' },
  break_over: { icon: IconCoffee, color: 'grape' },
  idle_long: { icon: IconAlertTriangle, color: 'yellow' },
};
const UNKNOWN_KIND = { icon: IconPoint, color: 'gray' };

interface Event {
  key: string;
  at: number;
  name: string;
  kind: string;
  text: string;
}

/**
 * The two lists of moments, newest first (at most 50 each): what happened, to whom, when. The
 * kind is a coloured icon and a badge in the text's own colour (a coloured badge text would fall
 * below 4.5:1 on the light variants); the list scrolls inside the card, and takes the keyboard's
 * focus so that it can be scrolled without a mouse.
 */
function EventList({ title, events }: { title: string; events: readonly Event[] }) {
  const { t } = useTranslation();
  return (
    // The list itself scrolls and takes the focus (a scrolled region must be reachable by keyboard).
    <Stack
      component="ul"
      aria-label={t('monitor.widget.listOf', { title })}
      tabIndex={0}
      mah={CHART_FRAME_HEIGHT}
      gap="xs"
      m={0}
      p={0}
      style={{ listStyle: 'none', overflowY: 'auto' }}
    >
      {events.map((event) => (
        <EventItem key={event.key} event={event} />
      ))}
    </Stack>
  );
}

function EventItem({ event }: { event: Event }) {
  const { t } = useTranslation();
  const { icon: KindIcon, color } = KINDS[event.kind] ?? UNKNOWN_KIND;
  return (
    <Group component="li" gap="sm" wrap="nowrap" align="flex-start">
      <ThemeIcon variant="light" color={color} radius="xl" size="md" aria-hidden>
        <KindIcon size={16} />
      </ThemeIcon>
      <Stack gap={2} miw={0}>
        <Group gap={6} wrap="wrap">
          <Text size="sm" fw={600}>
            {event.name}
          </Text>
          <Badge variant="default" size="sm" tt="none">
            {t(`monitor.widget.kinds.${event.kind}`, event.kind)}
          </Badge>
        </Group>
        <Text size="sm">{event.text}</Text>
        <Text size="xs" c="dimmed" component="time" dateTime={new Date(event.at).toISOString()}>
          {formatMoment(event.at)}
        </Text>
      </Stack>
    </Group>
  );
}

export function ActionTimelineView({ data, title }: ViewProps<'action_timeline'>) {
  const events = data.map((row, index) => ({
    key: `${row.at}-${row.userId}-${row.kind}-${index}`,
    at: row.at,
    name: row.name,
    kind: row.kind,
    text: row.label,
  }));
  return <EventList title={title} events={events} />;
}

export function AlertsView({ data, title }: ViewProps<'alerts'>) {
  const events = data.map((row, index) => ({
    key: `${row.at}-${row.userId}-${row.kind}-${index}`,
    at: row.at,
    name: row.name,
    kind: row.kind,
    text: row.message,
  }));
  return <EventList title={title} events={events} />;
}
