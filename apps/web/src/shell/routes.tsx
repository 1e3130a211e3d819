import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PATHS, type PathKey } from '../lib/paths';
import { FullPageLoader } from './full-page-loader';
import { RouteErrorPage } from './route-error-page';
import { RouteGuard } from './route-guard';

/** Nothing to render: the guard has already redirected away from these paths. */
const Empty = () => null;

/** A released screen: its page component, loaded as its own chunk. */
function page(key: PathKey, load: () => Promise<ComponentType>): RouteObject {
  return { path: PATHS[key].pattern, lazy: async () => ({ Component: await load() }) };
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
        lazy: async () => ({ Component: (await import('./dashboard-layout')).DashboardLayout }),
        children: [
          { index: true, Component: Empty },
          {
            path: PATHS.forbidden.pattern,
            lazy: async () => ({ Component: (await import('./forbidden-page')).ForbiddenPage }),
          },
          section('report', [
            page('reportAgent', async () => (await import('../features/reports/agent-report-page')).AgentReportPage),
            page('reportMonitor', async () => (await import('../features/monitor/monitor-page')).MonitorPage),
          ]),
          section('workflow', [
            page('workflowList', async () => (await import('../features/workflows/workflows-page')).WorkflowsPage),
            page('workflowEvents', async () => (await import('../features/events/events-page')).EventsPage),
            page('workflowErrors', async () => (await import('../features/reports/exceptions-page')).ExceptionsPage),
            page('workflowLogs', async () => (await import('../features/reports/logs-page')).LogsPage),
          ]),
          section('license', [
            page('companies', async () => (await import('../features/companies/companies-page')).CompaniesPage),
            page('company', async () => (await import('../features/licenses/company-page')).CompanyPage),
            page('licenseKeys', async () => (await import('../features/accounts/license-keys-page')).LicenseKeysPage),
            page('accounts', async () => (await import('../features/accounts/accounts-page')).AccountsPage),
            page('activities', async () => (await import('../features/activities/activities-page')).ActivitiesPage),
            page(
              'premiumActivities',
              async () => (await import('../features/activities/premium-activities-page')).PremiumActivitiesPage,
            ),
          ]),
          section('management', [
            page('users', async () => (await import('../features/users/users-page')).UsersPage),
            page('departments', async () => (await import('../features/departments/departments-page')).DepartmentsPage),
            page('roles', async () => (await import('../features/roles/roles-page')).RolesPage),
            page('statuses', async () => (await import('../features/statuses/statuses-page')).StatusesPage),
            page('tasks', async () => (await import('../features/tasks/tasks-page')).TasksPage),
            page('schedules', async () => (await import('../features/schedules/schedules-page')).SchedulesPage),
            placeholder('targets'),
            placeholder('transfers'),
            placeholder('dataEntry'),
          ]),
          { path: '*', Component: Empty },
        ],
      },
      { path: '*', Component: Empty },
    ],
  },
];
