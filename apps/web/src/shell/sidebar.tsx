import { NavLink, ScrollArea, Stack } from '@mantine/core';
import {
  IconChartBar,
  IconChevronRight,
  IconGitBranch,
  IconLayoutDashboard,
  IconLicense,
  IconLogout,
  IconUsers,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Viewer } from '../lib/authorities';
import { dashboardLink, isLinkActive, type NavIcon, type NavLinkItem, visibleNavGroups } from './nav-model';
import { useSidebarMemory } from './sidebar-memory';

const ICONS: Record<NavIcon, ReactNode> = {
  dashboard: <IconLayoutDashboard size={18} stroke={1.6} />,
  workflow: <IconGitBranch size={18} stroke={1.6} />,
  license: <IconLicense size={18} stroke={1.6} />,
  management: <IconUsers size={18} stroke={1.6} />,
  reports: <IconChartBar size={18} stroke={1.6} />,
};

interface SidebarProps {
  viewer: Viewer;
  onNavigate?: () => void;
  onLogout: () => void;
  loggingOut?: boolean;
}

function SidebarLink({ link, pathname, onNavigate }: { link: NavLinkItem; pathname: string; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const active = isLinkActive(link, pathname);
  return (
    <NavLink
      component={Link}
      to={link.to}
      label={t(link.label)}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      variant="light"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}

/**
 * Spec section 2, Shell: collapsible groups; each link shows only to holders of its authorities.
 * It sits in the shell's navigation landmark (AppShell.Navbar, or the drawer on a narrow screen).
 */
export function Sidebar({ viewer, onNavigate, onLogout, loggingOut = false }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const groups = visibleNavGroups(viewer);
  const home = dashboardLink(viewer);
  // Which groups are closed is remembered across reloads (localStorage).
  const { closedGroups, setGroupOpened } = useSidebarMemory();

  return (
    <>
      <ScrollArea style={{ flex: 1 }} px="sm" py="md" type="scroll" scrollbarSize={6}>
        <Stack gap={2}>
          <NavLink
            component={Link}
            to={home.to}
            label={t(home.label)}
            leftSection={ICONS.dashboard}
            active={isLinkActive(home, pathname)}
            onClick={onNavigate}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
          {groups.map((group) => {
            const opened = !closedGroups.includes(group.label);
            return (
              <NavLink
                key={group.label}
                component="button"
                type="button"
                label={t(group.label)}
                leftSection={ICONS[group.icon]}
                rightSection={<IconChevronRight size={14} stroke={1.8} />}
                opened={opened}
                onChange={(value) => setGroupOpened(group.label, value)}
                aria-expanded={opened}
                childrenOffset={28}
                noWrap
                fw={500}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
              >
                {group.links.map((link) => (
                  <SidebarLink key={link.id} link={link} pathname={pathname} onNavigate={onNavigate} />
                ))}
              </NavLink>
            );
          })}
        </Stack>
      </ScrollArea>
      <Stack px="sm" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <NavLink
          component="button"
          type="button"
          label={t('nav.logout')}
          leftSection={<IconLogout size={18} stroke={1.6} />}
          onClick={onLogout}
          disabled={loggingOut}
          color="red"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
      </Stack>
    </>
  );
}
