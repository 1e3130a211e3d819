import { z } from 'zod';

/**
 * The error catalogue: every key of spec section 8, plus the few the API needs for protocol
 * failures (no app key, no session, missing authority, throttling). The English text is what the
 * console shows; the server sends it as `message` beside the key.
 */
export const ERROR_MESSAGES = {
  // General
  ERROR_GENERAL_INTERNAL: 'Oops! Something went wrong in processing your request.',
  ERROR_GENERAL_PROTECTED: 'The item is protected and cannot be deleted.',
  ERROR_GENERAL_INVALID_INPUT: 'The request is not valid.',
  ERROR_GENERAL_NOT_FOUND: 'The item cannot be found.',
  ERROR_GENERAL_NAME_REQUIRED: 'Name is required.',
  ERROR_GENERAL_NAME_TOO_LONG: 'Name must be at most 255 characters.',
  ERROR_GENERAL_NAME_INVALID: 'Name must not contain \\ / : * ? " | < >.',
  ERROR_WEBSOCKET_CONNECTION_FAILURE: 'Could not connect to the Server. Please try again later.',
  ERROR_WORKFLOW_EVENTS_WORKFLOW_LIST_EMPTY: 'No workflows at the moment.',
  // Protocol
  ERROR_APP_KEY_INVALID: 'The application key is missing or not recognised.',
  ERROR_UNAUTHORIZED: 'Your session has ended. Please sign in again.',
  ERROR_FORBIDDEN: 'You do not have access to this.',
  ERROR_TENANT_FORBIDDEN: 'You cannot act on another company.',
  ERROR_TOO_MANY_REQUESTS: 'Too many attempts. Please wait a few minutes and try again.',
  ERROR_PAYLOAD_TOO_LARGE: 'The request is too large.',
  // Login, forgot and reset
  ERROR_LOGIN_FORM_EMAIL_REQUIRED: 'Email is required.',
  ERROR_LOGIN_FORM_PASSWORD_REQUIRED: 'Password is required.',
  ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS: 'Invalid username/password.',
  ERROR_FORGOT_PASSWORD_FORM_EMAIL_REQUIRED: 'Email is required.',
  ERROR_FORGOT_PASSWORD_FORM_INVALID: 'Invalid username.',
  ERROR_RESET_PASSWORD_FORM_PASSWORD_REQUIRED: 'New password is required.',
  ERROR_RESET_PASSWORD_FORM_CONFIRM_REQUIRED: 'Password confirmation is required.',
  ERROR_RESET_PASSWORD_FORM_MISMATCH: 'Password does not match.',
  ERROR_RESET_PASSWORD_FORM_INVALID: 'Invalid reset password.',
  // Company
  ERROR_COMPANY_NAME_REQUIRED: 'Company name is required.',
  ERROR_COMPANY_NAME_INVALID: 'Company name must not contain \\ / : * ? " | < > or end with a dot.',
  ERROR_COMPANY_NAME_TOO_LONG: 'Company name must be at most 255 characters.',
  ERROR_COMPANY_NAME_DUPLICATE: 'A company with this name already exists.',
  ERROR_COMPANY_INDUSTRY_REQUIRED: 'Industry is required.',
  ERROR_COMPANY_INDUSTRY_INVALID: 'Industry is not valid.',
  ERROR_COMPANY_HEAD_REQUIRED: 'Company head is required.',
  ERROR_COMPANY_HEAD_INVALID: 'The company head already belongs to another company.',
  ERROR_COMPANY_EMAIL_DUPLICATE: 'This e-mail address is already used.',
  ERROR_COMPANY_NOT_EXIST: 'The company does not exist.',
  ERROR_COMPANY_FULL_LICENSES: 'Company has already reached its allowed key count.',
  ERROR_COMPANY_MORE_LICENSES: 'Company is using more licenses than the new allowed key count.',
  ERROR_COMPANY_HAS_LICENSE: 'Company has licenses and cannot be deleted.',
  // Licence
  ERROR_LICENSE_TYPE_REQUIRED: 'License type is required.',
  ERROR_LICENSE_TYPE_INVALID: 'License type is not valid.',
  ERROR_LICENSE_LABEL_TOO_LONG: 'Label must be at most 255 characters.',
  ERROR_LICENSE_EXPIRATION_DATE_REQUIRED: 'Expiration date is required.',
  ERROR_LICENSE_EXPIRATION_DATE_INVALID: 'Expiration date must be a valid date in the future.',
  ERROR_LICENSE_ALLOWED_KEYS_REQUIRED: 'Allowed keys is required.',
  ERROR_LICENSE_ALLOWED_KEYS_TOO_LOW: 'Allowed keys must be at least 1.',
  ERROR_LICENSE_ALLOWED_KEYS_TOO_HIGH: 'Allowed keys must be at most 100.',
  ERROR_LICENSE_NOT_EXIST: 'The license does not exist.',
  ERROR_LICENSE_ID_REQUIRED: 'License is required.',
  ERROR_LICENSE_NOT_SOLO: 'The license is not a solo license.',
  ERROR_LICENSE_OTHER_COMPANY: 'License is associated with another company',
  ERROR_LICENSE_EXPIRED_KEY: 'The license has expired.',
  // Accounts and keys
  ERROR_ACCOUNT_DEPARTMENT_REQUIRED: 'Department is required.',
  ERROR_ACCOUNT_REGFILE_REQUIRED: 'Registration file is required.',
  ERROR_ACCOUNT_REGFILE_UNSUPPORTED: 'Registration file must be a .dat file.',
  ERROR_ACCOUNT_REGFILE_INVALID: 'Registration file is not valid.',
  ERROR_ACCOUNT_NOT_EXIST: 'The account does not exist.',
  // Activity
  ERROR_ACTIVITY_NAME_REQUIRED: 'Activity name is required.',
  ERROR_ACTIVITY_KEY_REQUIRED: 'Activity key is required.',
  ERROR_ACTIVITY_NAME_EXCEEDS_CHARACTER_LIMIT: 'Activity name must be at most 255 characters.',
  ERROR_ACTIVITY_KEY_EXCEEDS_CHARACTER_LIMIT: 'Activity key must be at most 255 characters.',
  ERROR_ACTIVITY_CATEGORY_EXCEEDS_CHARACTER_LIMIT: 'Activity category must be at most 255 characters.',
  ERROR_ACTIVITY_ID_REQUIRED: 'Activity is required.',
  ERROR_ACTIVITY_NOT_EXIST: 'The activity cannot be found or is archived.',
  ERROR_ACTIVITY_GENERAL_INTERNAL: 'Oops! Something went wrong while archiving the activity.',
  // Workflow and directories
  ERROR_WORKFLOW_FILE_REQUIRED: 'Workflow file is required.',
  ERROR_WORKFLOW_FILE_EXIST: 'A workflow file with this name already exists.',
  ERROR_WORKFLOW_FILE_UNSUPPORTED: 'Workflow file must be a .rax file.',
  ERROR_WORKFLOW_NAME_REQUIRED: 'Workflow name is required.',
  ERROR_WORKFLOW_NAME_INVALID: 'Workflow name must not contain \\ / : * ? " | < >.',
  ERROR_WORKFLOW_NAME_TOO_LONG: 'Workflow name must be at most 255 characters.',
  ERROR_WORKFLOW_DESCRIPTION_TOO_LONG: 'Description must be at most 1024 characters.',
  ERROR_WORKFLOW_ID_REQUIRED: 'Workflow is required.',
  ERROR_WORKFLOW_NOT_EXIST: 'The workflow cannot be found or is archived.',
  ERROR_WORKFLOW_GENERAL_INTERNAL: 'Oops! Something went wrong while processing the workflow.',
  ERROR_DIRECTORY_NAME_REQUIRED: 'Name is required.',
  ERROR_DIRECTORY_NAME_TOO_LONG: 'Name must be at most 255 characters.',
  ERROR_DIRECTORY_NAME_INVALID: 'Name must not contain \\ / : * ? " | < >.',
  ERROR_DIRECTORY_NAME_EXIST: 'A file or directory with this name already exists.',
  ERROR_DIRECTORY_NOT_EXIST: 'The directory does not exist.',
  // Department
  ERROR_DEPARTMENT_NAME_REQUIRED: 'Department name is required.',
  ERROR_DEPARTMENT_NAME_TOO_LONG: 'Department name must be at most 255 characters.',
  ERROR_DEPARTMENT_NAME_INVALID: 'Department name must not contain \\ / : * ? " | < >.',
  ERROR_DEPARTMENT_NAME_DUPLICATE: 'A department with this name already exists.',
  ERROR_DEPARTMENT_HEAD_REQUIRED: 'Department head is required.',
  ERROR_DEPARTMENT_HEAD_NOT_SELECTED: 'Select a department head from the list.',
  ERROR_DEPARTMENT_NOT_EXIST: 'The department does not exist.',
  ERROR_DEPARTMENT_PARENT_INVALID: 'A department cannot be its own parent or a child of its descendants.',
  ERROR_DEPARTMENT_DELETE_HAS_CHILDREN: 'Department has child departments and cannot be deleted.',
  ERROR_DEPARTMENT_DELETE_ASSOCIATED_WITH_STATUSES: 'Department has statuses and cannot be deleted.',
  ERROR_COMPANY_REQUIRED: 'Company is required.',
  // Status
  ERROR_STATUS_DEPARTMENT_REQUIRED: 'Department is required.',
  ERROR_STATUS_THRESHOLD_INVALID: 'Threshold must be a whole number from 0 to 60.',
  ERROR_STATUS_COLOR_REQUIRED: 'Color is required.',
  ERROR_STATUS_COLOR_INVALID: 'Color must be a hex value such as #1a2b3c.',
  ERROR_STATUS_ICON_REQUIRED: 'Icon is required.',
  ERROR_STATUS_ICON_UNSUPPORTED: 'Icon must be a .png file.',
  ERROR_STATUS_ICON_TOO_BIG: 'Icon must be at most 512000 bytes.',
  ERROR_STATUS_ICON_INVALID_DIMENSION: 'Icon must be a square of 24, 48 or 128 pixels.',
  ERROR_STATUS_INACCESSIBLE: 'You can only change statuses of departments you head.',
  ERROR_STATUS_DELETE: 'Status has tasks and cannot be deleted.',
  ERROR_STATUS_NOT_EXIST: 'The status does not exist.',
  // Task
  ERROR_TASK_NAME_REQUIRED: 'Task name is required.',
  ERROR_TASK_STATUS_REQUIRED: 'Status is required.',
  ERROR_TASK_DEPARTMENT_REQUIRED: 'Department is required.',
  ERROR_TASK_INACCESSIBLE: 'You can only change tasks of departments you head.',
  ERROR_TASK_NOT_EXIST: 'The task does not exist.',
  // User
  ERROR_USER_EMAIL_ALREADY_USED: 'This e-mail address is already used.',
  ERROR_USER_FIRST_NAME_REQUIRED: 'First name is required.',
  ERROR_USER_FIRST_NAME_TOO_LONG: 'First name must be at most 255 characters.',
  ERROR_USER_LAST_NAME_REQUIRED: 'Last name is required.',
  ERROR_USER_LAST_NAME_TOO_LONG: 'Last name must be at most 255 characters.',
  ERROR_USER_EMAIL_REQUIRED: 'E-mail is required.',
  ERROR_USER_EMAIL_TOO_LONG: 'E-mail must be at most 255 characters.',
  ERROR_USER_EMAIL_INVALID: 'E-mail is not valid.',
  ERROR_USER_PASSWORD_REQUIRED: 'Password is required.',
  ERROR_USER_CONFIRM_PASSWORD_REQUIRED: 'Password confirmation is required.',
  ERROR_USER_PASSWORD_MISMATCH: 'Password does not match.',
  ERROR_USER_DEPARTMENT_REQUIRED: 'Department is required.',
  ERROR_USER_ROLE_REQUIRED: 'Role is required.',
  ERROR_USER_NOT_EXIST: 'The user does not exist.',
  ERROR_USER_DEPARTMENT_HEAD: 'The user heads a department and cannot be deleted.',
  ERROR_USER_COMPANY_HEAD: 'The user is the head of the company and cannot be deleted.',
  ERROR_USER_ARCHIVE_SELF: 'You cannot delete your own account.',
  ERROR_USER_ROLE_NOT_ALLOWED: 'You cannot give a role with authorities you do not hold yourself.',
  // Role
  ERROR_ROLE_NAME_REQUIRED: 'Role name is required.',
  ERROR_ROLE_NAME_TOO_LONG: 'Role name must be at most 255 characters.',
  ERROR_ROLE_NAME_INVALID: 'Role name must not contain \\ / : * ? " | < >.',
  ERROR_ROLE_NAME_DUPLICATE: 'A role with this name already exists.',
  ERROR_ROLE_NOT_EXIST: 'The role does not exist.',
  ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER: 'Role is assigned to users and cannot be deleted.',
  ERROR_ROLE_AUTHORITY_INVALID: 'Unknown authority.',
  ERROR_ROLE_PROTECTED: 'Built-in roles cannot be changed.',
  // Schedules
  ERROR_SCHEDULE_NOTHING_SELECTED: 'Nothing is selected',
  ERROR_SCHEDULE_LOCKED: 'Only schedules later than the edit lock can be changed.',
  ERROR_SCHEDULE_NOT_EXIST: 'The schedule does not exist.',
  ERROR_SCHEDULE_USERS_REQUIRED: 'No users selected',
  ERROR_SCHEDULE_USER_INVALID: 'The user does not exist or is archived.',
  ERROR_SCHEDULE_START_DATE_REQUIRED: 'Select start date',
  ERROR_SCHEDULE_END_DATE_REQUIRED: 'Select end date',
  ERROR_SCHEDULE_DATES_INVALID: 'Start date must not be after end date.',
  ERROR_SCHEDULE_WEEKDAYS_REQUIRED: 'Select at least one weekday',
  ERROR_SCHEDULE_SHIFT_START_REQUIRED: 'Select shift start',
  ERROR_SCHEDULE_SHIFT_END_REQUIRED: 'Select shift end',
  ERROR_SCHEDULE_SHIFT_INVALID: 'Shift end must be after shift start.',
  ERROR_SCHEDULE_NO_DAYS: 'No day in the date range falls on the selected weekdays.',
  ERROR_SCHEDULE_TOO_MANY: 'At most 5000 schedules can be changed at once.',
} as const;

export type ErrorKey = keyof typeof ERROR_MESSAGES;

export function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && Object.hasOwn(ERROR_MESSAGES, value);
}

/** The body of every failed API call (ARCHITECTURE.md, errors). */
export const ApiErrorBody = z
  .object({
    key: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ApiError' });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
