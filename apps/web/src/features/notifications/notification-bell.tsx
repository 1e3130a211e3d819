import { ActionIcon, Button, Center, Divider, Group, Indicator, Loader, Popover, Title } from '@mantine/core';
import type { Notification } from '@opsdeck/contract/alerts';
import { IconBell } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { holds } from '../../lib/authorities';
import type { ConnectionStatus } from '../../lib/live/live-source';
import { useViewer } from '../../lib/profile-context';
import { alertKeys } from '../alerts/api';
import { bellQueryOptions, notificationKeys, useMarkRead } from './api';

// The shell's chunk keeps only the bell and its count: the live connection (STOMP, zod), the panel
// and the preferences' form load apart, as one chunk (docs/performance.md, the console's
// JavaScript). One chunk, not three: each dynamic import regroups the shared modules, and three of
// them split the login page's scripts into more chunks, past its budget (login-javascript.spec.ts).
const parts = () => import('./bell-parts');
const LiveNotifications = lazy(async () => ({ default: (await parts()).LiveNotifications }));
const NotificationPanel = lazy(async () => ({ default: (await parts()).NotificationPanel }));
const EmailPreferencesModal = lazy(async () => ({ default: (await parts()).EmailPreferencesModal }));

/** While the live channel is away (or refused), the bell asks for its count this often. */
export const BELL_POLL_MS = 60_000;

const loading = (
  <Center p="md">
    <Loader size="sm" />
  </Center>
);

/**
 * The notification centre in the top bar (docs/alerts.md): a bell with the unread count, kept live
 * by the shell's connection (a notification arriving counts at once, no reload). It opens the
 * newest notifications, each marked read when followed; "Mark all as read"; the company's open
 * alerts for those who manage alerts; and the person's e-mail preferences.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const titleId = useId();
  const [status, setStatus] = useState<ConnectionStatus>('connecting');
  const bell = useQuery({ ...bellQueryOptions(), refetchInterval: status === 'connected' ? false : BELL_POLL_MS });
  const markRead = useMarkRead();
  const [opened, setOpened] = useState(false);
  const [preferences, setPreferences] = useState(false);
  const unread = bell.data?.unread ?? 0;

  const toggle = () => {
    // What is open or cleared changes without a notification: the panel reads both again.
    if (!opened) {
      void queryClient.invalidateQueries({ queryKey: notificationKeys.bell });
      void queryClient.invalidateQueries({ queryKey: alertKeys.all });
    }
    setOpened(!opened);
  };

  // A refusal toasts (the toasts' module loads then); the bell reads again what is so.
  const mark = (which: readonly number[] | 'all') =>
    markRead.mutate(which, {
      onError: (error) => void import('../../lib/notify').then(({ notifyError }) => notifyError(error)),
    });

  const follow = (item: Notification) => {
    if (item.readAt === null) mark([item.id]);
    if (item.link) setOpened(false);
  };

  return (
    <>
      {/* Any signed-in person's console may follow their own notifications live (docs/alerts.md). */}
      <Suspense fallback={null}>
        <LiveNotifications onStatus={setStatus} />
      </Suspense>
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        width={380}
        shadow="md"
        trapFocus
        returnFocus
        withinPortal
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray.8"
            size={40}
            radius="xl"
            aria-label={t('notifications.bell', { count: unread })}
            onClick={toggle}
            // The panel's code, fetched as the pointer comes near.
          >
            <Indicator
              inline
              disabled={unread === 0}
              label={unread > 99 ? '99+' : unread}
              size={18}
              offset={2}
              color="red.9"
              zIndex={1}
            >
              <IconBell size={22} aria-hidden />
            </Indicator>
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} aria-labelledby={titleId} maw="calc(100vw - 16px)">
          <Group justify="space-between" px="md" py="sm" wrap="nowrap">
            <Title order={2} fz="md" id={titleId}>
              {t('notifications.title')}
            </Title>
            <Button variant="subtle" size="compact-sm" disabled={unread === 0} onClick={() => mark('all')}>
              {t('notifications.markAllRead')}
            </Button>
          </Group>
          <Divider />
          <Suspense fallback={loading}>
            <NotificationPanel
              items={bell.data?.items ?? []}
              loading={bell.isLoading}
              failed={bell.isError && !bell.data}
              managesAlerts={holds(viewer, 'MANAGE_ALERTS')}
              onFollow={follow}
              onLeave={() => setOpened(false)}
              onPreferences={() => {
                setOpened(false);
                setPreferences(true);
              }}
            />
          </Suspense>
        </Popover.Dropdown>
      </Popover>
      {preferences && (
        <Suspense fallback={null}>
          <EmailPreferencesModal onClose={() => setPreferences(false)} />
        </Suspense>
      )}
    </>
  );
}
