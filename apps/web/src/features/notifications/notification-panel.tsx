import {
  Anchor,
  Badge,
  Box,
  Center,
  Divider,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import type { Alert, Notification } from '@opsdeck/contract/alerts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { kindLabel } from '../alerts/alert-kinds';
import { openAlertsQueryOptions } from '../alerts/api';
import { BELL_PAGE_SIZE } from './api';
import './notifications.css';
import { relativeTime } from './relative-time';

/** A console path follows in the app; anything else is a plain link. */
function Target({ link, onFollow, children }: { link: string; onFollow: () => void; children: ReactNode }) {
  const common = { onClick: onFollow, className: 'opsdeck-notification-entry' };
  return link.startsWith('/') ? (
    <UnstyledButton component={Link} to={link} {...common}>
      {children}
    </UnstyledButton>
  ) : (
    <UnstyledButton component="a" href={link} {...common}>
      {children}
    </UnstyledButton>
  );
}

/** When, in words ("5 minutes ago"), with the date and time on hover. */
function When({ epoch, prefix }: { epoch: number; prefix?: (when: string) => string }) {
  const when = relativeTime(epoch);
  return (
    <Text
      size="xs"
      c="dimmed"
      component="time"
      dateTime={new Date(epoch).toISOString()}
      title={formatEpoch(epoch, DATE_FORMATS.log)}
    >
      {prefix ? prefix(when) : when}
    </Text>
  );
}

/** One entry: its title, body and time; unread in bold with a dot; whether the alert it tells of is open. */
function NotificationEntry({ item, onFollow }: { item: Notification; onFollow: (item: Notification) => void }) {
  const { t } = useTranslation();
  const unread = item.readAt === null;
  const content = (
    <Group gap="sm" wrap="nowrap" align="flex-start" px="md" py="sm">
      <Box
        aria-hidden
        mt={6}
        w={8}
        h={8}
        style={{ flex: 'none', borderRadius: '50%' }}
        bg={unread ? 'blue.7' : 'transparent'}
      />
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <Group gap={6} wrap="nowrap" justify="space-between" align="flex-start">
          <Text size="sm" fw={unread ? 700 : 500} style={{ overflowWrap: 'anywhere' }}>
            {unread && <VisuallyHidden>{`${t('notifications.unread')}: `}</VisuallyHidden>}
            {item.title}
          </Text>
          {item.open ? (
            <Badge color="red.9" variant="filled" size="sm" style={{ flex: 'none' }}>
              {t('notifications.open')}
            </Badge>
          ) : (
            item.alertId !== null && (
              <Badge color="gray.7" variant="light" size="sm" style={{ flex: 'none' }}>
                {t('notifications.cleared')}
              </Badge>
            )
          )}
        </Group>
        {item.body && (
          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
            {item.body}
          </Text>
        )}
        <When epoch={item.createdAt} />
      </Stack>
    </Group>
  );
  return (
    <li data-unread={unread || undefined} data-open={item.open || undefined}>
      {item.link ? (
        <Target link={item.link} onFollow={() => onFollow(item)}>
          {content}
        </Target>
      ) : unread ? (
        // Nowhere to go: the entry is the button that marks it read.
        <UnstyledButton className="opsdeck-notification-entry" onClick={() => onFollow(item)}>
          {content}
        </UnstyledButton>
      ) : (
        <div className="opsdeck-notification-static">{content}</div>
      )}
    </li>
  );
}

function NotificationList({
  items,
  loading,
  failed,
  onFollow,
}: {
  items: readonly Notification[];
  loading: boolean;
  failed: boolean;
  onFollow: (item: Notification) => void;
}) {
  const { t } = useTranslation();
  if (loading)
    return (
      <Center p="md">
        <Loader size="sm" />
      </Center>
    );
  if (failed)
    return (
      <Text size="sm" p="md" c="red.9">
        {t('notifications.loadFailed')}
      </Text>
    );
  if (items.length === 0)
    return (
      <Text size="sm" p="md" c="dimmed">
        {t('notifications.empty')}
      </Text>
    );
  return (
    <ScrollArea.Autosize mah={420} type="auto">
      <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('notifications.listLabel')}>
        {items.map((item) => (
          <NotificationEntry key={item.id} item={item} onFollow={onFollow} />
        ))}
      </Box>
      {items.length >= BELL_PAGE_SIZE && (
        <Text size="xs" c="dimmed" px="md" py="xs">
          {t('notifications.newest', { count: BELL_PAGE_SIZE })}
        </Text>
      )}
    </ScrollArea.Autosize>
  );
}

/** The company's open alerts (GET /api/alert), for holders of MANAGE_ALERTS: what is wrong now. */
function OpenAlerts({ onFollow }: { onFollow: () => void }) {
  const { t } = useTranslation();
  const alerts = useQuery(openAlertsQueryOptions());
  if (alerts.isLoading)
    return (
      <Center p="md">
        <Loader size="sm" />
      </Center>
    );
  if (alerts.isError)
    return (
      <Text size="sm" p="md" c="red.9">
        {t('notifications.alertsLoadFailed')}
      </Text>
    );
  const open = (alerts.data ?? []).filter((alert) => alert.clearedAt === null);
  if (open.length === 0)
    return (
      <Text size="sm" p="md" c="dimmed">
        {t('notifications.noOpenAlerts')}
      </Text>
    );
  return (
    <ScrollArea.Autosize mah={420} type="auto">
      <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('notifications.openAlertsLabel')}>
        {open.map((alert) => (
          <OpenAlertEntry key={alert.id} alert={alert} onFollow={onFollow} />
        ))}
      </Box>
    </ScrollArea.Autosize>
  );
}

function OpenAlertEntry({ alert, onFollow }: { alert: Alert; onFollow: () => void }) {
  const { t } = useTranslation();
  const content = (
    <Stack gap={2} px="md" py="sm">
      <Text size="xs" fw={600} c="red.9">
        {kindLabel(t, alert.kind)}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {alert.subject}
      </Text>
      <When epoch={alert.raisedAt} prefix={(when) => t('notifications.raised', { when })} />
    </Stack>
  );
  return (
    <li data-alert-kind={alert.kind}>
      {alert.link ? (
        <Target link={alert.link} onFollow={onFollow}>
          {content}
        </Target>
      ) : (
        <div className="opsdeck-notification-static">{content}</div>
      )}
    </li>
  );
}

interface NotificationPanelProps {
  /** The bell's page: its newest notifications, while loading or after a failed read. */
  items: readonly Notification[];
  loading: boolean;
  failed: boolean;
  /** The person manages alerts (MANAGE_ALERTS): the company's open alerts have a tab. */
  managesAlerts: boolean;
  /** An entry followed (or, with no link, clicked): marked read; a link closes the panel. */
  onFollow: (item: Notification) => void;
  /** An open alert's link followed: the panel closes. */
  onLeave: () => void;
  onPreferences: () => void;
}

/**
 * What the bell opens (docs/alerts.md), loaded when first opened: the newest notifications, the
 * company's open alerts for those who manage alerts, and the way to the e-mail preferences.
 */
export function NotificationPanel({
  items,
  loading,
  failed,
  managesAlerts,
  onFollow,
  onLeave,
  onPreferences,
}: NotificationPanelProps) {
  const { t } = useTranslation();
  const list = <NotificationList items={items} loading={loading} failed={failed} onFollow={onFollow} />;
  return (
    <>
      {managesAlerts ? (
        <Tabs defaultValue="notifications" keepMounted={false}>
          <Tabs.List grow>
            <Tabs.Tab value="notifications">{t('notifications.tabs.notifications')}</Tabs.Tab>
            <Tabs.Tab value="alerts">{t('notifications.tabs.openAlerts')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="notifications">{list}</Tabs.Panel>
          <Tabs.Panel value="alerts">
            <OpenAlerts onFollow={onLeave} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        list
      )}
      <Divider />
      <Group px="md" py="xs">
        <Anchor component="button" type="button" size="sm" onClick={onPreferences}>
          {t('notifications.emailPreferences')}
        </Anchor>
      </Group>
    </>
  );
}
