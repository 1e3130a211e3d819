/**
 * Every authority the spec names (section 6), with the title the console shows in the role
 * checklist. The database holds the same list; the server upserts it at start.
 */
export const AUTHORITIES = {
  // Tabs and pages
  ACCESS_AGENT_REPORT_TAB: 'Access agent report tab',
  ACCESS_MONITOR_REPORT_TAB: 'Access monitor report tab',
  ACCESS_WORKFLOW_TAB: 'Access workflow tab',
  ACCESS_WORKFLOW_EVENTS_TAB: 'Access workflow events tab',
  ACCESS_WORKFLOW_ERROR_LOGS_TAB: 'Access workflow error logs tab',
  ACCESS_COMPANY_TAB: 'Access company tab',
  ACCESS_ACCOUNT_TAB: 'Access account tab',
  ACCESS_ACTIVITY_TAB: 'Access activity tab',
  MANAGE_LICENSING: 'Manage licensing',
  ACCESS_USER_TAB: 'Access user tab',
  ACCESS_DEPARTMENT_TAB: 'Access department tab',
  ACCESS_ROLE_TAB: 'Access role tab',
  ACCESS_STATUS_TAB: 'Access status tab',
  ACCESS_TASK_TAB: 'Access task tab',
  ACCESS_SCHEDULE_TAB: 'Access schedule tab',
  ACCESS_TASK_TARGET_TAB: 'Access task target tab',
  ACCESS_TRANSFER_TAB: 'Access transfer tab',
  ACCESS_DATA_ENTRY_TAB: 'Access data entry tab',
  ACCESS_COMPANY_LICENSE_PAGE: 'Access company license page',
  ACCESS_COMPANY_LICENSE_KEY_PAGE: 'Access company license key page',
  // Live events and logs
  VIEW_WORKFLOW_EVENTS: 'View workflow events',
  VIEW_ERROR_LOGS: 'View error logs',
  // Entity actions
  VIEW_ACTIVITY: 'View activity',
  CREATE_ACTIVITY: 'Create activity',
  EDIT_ACTIVITY: 'Edit activity',
  DELETE_ACTIVITY: 'Delete activity',
  VIEW_COMPANY: 'View company',
  CREATE_COMPANY: 'Create company',
  EDIT_COMPANY: 'Edit company',
  DELETE_COMPANY: 'Delete company',
  VIEW_LICENSE: 'View license',
  CREATE_LICENSE: 'Create license',
  EDIT_LICENSE: 'Edit license',
  DELETE_LICENSE: 'Delete license',
  VIEW_DEPARTMENT: 'View department',
  CREATE_DEPARTMENT: 'Create department',
  EDIT_DEPARTMENT: 'Edit department',
  DELETE_DEPARTMENT: 'Delete department',
  VIEW_ROLE: 'View role',
  CREATE_ROLE: 'Create role',
  EDIT_ROLE: 'Edit role',
  DELETE_ROLE: 'Delete role',
  VIEW_SCHEDULE: 'View schedule',
  CREATE_SCHEDULE: 'Create schedule',
  EDIT_SCHEDULE: 'Edit schedule',
  DELETE_SCHEDULE: 'Delete schedule',
  VIEW_STATUS: 'View status',
  CREATE_STATUS: 'Create status',
  EDIT_STATUS: 'Edit status',
  DELETE_STATUS: 'Delete status',
  VIEW_TASK: 'View task',
  CREATE_TASK: 'Create task',
  EDIT_TASK: 'Edit task',
  DELETE_TASK: 'Delete task',
  VIEW_USER: 'View user',
  CREATE_USER: 'Create user',
  EDIT_USER: 'Edit user',
  DELETE_USER: 'Delete user',
  VIEW_WORKFLOW: 'View workflow',
  CREATE_WORKFLOW: 'Create workflow',
  EDIT_WORKFLOW: 'Edit workflow',
  DELETE_WORKFLOW: 'Delete workflow',
  DOWNLOAD_WORKFLOW: 'Download workflow',
  // Licensing
  VIEW_ACCOUNT: 'View account',
  DELETE_ACCOUNT: 'Delete account',
  VIEW_COMPANY_LICENSE: 'View company license',
  VIEW_LICENSE_KEY: 'View license key',
  GENERATE_LICENSE_KEY: 'Generate license key',
  DELETE_LICENSE_KEY: 'Delete license key',
  EXPORT_LICENSE_FILE: 'Export license file',
  // Audit
  VIEW_AUDIT_LOG: 'View audit log',
  MANAGE_WEBHOOKS: 'Manage webhooks',
  MANAGE_ALERTS: 'Manage alert rules and receive alerts',
  // Levels
  ADMIN_ACCESS_LEVEL: 'Admin access level',
  COMPANY_ACCESS_LEVEL: 'Company access level',
  DEPARTMENT_ACCESS_LEVEL: 'Department access level',
} as const;

export type Authority = keyof typeof AUTHORITIES;

export const AUTHORITY_KEYS = Object.keys(AUTHORITIES) as Authority[];

export function isAuthority(value: string): value is Authority {
  return Object.hasOwn(AUTHORITIES, value);
}

const except = (...left: Authority[]) => AUTHORITY_KEYS.filter((key) => !left.includes(key));

/**
 * The built-in roles. The spec leaves the role-to-authority mapping open (section 6); this is
 * ours, documented in docs/roles.md. The provider administrator holds every authority. A company
 * administrator (the company head's role) manages everything inside its own company, but not
 * companies, licences or the activity catalogue, which belong to the provider.
 */
export const BUILT_IN_ROLES = {
  PROVIDER_ADMINISTRATOR: {
    name: 'Provider Administrator',
    isProtected: true,
    authorities: AUTHORITY_KEYS,
  },
  COMPANY_ADMINISTRATOR: {
    name: 'Company Administrator',
    isProtected: true,
    authorities: except(
      'ADMIN_ACCESS_LEVEL',
      'DEPARTMENT_ACCESS_LEVEL',
      'ACCESS_COMPANY_TAB',
      'ACCESS_ACCOUNT_TAB',
      'ACCESS_ACTIVITY_TAB',
      'CREATE_COMPANY',
      'EDIT_COMPANY',
      'DELETE_COMPANY',
      'CREATE_LICENSE',
      'EDIT_LICENSE',
      'DELETE_LICENSE',
      'CREATE_ACTIVITY',
      'EDIT_ACTIVITY',
      'DELETE_ACTIVITY',
      'DELETE_ACCOUNT',
    ),
  },
  DEPARTMENT_HEAD: {
    name: 'Department Head',
    isProtected: true,
    authorities: [
      'DEPARTMENT_ACCESS_LEVEL',
      'ACCESS_AGENT_REPORT_TAB',
      'ACCESS_MONITOR_REPORT_TAB',
      'ACCESS_WORKFLOW_TAB',
      'ACCESS_WORKFLOW_EVENTS_TAB',
      'ACCESS_WORKFLOW_ERROR_LOGS_TAB',
      'VIEW_WORKFLOW_EVENTS',
      'VIEW_ERROR_LOGS',
      'VIEW_WORKFLOW',
      'DOWNLOAD_WORKFLOW',
      'ACCESS_USER_TAB',
      'VIEW_USER',
      'ACCESS_DEPARTMENT_TAB',
      'VIEW_DEPARTMENT',
      'ACCESS_STATUS_TAB',
      'VIEW_STATUS',
      'CREATE_STATUS',
      'EDIT_STATUS',
      'DELETE_STATUS',
      'ACCESS_TASK_TAB',
      'VIEW_TASK',
      'CREATE_TASK',
      'EDIT_TASK',
      'DELETE_TASK',
      'ACCESS_SCHEDULE_TAB',
      'VIEW_SCHEDULE',
      'CREATE_SCHEDULE',
      'EDIT_SCHEDULE',
      'DELETE_SCHEDULE',
      'ACCESS_TASK_TARGET_TAB',
      'ACCESS_TRANSFER_TAB',
      'ACCESS_DATA_ENTRY_TAB',
    ] satisfies Authority[],
  },
  EMPLOYEE: {
    name: 'Employee',
    isProtected: true,
    authorities: [
      'DEPARTMENT_ACCESS_LEVEL',
      'ACCESS_WORKFLOW_TAB',
      'VIEW_WORKFLOW',
      'DOWNLOAD_WORKFLOW',
      'ACCESS_DATA_ENTRY_TAB',
    ] satisfies Authority[],
  },
} as const satisfies Record<string, { name: string; isProtected: boolean; authorities: readonly Authority[] }>;

export type BuiltInRole = keyof typeof BUILT_IN_ROLES;
