import { holds, holdsAny, type Viewer } from '../lib/authorities';
import { matchPathKey, normalizePath, PATHS, type PathKey, SECTION_ORDER, SECTIONS, type Section } from '../lib/paths';

export type AuthState =
  | { status: 'anonymous' }
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; viewer: Viewer };

export type RouteDecision =
  | { kind: 'render' }
  | { kind: 'redirect'; to: string }
  /** The profile is still loading: render nothing of the page yet. */
  | { kind: 'wait' }
  /** The profile could not be loaded for a reason other than a lost session. */
  | { kind: 'failed' };

const render: RouteDecision = { kind: 'render' };
const redirect = (to: string): RouteDecision => ({ kind: 'redirect', to });

/** Whether the page at `key` opens for the viewer: any one of its authorities is enough. */
export function canOpen(key: PathKey, viewer: Viewer): boolean {
  return holdsAny(viewer, PATHS[key].authorities);
}

/**
 * Where a section's page leads for this viewer, or null when it is not theirs to see. The company
 * page is reached from the section only as the viewer's own company's licences (spec: the
 * 'Licenses' entry for a user with a company and MANAGE_LICENSING).
 */
export function pageTarget(key: PathKey, viewer: Viewer): string | null {
  if (key === 'company') {
    if (viewer.companyId === null || !holds(viewer, 'MANAGE_LICENSING') || !canOpen('company', viewer)) return null;
    return PATHS.company.build({ companyId: viewer.companyId });
  }
  return canOpen(key, viewer) ? PATHS[key].pattern : null;
}

/** The first page of the section the viewer may see, else the forbidden page. */
export function sectionDefault(section: Section, viewer: Viewer): string {
  for (const key of SECTIONS[section].pages) {
    const target = pageTarget(key, viewer);
    if (target) return target;
  }
  return PATHS.forbidden.pattern;
}

/** /dashboard: reports, then workflow, then license, then management, then forbidden. */
export function dashboardDefault(viewer: Viewer): string {
  for (const section of SECTION_ORDER) {
    if (SECTIONS[section].gate.some((authority) => holds(viewer, authority))) return sectionDefault(section, viewer);
  }
  return PATHS.forbidden.pattern;
}

function resolveDashboard(path: string, viewer: Viewer): RouteDecision {
  if (path === PATHS.dashboard.pattern) return redirect(dashboardDefault(viewer));
  if (path === PATHS.forbidden.pattern) return render;
  for (const section of SECTION_ORDER) {
    if (path === PATHS[SECTIONS[section].landing].pattern) return redirect(sectionDefault(section, viewer));
  }
  const match = matchPathKey(path);
  if (!match) {
    if (path.startsWith(`${PATHS.report.pattern}/`)) return redirect(PATHS.reportAgent.pattern);
    return redirect(PATHS.dashboard.pattern);
  }
  return canOpen(match.key, viewer) ? render : redirect(PATHS.forbidden.pattern);
}

/**
 * The routing rules of spec section 2 as one function of the path and the session, so that the
 * route guard stays a thin component and every rule can be tested without rendering.
 */
export function resolveRoute(pathname: string, auth: AuthState): RouteDecision {
  const path = normalizePath(pathname);
  if (path === PATHS.unauthorized.pattern) return render;
  if (path === PATHS.login.pattern) {
    // While a token's profile loads the login panel stays up: it shows the progress, and a failed
    // profile must land back on it with its message.
    return auth.status === 'ready' ? redirect(PATHS.dashboard.pattern) : render;
  }
  if (auth.status === 'anonymous') return redirect(PATHS.login.pattern);
  if (auth.status === 'loading') return { kind: 'wait' };
  if (auth.status === 'failed') return { kind: 'failed' };
  const isDashboard = path === PATHS.dashboard.pattern || path.startsWith(`${PATHS.dashboard.pattern}/`);
  if (!isDashboard) return redirect(PATHS.dashboard.pattern);
  // A user without authorities gets the shell and no content (spec: nothing is rendered), so no
  // redirect would lead anywhere useful.
  if (auth.viewer.authorities.size === 0) return render;
  return resolveDashboard(path, auth.viewer);
}

/** The shell shows page content only to a user who holds at least one authority. */
export function showsContent(viewer: Viewer): boolean {
  return viewer.authorities.size > 0;
}
