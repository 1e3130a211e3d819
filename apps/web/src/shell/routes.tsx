import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { loadAreaStrings } from '../lib/i18n';
import { PATHS, type PathKey, SECTION_ORDER, SECTIONS } from '../lib/paths';
import { FullPageLoader } from './full-page-loader';
import { RouteErrorPage } from './route-error-page';
import { RouteGuard } from './route-guard';
import { loadToasts } from './toasts';

/** Nothing to render: the guard has already redirected away from these paths. */
const Empty = () => null;

type PageLoader = () => Promise<ComponentType>;

/** The released screens' page components, each loaded as its own chunk. */
const PAGES: Partial<Record<PathKey, PageLoader>> = {
  reportAgent: async () => (await import('../features/reports/agent-report-page')).AgentReportPage,
  reportMonitor: async () => (await import('../features/monitor/monitor-page')).MonitorPage,
  workflowList: async () => (await import('../features/workflows/workflows-page')).WorkflowsPage,
  workflowEvents: async () => (await import('../features/events/events-page')).EventsPage,
  workflowErrors: async () => (await import('../features/reports/exceptions-page')).ExceptionsPage,
  workflowLogs: async () => (await import('../features/reports/logs-page')).LogsPage,
  companies: async () => (await import('../features/companies/companies-page')).CompaniesPage,
  company: async () => (await import('../features/licenses/company-page')).CompanyPage,
  licenseKeys: async () => (await import('../features/accounts/license-keys-page')).LicenseKeysPage,
  accounts: async () => (await import('../features/accounts/accounts-page')).AccountsPage,
  activities: async () => (await import('../features/activities/activities-page')).ActivitiesPage,
  premiumActivities: async () => (await import('../features/activities/premium-activities-page')).PremiumActivitiesPage,
  users: async () => (await import('../features/users/users-page')).UsersPage,
  departments: async () => (await import('../features/departments/departments-page')).DepartmentsPage,
  roles: async () => (await import('../features/roles/roles-page')).RolesPage,
  statuses: async () => (await import('../features/statuses/statuses-page')).StatusesPage,
  tasks: async () => (await import('../features/tasks/tasks-page')).TasksPage,
  schedules: async () => (await import('../features/schedules/schedules-page')).SchedulesPage,
  audit: async () => (await import('../features/audit/audit-page')).AuditPage,
  webhooks: async () => (await import('../features/webhooks/webhooks-page')).WebhooksPage,
  alerts: async () => (await import('../features/alerts/alerts-page')).AlertsPage,
  apiTokens: async () => (await import('../features/tokens/tokens-page')).TokensPage,
};

/** A released screen: its page component, loaded as its own chunk. */
function page(key: PathKey): RouteObject {
  const load = PAGES[key];
  if (!load) throw new Error(`no page component for ${key}`);
  return { path: PATHS[key].pattern, lazy: async () => ({ Component: await load() }) };
}

/** The signed-in shell's layout, with every area's strings (the login page has only the shared ones). */
async function loadShell(): Promise<ComponentType> {
  const [{ DashboardLayout }] = await Promise.all([import('./dashboard-layout'), loadAreaStrings()]);
  return DashboardLayout;
}

/**
 * Fetches what signing in leads to, while the login form is being filled in: the shell, the toasts
 * and the first page of each section, one of which is where the guard sends a new session. The login page
 * stays lean and the page after it does not wait for the network (docs/performance.md, the
 * console's initial JavaScript). A chunk that fails here is fetched again when its route needs it.
 */
export function preloadSignedIn(): Promise<unknown> {
  const firstPages = SECTION_ORDER.map((section) => PAGES[SECTIONS[section].pages[0] as PathKey]);
  return Promise.allSettled([loadShell(), loadToasts(), ...firstPages.map((load) => load?.())]);
}

/** Spec: targets, transfers and data entry are placeholder text screens. */
function placeholder(key: PathKey): RouteObject {
  return {
    path: PATHS[key].pattern,
    lazy: async () => {
      const { ScreenPlaceholder } = await import('../components/screen-placeholder');
      return { element: <ScreenPlaceholder title={PATHS[key].label} /> };
    },
  };
}

/** A section's landing path and unknown paths under it: the guard redirects them. */
function section(key: PathKey, children: RouteObject[]): RouteObject {
  return {
    path: PATHS[key].pattern,
    children: [{ index: true, Component: Empty }, ...children, { path: '*', Component: Empty }],
  };
}

/**
 * Every console route of spec section 2, on the patterns of the path table. Each page is its own
 * chunk, so the login page loads nothing of the shell. Redirects and access checks belong to the
 * guard (routing-rules.ts), not to this tree.
 */
export const routes: RouteObject[] = [
  {
    Component: RouteGuard,
    ErrorBoundary: RouteErrorPage,
    // Shown while the first page's chunk loads.
    HydrateFallback: FullPageLoader,
    children: [
      {
        path: PATHS.login.pattern,
        lazy: async () => ({ Component: (await import('../features/auth/login-page')).LoginPage }),
      },
      {
        path: PATHS.unauthorized.pattern,
        lazy: async () => ({ Component: (await import('./unauthorized-page')).UnauthorizedPage }),
      },
      {
        path: PATHS.dashboard.pattern,
        lazy: async () => ({ Component: await loadShell() }),
        children: [
          { index: true, Component: Empty },
          {
            path: PATHS.forbidden.pattern,
            lazy: async () => ({ Component: (await import('./forbidden-page')).ForbiddenPage }),
          },
          page('apiTokens'),
          section('report', [page('reportAgent'), page('reportMonitor')]),
          section('workflow', [
            page('workflowList'),
            page('workflowEvents'),
            page('workflowErrors'),
            page('workflowLogs'),
          ]),
          section('license', [
            page('companies'),
            page('company'),
            page('licenseKeys'),
            page('accounts'),
            page('activities'),
            page('premiumActivities'),
          ]),
          section('management', [
            page('users'),
            page('departments'),
            page('roles'),
            page('statuses'),
            page('tasks'),
            page('schedules'),
            placeholder('targets'),
            placeholder('transfers'),
            placeholder('dataEntry'),
            page('audit'),
            page('webhooks'),
            page('alerts'),
          ]),
          { path: '*', Component: Empty },
        ],
      },
      { path: '*', Component: Empty },
    ],
  },
];
