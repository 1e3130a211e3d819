import { Avatar, Burger, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import { LIMITS } from '@opsdeck/contract/limits';
import { IconApi, IconKey, IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BrandMark } from '../components/brand-mark';
import { Truncate } from '../components/truncate';
import { NotificationBell } from '../features/notifications/notification-bell';
import { PATHS } from '../lib/paths';

interface TopBarProps {
  profile: CurrentUserProfile;
  sidebarOpened: boolean;
  onToggleSidebar: () => void;
  onLogout: () => void;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

/**
 * Spec section 2, Shell: the top bar shows the user's full name and a sidebar toggle. The name and
 * avatar open the account menu: who is signed in (name, company, e-mail), their API tokens, the
 * API documentation and Logout, as in UiPath Orchestrator's user menu; Menu gives it arrow keys and Escape.
 * Beside it, the notification bell.
 */
export function TopBar({ profile, sidebarOpened, onToggleSidebar, onLogout }: TopBarProps) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="md" wrap="nowrap">
        <Burger opened={sidebarOpened} onClick={onToggleSidebar} size="sm" aria-label={t('shell.toggleSidebar')} />
        <BrandMark />
      </Group>
      <Group gap="xs" wrap="nowrap">
        {/* The notification centre (docs/alerts.md): every signed-in person's own. */}
        <NotificationBell />
        <Menu position="bottom-end" width={280} withinPortal>
          <Menu.Target>
            {/* Named by what it shows (the name, and the company on a wider screen). */}
            <UnstyledButton style={{ borderRadius: 'var(--mantine-radius-md)', padding: 4 }}>
              <Group gap="sm" wrap="nowrap">
                <Stack gap={0} align="flex-end" miw={0}>
                  {/* On a phone the name is cut short rather than pushing the bar wider than the screen. */}
                  <Text size="sm" fw={600} lh={1.2} maw={{ base: 140, xs: 'none' }} truncate="end">
                    {profile.fullName}
                  </Text>
                  {profile.company && (
                    <Text size="xs" c="dimmed" lh={1.2} visibleFrom="xs">
                      <Truncate text={profile.company.name} max={LIMITS.truncate.companyName} />
                    </Text>
                  )}
                </Stack>
                <Avatar color="indigo" radius="xl" size={36} aria-hidden="true">
                  {initials(profile.fullName)}
                </Avatar>
              </Group>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Stack gap={2} px="sm" py="xs" aria-label={t('shell.signedInAs')} role="group">
              <Text size="sm" fw={600}>
                {profile.fullName}
              </Text>
              {profile.company && (
                <Text size="xs" c="dimmed">
                  {profile.company.name}
                </Text>
              )}
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {profile.emailAddress}
              </Text>
            </Stack>
            <Menu.Divider />
            <Menu.Item
              component={Link}
              to={PATHS.apiTokens.build()}
              leftSection={<IconKey size={16} aria-hidden="true" />}
            >
              {t('nav.apiTokens')}
            </Menu.Item>
            <Menu.Item
              component="a"
              href="/api/docs"
              target="_blank"
              rel="noopener"
              leftSection={<IconApi size={16} aria-hidden="true" />}
            >
              {t('shell.apiDocs')}
            </Menu.Item>
            <Menu.Item color="red" leftSection={<IconLogout size={16} aria-hidden="true" />} onClick={onLogout}>
              {t('nav.logout')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
