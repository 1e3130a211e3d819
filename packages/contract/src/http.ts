/** Header names of the fixed interface (docs/architecture.md, "Headers"). */
export const HEADERS = {
  appKey: 'x-app-key',
  authToken: 'x-auth-token',
  /** `Bearer odt_…`: a personal API token (docs/security.md, API tokens). */
  authorization: 'authorization',
  tenantId: 'x-tenant-id',
  appSecret: 'x-app-secret',
} as const;

/** The key the console sends; servers accept it unless APP_KEYS says otherwise. */
export const CONSOLE_APP_KEY = 'opsdeck-console';
export const AGENT_APP_KEY = 'opsdeck-agent';
