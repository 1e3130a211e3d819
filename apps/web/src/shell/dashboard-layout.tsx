// Every page under the dashboard may show a date picker (renew, schedules, filters, search ranges):
// its styles come with the shell, whether a page is reached by a click or by its URL.
import '@mantine/dates/styles.css';
import './shell.css';
import { AppShell, Box, Drawer, Progress } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigation } from 'react-router';
import { BrandMark } from '../components/brand-mark';
import { useSignOut } from '../features/auth/session';
import { toViewer } from '../lib/authorities';
import { useProfile } from '../lib/profile-context';
import { Breadcrumbs } from './breadcrumbs';
import { showsContent } from './routing-rules';
import { Sidebar } from './sidebar';
import { useSidebarMemory } from './sidebar-memory';
import { TopBar } from './top-bar';

/**
 * Below this width (Mantine's 'md', 992 px) the sidebar is a drawer over the page, opened from the
 * top bar's burger, instead of a pinned column: at 800 px a pinned 280 px column left the tables
 * too little room.
 */
const DRAWER_QUERY = '(max-width: 61.99em)';
const MAIN_ID = 'main-content';

function focusMain(event: React.MouseEvent) {
  event.preventDefault();
  document.getElementById(MAIN_ID)?.focus();
}

/** The shell around every /dashboard page: skip link, top bar, sidebar, breadcrumbs and the page. */
export function DashboardLayout() {
  const { t } = useTranslation();
  const profile = useProfile();
  const viewer = useMemo(() => toViewer(profile), [profile]);
  const signOut = useSignOut();
  const navigation = useNavigation();
  const narrow = useMediaQuery(DRAWER_QUERY, false, { getInitialValueInEffect: false }) ?? false;
  const [drawerOpened, drawer] = useDisclosure(false);
  // Whether the pinned sidebar is shown on a wide screen is remembered across reloads.
  const { pinned, setPinned } = useSidebarMemory();
  const navOpened = narrow ? drawerOpened : pinned;
  const sidebar = (onNavigate?: () => void) => (
    <Sidebar viewer={viewer} onNavigate={onNavigate} onLogout={() => signOut.mutate()} loggingOut={signOut.isPending} />
  );

  return (
    <>
      <a href={`#${MAIN_ID}`} className="opsdeck-skip-link" onClick={focusMain}>
        {t('shell.skipToContent')}
      </a>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 280, breakpoint: 'md', collapsed: { mobile: true, desktop: !pinned } }}
        padding={{ base: 'sm', sm: 'lg' }}
      >
        <AppShell.Header>
          <TopBar
            profile={profile}
            sidebarOpened={navOpened}
            onToggleSidebar={narrow ? drawer.toggle : () => setPinned(!pinned)}
            onLogout={() => signOut.mutate()}
          />
        </AppShell.Header>
        {narrow ? (
          <Drawer
            opened={drawerOpened}
            onClose={drawer.close}
            size={280}
            padding={0}
            title={<BrandMark />}
            closeButtonProps={{ 'aria-label': t('modal.close') }}
          >
            <Box component="nav" aria-label={t('nav.mainNavigation')} className="opsdeck-sidebar">
              {sidebar(drawer.close)}
            </Box>
          </Drawer>
        ) : (
          <AppShell.Navbar
            aria-label={t('nav.mainNavigation')}
            className="opsdeck-sidebar"
            // A collapsed navbar only slides off screen; hidden, it also leaves the tab order and the
            // accessibility tree (visibility switches at the end of the slide).
            style={{
              visibility: pinned ? 'visible' : 'hidden',
              transitionProperty: 'transform, top, height, visibility',
            }}
          >
            {sidebar()}
          </AppShell.Navbar>
        )}
        <AppShell.Main id={MAIN_ID} tabIndex={-1} bg="var(--mantine-color-gray-0)">
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
    </>
  );
}
