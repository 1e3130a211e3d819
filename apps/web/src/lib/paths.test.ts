import { describe, expect, it } from 'vitest';
import { matchPathKey, normalizePath, PATHS } from './paths';

describe('path table', () => {
  it('builds parameterised URLs', () => {
    expect(PATHS.company.build({ companyId: 12 })).toBe('/dashboard/license/companies/12');
    expect(PATHS.licenseKeys.build({ companyId: 12, licenseId: 'a b' })).toBe(
      '/dashboard/license/companies/12/license/a%20b',
    );
    expect(PATHS.users.build()).toBe('/dashboard/management/users');
  });

  it('matches whole paths to their entry and parameters', () => {
    expect(matchPathKey('/dashboard/license/companies/12/license/3')).toEqual({
      key: 'licenseKeys',
      params: { companyId: '12', licenseId: '3' },
    });
    expect(matchPathKey('/dashboard/license/premium-activities/')?.key).toBe('premiumActivities');
    expect(matchPathKey('/dashboard/management/dataentry')?.key).toBe('dataEntry');
    expect(matchPathKey('/dashboard/management/users/extra')).toBeNull();
  });

  it('holds every route of spec section 2', () => {
    const patterns = Object.values(PATHS).map((entry) => entry.pattern);
    for (const route of [
      '/login',
      '/dashboard',
      '/dashboard/report/agent',
      '/dashboard/report/monitor',
      '/dashboard/workflow/list',
      '/dashboard/workflow/events',
      '/dashboard/workflow/errors',
      '/dashboard/workflow/logs',
      '/dashboard/license/companies',
      '/dashboard/license/companies/:companyId',
      '/dashboard/license/companies/:companyId/license/:licenseId',
      '/dashboard/license/accounts',
      '/dashboard/license/activities',
      '/dashboard/license/premium-activities',
      '/dashboard/management/users',
      '/dashboard/management/departments',
      '/dashboard/management/roles',
      '/dashboard/management/statuses',
      '/dashboard/management/tasks',
      '/dashboard/management/schedules',
      '/dashboard/management/targets',
      '/dashboard/management/transfers',
      '/dashboard/management/dataentry',
      '/dashboard/forbidden',
    ]) {
      expect(patterns).toContain(route);
    }
  });

  it('normalises trailing slashes', () => {
    expect(normalizePath('/dashboard/')).toBe('/dashboard');
    expect(normalizePath('/')).toBe('/');
  });
});
