import type { Authority } from '@opsdeck/contract/authorities';
import { holdsAny, type Viewer } from '../lib/authorities';
import { PATHS, type PathKey } from '../lib/paths';

export type NavIcon = 'dashboard' | 'workflow' | 'license' | 'management' | 'reports';

interface NavLinkDef {
  key: PathKey;
  /** i18n key; the path table's label unless the sidebar names it differently. */
  label?: string;
  /** The link's own rule when it differs from the page's. */
  authorities?: readonly Authority[];
  /** Builds the link for the viewer; null hides it. */
  to?: (viewer: Viewer) => string | null;
  /** Match the path exactly instead of the spec's 'current path contains the link's path'. */
  exact?: boolean;
}

interface NavGroupDef {
  label: string;
  icon: NavIcon;
  links: readonly NavLinkDef[];
}

export interface NavLinkItem {
  id: string;
  label: string;
  to: string;
  exact: boolean;
}

export interface NavGroupItem {
  label: string;
  icon: NavIcon;
  links: NavLinkItem[];
}

/**
 * The sidebar of spec section 2 (Shell). Dashboard leads to /dashboard, which every console path
 * contains, so it is matched exactly or it would be highlighted everywhere.
 */
export const DASHBOARD_LINK: NavLinkDef = { key: 'dashboard', exact: true };

export const NAV_GROUPS: readonly NavGroupDef[] = [
  {
    label: 'nav.workflowManagement',
    icon: 'workflow',
    links: [{ key: 'workflowList' }, { key: 'workflowEvents' }, { key: 'workflowErrors' }, { key: 'workflowLogs' }],
  },
  {
    label: 'nav.licenseManagement',
    icon: 'license',
    links: [
      { key: 'companies' },
      {
        // Spec: shown to a user with a company and MANAGE_LICENSING, leading to that company's page.
        key: 'company',
        label: 'nav.licenses',
        authorities: ['MANAGE_LICENSING'],
        to: (viewer) => (viewer.companyId === null ? null : PATHS.company.build({ companyId: viewer.companyId })),
      },
      { key: 'accounts' },
      { key: 'activities' },
      { key: 'premiumActivities' },
    ],
  },
  {
    label: 'nav.userManagement',
    icon: 'management',
    links: [
      { key: 'users' },
      { key: 'departments' },
      { key: 'roles' },
      { key: 'statuses' },
      { key: 'tasks' },
      { key: 'schedules' },
      { key: 'targets' },
      { key: 'transfers' },
      { key: 'dataEntry' },
      { key: 'audit' },
      { key: 'webhooks' },
      { key: 'alerts' },
    ],
  },
  {
    label: 'nav.reports',
    icon: 'reports',
    links: [{ key: 'reportAgent' }, { key: 'reportMonitor' }],
  },
];

function resolveLink(def: NavLinkDef, viewer: Viewer): NavLinkItem | null {
  if (!holdsAny(viewer, def.authorities ?? PATHS[def.key].authorities)) return null;
  const to = def.to ? def.to(viewer) : PATHS[def.key].pattern;
  if (to === null) return null;
  return {
    id: `${def.key}:${def.label ?? ''}`,
    label: def.label ?? PATHS[def.key].label,
    to,
    exact: def.exact ?? false,
  };
}

export function dashboardLink(viewer: Viewer): NavLinkItem {
  return resolveLink(DASHBOARD_LINK, viewer)!;
}

/** The groups with the links this viewer may see; a group with none is left out. */
export function visibleNavGroups(viewer: Viewer): NavGroupItem[] {
  return NAV_GROUPS.map((group) => ({
    label: group.label,
    icon: group.icon,
    links: group.links.map((link) => resolveLink(link, viewer)).filter((link) => link !== null),
  })).filter((group) => group.links.length > 0);
}

/**
 * Spec: the active link is the one whose path the current path contains. Containment is taken by
 * whole segments, so that company 5's link is not lit on company 50's page.
 */
export function isLinkActive(link: Pick<NavLinkItem, 'to' | 'exact'>, pathname: string): boolean {
  if (pathname === link.to) return true;
  return !link.exact && pathname.startsWith(`${link.to}/`);
}
