import { describe, expect, it } from 'vitest';
import { viewerOf } from '../lib/authorities';
import { isLinkActive, visibleNavGroups } from './nav-model';

const labels = (authorities: string[], companyId: number | null = 5) =>
  visibleNavGroups(viewerOf(authorities, companyId)).map((group) => [
    group.label,
    group.links.map((link) => link.label),
  ]);

describe('sidebar model', () => {
  it('shows only the links whose authority the user holds, and drops empty groups', () => {
    expect(labels(['ACCESS_USER_TAB', 'ACCESS_WORKFLOW_EVENTS_TAB'])).toEqual([
      ['nav.workflowManagement', ['nav.events']],
      ['nav.userManagement', ['nav.users']],
    ]);
  });

  it("links 'Licenses' to the user's own company only for a user with a company and MANAGE_LICENSING", () => {
    const withCompany = visibleNavGroups(viewerOf(['MANAGE_LICENSING'], 8));
    expect(withCompany[0]?.links).toEqual([
      expect.objectContaining({ label: 'nav.licenses', to: '/dashboard/license/companies/8' }),
    ]);
    expect(visibleNavGroups(viewerOf(['MANAGE_LICENSING'], null))).toEqual([]);
    expect(visibleNavGroups(viewerOf(['ACCESS_COMPANY_LICENSE_PAGE'], 8))).toEqual([]);
  });

  it('lights a link when the current path contains its path, by whole segments', () => {
    const link = { to: '/dashboard/license/companies', exact: false };
    expect(isLinkActive(link, '/dashboard/license/companies')).toBe(true);
    expect(isLinkActive(link, '/dashboard/license/companies/5/license/2')).toBe(true);
    expect(
      isLinkActive({ to: '/dashboard/license/companies/5', exact: false }, '/dashboard/license/companies/50'),
    ).toBe(false);
    expect(isLinkActive({ to: '/dashboard', exact: true }, '/dashboard/management/users')).toBe(false);
  });
});
