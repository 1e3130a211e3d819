import type { Authority } from '@opsdeck/contract/authorities';
import { BUILT_IN_ROLES } from '@opsdeck/contract/authorities';
import { describe, expect, it } from 'vitest';
import { viewerOf } from '../lib/authorities';
import { type AuthState, dashboardDefault, resolveRoute, sectionDefault } from './routing-rules';

const ready = (authorities: readonly Authority[], companyId: number | null = 5): AuthState => ({
  status: 'ready',
  viewer: viewerOf(authorities, companyId),
});

describe('dashboardDefault', () => {
  it.each<[string, Authority[], number | null, string]>([
    ['agent report first', ['ACCESS_AGENT_REPORT_TAB', 'ACCESS_USER_TAB'], 5, '/dashboard/report/agent'],
    [
      'monitor when only it is held',
      ['ACCESS_MONITOR_REPORT_TAB', 'ACCESS_WORKFLOW_TAB'],
      5,
      '/dashboard/report/monitor',
    ],
    ['workflow list', ['ACCESS_WORKFLOW_TAB', 'ACCESS_COMPANY_TAB'], 5, '/dashboard/workflow/list'],
    ['error logs for the error-logs tab alone', ['ACCESS_WORKFLOW_ERROR_LOGS_TAB'], 5, '/dashboard/workflow/errors'],
    ['companies', ['ACCESS_COMPANY_TAB', 'ACCESS_USER_TAB'], null, '/dashboard/license/companies'],
    ['own company licences', ['MANAGE_LICENSING', 'ACCESS_COMPANY_LICENSE_PAGE'], 5, '/dashboard/license/companies/5'],
    ['accounts', ['ACCESS_ACCOUNT_TAB'], null, '/dashboard/license/accounts'],
    ['users', ['ACCESS_USER_TAB', 'ACCESS_ROLE_TAB'], 5, '/dashboard/management/users'],
    ['schedules', ['ACCESS_SCHEDULE_TAB'], 5, '/dashboard/management/schedules'],
    ['data entry', ['ACCESS_DATA_ENTRY_TAB'], 5, '/dashboard/management/dataentry'],
    ['forbidden with no tab', ['VIEW_USER', 'EDIT_USER'], 5, '/dashboard/forbidden'],
  ])('%s', (_name, authorities, companyId, expected) => {
    expect(dashboardDefault(viewerOf(authorities, companyId))).toBe(expected);
  });

  it('does not fall through to a later section: workflow events alone is not a workflow gate', () => {
    expect(dashboardDefault(viewerOf(['ACCESS_WORKFLOW_EVENTS_TAB', 'ACCESS_USER_TAB']))).toBe(
      '/dashboard/management/users',
    );
  });

  it('sends a licensing manager without a company page authority to forbidden', () => {
    expect(dashboardDefault(viewerOf(['MANAGE_LICENSING'], 5))).toBe('/dashboard/forbidden');
  });

  it('matches the built-in roles', () => {
    expect(dashboardDefault(viewerOf(BUILT_IN_ROLES.PROVIDER_ADMINISTRATOR.authorities, null))).toBe(
      '/dashboard/report/agent',
    );
    expect(dashboardDefault(viewerOf(BUILT_IN_ROLES.EMPLOYEE.authorities, 5))).toBe('/dashboard/workflow/list');
  });
});

describe('sectionDefault', () => {
  it('takes the first page of the section the viewer may open', () => {
    expect(sectionDefault('management', viewerOf(['ACCESS_TASK_TAB', 'ACCESS_TRANSFER_TAB']))).toBe(
      '/dashboard/management/tasks',
    );
    expect(sectionDefault('license', viewerOf(['ACCESS_ACTIVITY_TAB']))).toBe('/dashboard/license/activities');
  });

  it('skips the own-company page for a user without a company', () => {
    expect(
      sectionDefault(
        'license',
        viewerOf(['MANAGE_LICENSING', 'ACCESS_COMPANY_LICENSE_PAGE', 'ACCESS_ACCOUNT_TAB'], null),
      ),
    ).toBe('/dashboard/license/accounts');
  });

  it('is forbidden when nothing in the section is open', () => {
    expect(sectionDefault('report', viewerOf(['ACCESS_USER_TAB']))).toBe('/dashboard/forbidden');
  });
});

describe('resolveRoute', () => {
  it('sends anonymous users to login from every other path', () => {
    for (const path of ['/', '/dashboard', '/dashboard/management/users', '/nowhere']) {
      expect(resolveRoute(path, { status: 'anonymous' })).toEqual({ kind: 'redirect', to: '/login' });
    }
    expect(resolveRoute('/login', { status: 'anonymous' })).toEqual({ kind: 'render' });
  });

  it('keeps the login panel while the profile loads, then sends a signed-in user to the dashboard', () => {
    expect(resolveRoute('/login', { status: 'loading' })).toEqual({ kind: 'render' });
    expect(resolveRoute('/login', ready(['ACCESS_USER_TAB']))).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('renders nothing of a page while the profile loads', () => {
    expect(resolveRoute('/dashboard/management/users', { status: 'loading' })).toEqual({ kind: 'wait' });
  });

  it('shows the unauthorized page to everyone', () => {
    expect(resolveRoute('/unauthorized', { status: 'anonymous' })).toEqual({ kind: 'render' });
    expect(resolveRoute('/unauthorized', ready(['ACCESS_USER_TAB']))).toEqual({ kind: 'render' });
  });

  it('redirects /dashboard and section landings to their defaults', () => {
    const auth = ready(['ACCESS_MONITOR_REPORT_TAB', 'ACCESS_ROLE_TAB']);
    expect(resolveRoute('/dashboard', auth)).toEqual({ kind: 'redirect', to: '/dashboard/report/monitor' });
    expect(resolveRoute('/dashboard/', auth)).toEqual({ kind: 'redirect', to: '/dashboard/report/monitor' });
    expect(resolveRoute('/dashboard/management', auth)).toEqual({
      kind: 'redirect',
      to: '/dashboard/management/roles',
    });
    expect(resolveRoute('/dashboard/workflow', auth)).toEqual({ kind: 'redirect', to: '/dashboard/forbidden' });
  });

  it('sends a sub-route without its tab authority to forbidden', () => {
    const auth = ready(['ACCESS_USER_TAB']);
    expect(resolveRoute('/dashboard/management/users', auth)).toEqual({ kind: 'render' });
    expect(resolveRoute('/dashboard/management/roles', auth)).toEqual({ kind: 'redirect', to: '/dashboard/forbidden' });
    expect(resolveRoute('/dashboard/workflow/events', auth)).toEqual({ kind: 'redirect', to: '/dashboard/forbidden' });
    expect(resolveRoute('/dashboard/forbidden', auth)).toEqual({ kind: 'render' });
  });

  it('sends unknown report paths to the agent report', () => {
    const auth = ready(['ACCESS_AGENT_REPORT_TAB']);
    expect(resolveRoute('/dashboard/report/anything/else', auth)).toEqual({
      kind: 'redirect',
      to: '/dashboard/report/agent',
    });
  });

  it('guards the company licences and licence-key pages with their page authorities', () => {
    const keysOnly = ready(['ACCESS_COMPANY_LICENSE_KEY_PAGE']);
    expect(resolveRoute('/dashboard/license/companies/5/license/9', keysOnly)).toEqual({ kind: 'render' });
    expect(resolveRoute('/dashboard/license/companies/5', keysOnly)).toEqual({
      kind: 'redirect',
      to: '/dashboard/forbidden',
    });
    const pageOnly = ready(['ACCESS_COMPANY_LICENSE_PAGE']);
    expect(resolveRoute('/dashboard/license/companies/5', pageOnly)).toEqual({ kind: 'render' });
    expect(resolveRoute('/dashboard/license/companies/5/license/9', pageOnly)).toEqual({
      kind: 'redirect',
      to: '/dashboard/forbidden',
    });
  });

  it('gives a user without authorities the shell and no redirects', () => {
    expect(resolveRoute('/dashboard', ready([]))).toEqual({ kind: 'render' });
    expect(resolveRoute('/dashboard/management/users', ready([]))).toEqual({ kind: 'render' });
  });

  it('sends signed-in users on unknown paths to the dashboard', () => {
    const auth = ready(['ACCESS_USER_TAB']);
    expect(resolveRoute('/', auth)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(resolveRoute('/settings', auth)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(resolveRoute('/dashboard/management/nothing', auth)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('reports a failed profile load instead of guessing', () => {
    expect(resolveRoute('/dashboard', { status: 'failed' })).toEqual({ kind: 'failed' });
  });
});
