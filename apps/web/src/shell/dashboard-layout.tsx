import { AppShell, Box, Progress } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigation } from 'react-router';
import { useSignOut } from '../features/auth/session';
import { toViewer } from '../lib/authorities';
import { useProfile } from '../lib/profile-context';
import { Breadcrumbs } from './breadcrumbs';
import { showsContent } from './routing-rules';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

/** The shell around every /dashboard page: top bar, sidebar, breadcrumbs and the page. */
export function DashboardLayout() {
  const { t } = useTranslation();
  const profile = useProfile();
  const viewer = useMemo(() => toViewer(profile), [profile]);
  const signOut = useSignOut();
  const navigation = useNavigation();
  // Below Mantine's 'sm' breakpoint (48em), where the AppShell switches to its mobile navbar.
  const isMobile = useMediaQuery('(max-width: 47.99em)') ?? false;
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  const navOpened = isMobile ? mobileOpened : desktopOpened;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !mobileOpened, desktop: !desktopOpened } }}
      padding="lg"
    >
      <AppShell.Header>
        <TopBar
          profile={profile}
          sidebarOpened={navOpened}
          onToggleSidebar={isMobile ? mobile.toggle : desktop.toggle}
        />
      </AppShell.Header>
      <AppShell.Navbar
        aria-label={t('nav.mainNavigation')}
        // A collapsed navbar only slides off screen; hidden, it also leaves the tab order and the
        // accessibility tree (visibility switches at the end of the slide).
        style={{
          visibility: navOpened ? 'visible' : 'hidden',
          transitionProperty: 'transform, top, height, visibility',
        }}
      >
        <Sidebar
          viewer={viewer}
          onNavigate={isMobile ? mobile.close : undefined}
          onLogout={() => signOut.mutate()}
          loggingOut={signOut.isPending}
        />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        {navigation.state === 'loading' && (
          <Progress value={100} animated size="xs" radius={0} pos="fixed" top={60} left={0} right={0} aria-hidden />
        )}
        {/* Spec: no content for a user without authorities. */}
        {showsContent(viewer) && (
          <Box maw={1400} mx="auto">
            <Breadcrumbs />
            <Outlet />
          </Box>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
