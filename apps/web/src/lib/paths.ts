import type { Authority } from '@opsdeck/contract/authorities';
import { generatePath, matchPath, type PathParam } from 'react-router';

/** The four areas of the dashboard that have a default sub-route (spec section 2, routing rules). */
export type Section = 'report' | 'workflow' | 'license' | 'management';

type Params<P extends string> = { [K in PathParam<P>]: string | number };
type Builder<P extends string> = [PathParam<P>] extends [never] ? () => string : (params: Params<P>) => string;

export interface PathEntry<P extends string = string> {
  pattern: P;
  /** i18n key of the screen's name: sidebar label, page title, breadcrumb. */
  label: string;
  /** Holding any one of these opens the page; an empty list means anyone signed in. */
  authorities: readonly Authority[];
  section?: Section;
  /** The page takes part in the breadcrumb trail (spec section 2, Shell). */
  crumb?: boolean;
  build: Builder<P>;
}

function entry<P extends string>(pattern: P, meta: Omit<PathEntry<P>, 'pattern' | 'build'>): PathEntry<P> {
  const build = ((params?: Params<P>) => {
    if (!params) return pattern;
    const strings = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)]));
    return generatePath(pattern, strings as never);
  }) as Builder<P>;
  return { pattern, ...meta, build };
}

/** Every console URL. The sidebar, the breadcrumbs and the routing rules all read this table. */
export const PATHS = {
  login: entry('/login', { label: 'screens.login', authorities: [] }),
  unauthorized: entry('/unauthorized', { label: 'screens.unauthorized', authorities: [] }),
  dashboard: entry('/dashboard', { label: 'nav.dashboard', authorities: [] }),
  forbidden: entry('/dashboard/forbidden', { label: 'screens.forbidden', authorities: [] }),
  /** The user's own API tokens, from the top bar's user menu (no section, no sidebar entry). */
  apiTokens: entry('/dashboard/profile/tokens', { label: 'nav.apiTokens', authorities: [] }),

  report: entry('/dashboard/report', { label: 'nav.reports', authorities: [] }),
  reportAgent: entry('/dashboard/report/agent', {
    label: 'nav.agent',
    authorities: ['ACCESS_AGENT_REPORT_TAB'],
    section: 'report',
  }),
  reportMonitor: entry('/dashboard/report/monitor', {
    label: 'nav.monitor',
    authorities: ['ACCESS_MONITOR_REPORT_TAB'],
    section: 'report',
  }),

  workflow: entry('/dashboard/workflow', { label: 'nav.workflowManagement', authorities: [] }),
  workflowList: entry('/dashboard/workflow/list', {
    label: 'nav.workflows',
    authorities: ['ACCESS_WORKFLOW_TAB'],
    section: 'workflow',
    crumb: true,
  }),
  workflowEvents: entry('/dashboard/workflow/events', {
    label: 'nav.events',
    authorities: ['ACCESS_WORKFLOW_EVENTS_TAB'],
    section: 'workflow',
    crumb: true,
  }),
  workflowErrors: entry('/dashboard/workflow/errors', {
    label: 'nav.errorLogs',
    authorities: ['ACCESS_WORKFLOW_ERROR_LOGS_TAB'],
    section: 'workflow',
    crumb: true,
  }),
  workflowLogs: entry('/dashboard/workflow/logs', {
    label: 'nav.executionLogs',
    authorities: ['ACCESS_WORKFLOW_ERROR_LOGS_TAB'],
    section: 'workflow',
    crumb: true,
  }),

  license: entry('/dashboard/license', { label: 'nav.licenseManagement', authorities: [] }),
  companies: entry('/dashboard/license/companies', {
    label: 'nav.companies',
    authorities: ['ACCESS_COMPANY_TAB'],
    section: 'license',
  }),
  company: entry('/dashboard/license/companies/:companyId', {
    label: 'nav.company',
    authorities: ['ACCESS_COMPANY_LICENSE_PAGE'],
    section: 'license',
    crumb: true,
  }),
  licenseKeys: entry('/dashboard/license/companies/:companyId/license/:licenseId', {
    label: 'nav.keys',
    authorities: ['ACCESS_COMPANY_LICENSE_KEY_PAGE'],
    section: 'license',
    crumb: true,
  }),
  accounts: entry('/dashboard/license/accounts', {
    label: 'nav.accounts',
    authorities: ['ACCESS_ACCOUNT_TAB'],
    section: 'license',
  }),
  activities: entry('/dashboard/license/activities', {
    label: 'nav.activities',
    authorities: ['ACCESS_ACTIVITY_TAB'],
    section: 'license',
    crumb: true,
  }),
  premiumActivities: entry('/dashboard/license/premium-activities', {
    label: 'nav.premiumActivities',
    authorities: ['ACCESS_ACTIVITY_TAB'],
    section: 'license',
    crumb: true,
  }),

  management: entry('/dashboard/management', { label: 'nav.userManagement', authorities: [] }),
  users: entry('/dashboard/management/users', {
    label: 'nav.users',
    authorities: ['ACCESS_USER_TAB'],
    section: 'management',
    crumb: true,
  }),
  departments: entry('/dashboard/management/departments', {
    label: 'nav.departments',
    authorities: ['ACCESS_DEPARTMENT_TAB'],
    section: 'management',
    crumb: true,
  }),
  roles: entry('/dashboard/management/roles', {
    label: 'nav.roles',
    authorities: ['ACCESS_ROLE_TAB'],
    section: 'management',
    crumb: true,
  }),
  statuses: entry('/dashboard/management/statuses', {
    label: 'nav.statuses',
    authorities: ['ACCESS_STATUS_TAB'],
    section: 'management',
    crumb: true,
  }),
  tasks: entry('/dashboard/management/tasks', {
    label: 'nav.tasks',
    authorities: ['ACCESS_TASK_TAB'],
    section: 'management',
    crumb: true,
  }),
  schedules: entry('/dashboard/management/schedules', {
    label: 'nav.schedules',
    authorities: ['ACCESS_SCHEDULE_TAB'],
    section: 'management',
  }),
  targets: entry('/dashboard/management/targets', {
    label: 'nav.taskTargets',
    authorities: ['ACCESS_TASK_TARGET_TAB'],
    section: 'management',
  }),
  transfers: entry('/dashboard/management/transfers', {
    label: 'nav.transfers',
    authorities: ['ACCESS_TRANSFER_TAB'],
    section: 'management',
  }),
  dataEntry: entry('/dashboard/management/dataentry', {
    label: 'nav.dataEntry',
    authorities: ['ACCESS_DATA_ENTRY_TAB'],
    section: 'management',
  }),
  audit: entry('/dashboard/management/audit', {
    label: 'nav.audit',
    authorities: ['VIEW_AUDIT_LOG'],
    section: 'management',
    crumb: true,
  }),
  webhooks: entry('/dashboard/management/webhooks', {
    label: 'nav.webhooks',
    authorities: ['MANAGE_WEBHOOKS'],
    section: 'management',
    crumb: true,
  }),
  alerts: entry('/dashboard/management/alerts', {
    label: 'nav.alerts',
    authorities: ['MANAGE_ALERTS'],
    section: 'management',
    crumb: true,
  }),
} as const;

export type PathKey = keyof typeof PATHS;

/** Crumbs shown before a page's own: Company > Keys. */
export const CRUMB_PARENTS: Partial<Record<PathKey, PathKey>> = { licenseKeys: 'company' };

/**
 * Each section: its landing path, the authorities that make /dashboard pick it, and its pages in
 * the order the default redirect tries them (the sidebar's order).
 */
export const SECTIONS: Record<Section, { landing: PathKey; gate: readonly Authority[]; pages: readonly PathKey[] }> = {
  report: {
    landing: 'report',
    gate: ['ACCESS_AGENT_REPORT_TAB', 'ACCESS_MONITOR_REPORT_TAB'],
    pages: ['reportAgent', 'reportMonitor'],
  },
  workflow: {
    landing: 'workflow',
    gate: ['ACCESS_WORKFLOW_TAB', 'ACCESS_WORKFLOW_ERROR_LOGS_TAB'],
    pages: ['workflowList', 'workflowEvents', 'workflowErrors', 'workflowLogs'],
  },
  license: {
    landing: 'license',
    gate: ['ACCESS_COMPANY_TAB', 'ACCESS_ACCOUNT_TAB', 'ACCESS_ACTIVITY_TAB', 'MANAGE_LICENSING'],
    pages: ['companies', 'company', 'accounts', 'activities', 'premiumActivities'],
  },
  management: {
    landing: 'management',
    gate: [
      'ACCESS_USER_TAB',
      'ACCESS_DEPARTMENT_TAB',
      'ACCESS_ROLE_TAB',
      'ACCESS_STATUS_TAB',
      'ACCESS_TASK_TAB',
      'ACCESS_SCHEDULE_TAB',
      'ACCESS_TASK_TARGET_TAB',
      'ACCESS_TRANSFER_TAB',
      'ACCESS_DATA_ENTRY_TAB',
      'VIEW_AUDIT_LOG',
      'MANAGE_WEBHOOKS',
      'MANAGE_ALERTS',
    ],
    pages: [
      'users',
      'departments',
      'roles',
      'statuses',
      'tasks',
      'schedules',
      'targets',
      'transfers',
      'dataEntry',
      'audit',
      'webhooks',
      'alerts',
    ],
  },
};

/** The order in which /dashboard tries the sections. */
export const SECTION_ORDER: readonly Section[] = ['report', 'workflow', 'license', 'management'];

const PATH_KEYS = Object.keys(PATHS) as PathKey[];

/** Removes a trailing slash so that '/dashboard/' and '/dashboard' are one page. */
export function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

export interface PathMatch {
  key: PathKey;
  params: Record<string, string>;
}

/** The table entry whose pattern matches the whole path, with its parameters. */
export function matchPathKey(pathname: string): PathMatch | null {
  const path = normalizePath(pathname);
  for (const key of PATH_KEYS) {
    const match = matchPath({ path: PATHS[key].pattern, end: true }, path);
    if (match) {
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(match.params)) if (value !== undefined) params[name] = value;
      return { key, params };
    }
  }
  return null;
}
