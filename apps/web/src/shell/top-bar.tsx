import { Avatar, Burger, Group, Stack, Text } from '@mantine/core';
import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import { LIMITS } from '@opsdeck/contract/limits';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../components/brand-mark';
import { Truncate } from '../components/truncate';

interface TopBarProps {
  profile: CurrentUserProfile;
  sidebarOpened: boolean;
  onToggleSidebar: () => void;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

/** Spec section 2, Shell: the top bar shows the user's full name and a sidebar toggle. */
export function TopBar({ profile, sidebarOpened, onToggleSidebar }: TopBarProps) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="md" wrap="nowrap">
        <Burger opened={sidebarOpened} onClick={onToggleSidebar} size="sm" aria-label={t('shell.toggleSidebar')} />
        <BrandMark />
      </Group>
      <Group gap="sm" wrap="nowrap" aria-label={t('shell.signedInAs')} role="group">
        <Stack gap={0} align="flex-end">
          <Text size="sm" fw={600} lh={1.2}>
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
    </Group>
  );
}
