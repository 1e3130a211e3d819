import { describe, expect, it } from 'vitest';
import { advanceTrail, type Crumb, crumbsFor, visibleTrail } from './breadcrumb-trail';

const visit = (...paths: string[]) => paths.reduce<Crumb[]>((trail, path) => advanceTrail(trail, path), []);

describe('breadcrumb trail', () => {
  it('has crumbs only for the pages the spec names', () => {
    expect(crumbsFor('/dashboard/management/users')).toEqual([
      { path: '/dashboard/management/users', label: 'nav.users' },
    ]);
    expect(crumbsFor('/dashboard/license/accounts')).toEqual([]);
    expect(crumbsFor('/dashboard/report/agent')).toEqual([]);
  });

  it('puts the company before its keys', () => {
    expect(visit('/dashboard/license/companies/5/license/9').map((crumb) => crumb.label)).toEqual([
      'nav.company',
      'nav.keys',
    ]);
    expect(visit('/dashboard/license/companies/5/license/9')[0]?.path).toBe('/dashboard/license/companies/5');
  });

  it('adds visited pages and cuts back to a page visited again', () => {
    const trail = visit(
      '/dashboard/management/users',
      '/dashboard/management/roles',
      '/dashboard/management/tasks',
      '/dashboard/management/roles',
    );
    expect(trail.map((crumb) => crumb.label)).toEqual(['nav.users', 'nav.roles']);
  });

  it('leaves the trail alone on pages without a crumb', () => {
    const trail = visit('/dashboard/management/users', '/dashboard/license/accounts');
    expect(trail.map((crumb) => crumb.label)).toEqual(['nav.users']);
  });

  it('shows the last 5 with an ellipsis that jumps to the entry before them', () => {
    const trail = visit(
      '/dashboard/management/users',
      '/dashboard/management/departments',
      '/dashboard/management/roles',
      '/dashboard/management/statuses',
      '/dashboard/management/tasks',
      '/dashboard/workflow/list',
      '/dashboard/workflow/events',
    );
    const { jumpBack, shown } = visibleTrail(trail);
    expect(shown.map((crumb) => crumb.label)).toEqual([
      'nav.roles',
      'nav.statuses',
      'nav.tasks',
      'nav.workflows',
      'nav.events',
    ]);
    expect(jumpBack?.path).toBe('/dashboard/management/departments');
    expect(visibleTrail(trail.slice(0, 5)).jumpBack).toBeNull();
  });
});
