import { AUTHORITY_KEYS, type Authority, isAuthority } from './authorities';

/** The areas the role checklist groups the authorities by, in the order it shows them. */
export const AUTHORITY_GROUPS = [
  'users',
  'departments',
  'roles',
  'statuses',
  'tasks',
  'schedules',
  'workflows',
  'licensing',
  'companies',
  'accounts',
  'activities',
  'reports',
  'audit',
  'integrations',
  'pages',
  'levels',
] as const;

export type AuthorityGroup = (typeof AUTHORITY_GROUPS)[number];

/**
 * The area of each authority. An area's tab goes with the area (a user meets "Access user tab"
 * beside "View user"); "pages" keeps the tabs of screens with no area of their own yet. A record
 * over every key, so a new authority does not compile until it has an area.
 */
export const AUTHORITY_GROUP_OF: Record<Authority, AuthorityGroup> = {
  ACCESS_USER_TAB: 'users',
  VIEW_USER: 'users',
  CREATE_USER: 'users',
  EDIT_USER: 'users',
  DELETE_USER: 'users',
  ACCESS_DEPARTMENT_TAB: 'departments',
  VIEW_DEPARTMENT: 'departments',
  CREATE_DEPARTMENT: 'departments',
  EDIT_DEPARTMENT: 'departments',
  DELETE_DEPARTMENT: 'departments',
  ACCESS_ROLE_TAB: 'roles',
  VIEW_ROLE: 'roles',
  CREATE_ROLE: 'roles',
  EDIT_ROLE: 'roles',
  DELETE_ROLE: 'roles',
  ACCESS_STATUS_TAB: 'statuses',
  VIEW_STATUS: 'statuses',
  CREATE_STATUS: 'statuses',
  EDIT_STATUS: 'statuses',
  DELETE_STATUS: 'statuses',
  ACCESS_TASK_TAB: 'tasks',
  VIEW_TASK: 'tasks',
  CREATE_TASK: 'tasks',
  EDIT_TASK: 'tasks',
  DELETE_TASK: 'tasks',
  ACCESS_SCHEDULE_TAB: 'schedules',
  VIEW_SCHEDULE: 'schedules',
  CREATE_SCHEDULE: 'schedules',
  EDIT_SCHEDULE: 'schedules',
  DELETE_SCHEDULE: 'schedules',
  ACCESS_WORKFLOW_TAB: 'workflows',
  VIEW_WORKFLOW: 'workflows',
  CREATE_WORKFLOW: 'workflows',
  EDIT_WORKFLOW: 'workflows',
  DELETE_WORKFLOW: 'workflows',
  DOWNLOAD_WORKFLOW: 'workflows',
  MANAGE_LICENSING: 'licensing',
  ACCESS_COMPANY_LICENSE_PAGE: 'licensing',
  ACCESS_COMPANY_LICENSE_KEY_PAGE: 'licensing',
  VIEW_LICENSE: 'licensing',
  CREATE_LICENSE: 'licensing',
  EDIT_LICENSE: 'licensing',
  DELETE_LICENSE: 'licensing',
  VIEW_COMPANY_LICENSE: 'licensing',
  VIEW_LICENSE_KEY: 'licensing',
  GENERATE_LICENSE_KEY: 'licensing',
  DELETE_LICENSE_KEY: 'licensing',
  EXPORT_LICENSE_FILE: 'licensing',
  VIEW_AUDIT_LOG: 'audit',
  MANAGE_WEBHOOKS: 'integrations',
  MANAGE_ALERTS: 'integrations',
  ACCESS_COMPANY_TAB: 'companies',
  VIEW_COMPANY: 'companies',
  CREATE_COMPANY: 'companies',
  EDIT_COMPANY: 'companies',
  DELETE_COMPANY: 'companies',
  ACCESS_ACCOUNT_TAB: 'accounts',
  VIEW_ACCOUNT: 'accounts',
  DELETE_ACCOUNT: 'accounts',
  ACCESS_ACTIVITY_TAB: 'activities',
  VIEW_ACTIVITY: 'activities',
  CREATE_ACTIVITY: 'activities',
  EDIT_ACTIVITY: 'activities',
  DELETE_ACTIVITY: 'activities',
  ACCESS_AGENT_REPORT_TAB: 'reports',
  ACCESS_MONITOR_REPORT_TAB: 'reports',
  ACCESS_WORKFLOW_EVENTS_TAB: 'reports',
  ACCESS_WORKFLOW_ERROR_LOGS_TAB: 'reports',
  VIEW_WORKFLOW_EVENTS: 'reports',
  VIEW_ERROR_LOGS: 'reports',
  ACCESS_TASK_TARGET_TAB: 'pages',
  ACCESS_TRANSFER_TAB: 'pages',
  ACCESS_DATA_ENTRY_TAB: 'pages',
  ADMIN_ACCESS_LEVEL: 'levels',
  COMPANY_ACCESS_LEVEL: 'levels',
  DEPARTMENT_ACCESS_LEVEL: 'levels',
};

export interface GroupedAuthorities<T> {
  group: AuthorityGroup;
  items: T[];
}

const ORDER = new Map<string, number>(AUTHORITY_KEYS.map((key, index) => [key, index]));

/**
 * `items` (authorities by key, such as the ones a user may grant) in their areas: the areas in
 * AUTHORITY_GROUPS order, each authority in the order of AUTHORITIES, and no empty area. A key
 * the contract does not know has no area and is left out.
 */
export function groupAuthorities<T extends { key: string }>(items: readonly T[]): GroupedAuthorities<T>[] {
  const known = items.filter((item) => isAuthority(item.key));
  const sorted = [...known].sort((a, b) => (ORDER.get(a.key) ?? 0) - (ORDER.get(b.key) ?? 0));
  return AUTHORITY_GROUPS.map((group) => ({
    group,
    items: sorted.filter((item) => AUTHORITY_GROUP_OF[item.key as Authority] === group),
  })).filter((entry) => entry.items.length > 0);
}
