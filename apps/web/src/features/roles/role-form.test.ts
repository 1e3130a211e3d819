import type { Role } from '@opsdeck/contract/roles';
import { describe, expect, it } from 'vitest';
import { authoritiesToSave, roleFormSchema } from './role-form';
import { filterRoles } from './role-search';

describe('roleFormSchema', () => {
  it('fails with the server keys: name required and at most 255, company for admins', () => {
    const admin = roleFormSchema(true);
    const empty = admin.safeParse({ name: '  ', company: null, authorityNames: [] });
    expect(empty.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['name', 'ERROR_ROLE_NAME_REQUIRED'],
      ['company', 'ERROR_COMPANY_REQUIRED'],
    ]);
    // A name never typed (undefined) is a type error, which stops object-level checks: the
    // company is still flagged on the first submit.
    const untouched = admin.safeParse({ company: null, authorityNames: [] });
    expect(untouched.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['name', 'company']);
    expect(admin.safeParse({ name: 'a/b', company: 't', authorityNames: [] }).error?.issues[0]?.message).toBe(
      'ERROR_ROLE_NAME_INVALID',
    );
    expect(admin.safeParse({ name: 'x'.repeat(256), company: 't', authorityNames: [] }).error?.issues[0]?.message).toBe(
      'ERROR_ROLE_NAME_TOO_LONG',
    );
    expect(roleFormSchema(false).safeParse({ name: 'Auditors', company: null, authorityNames: [] }).success).toBe(true);
  });
});

describe('authoritiesToSave', () => {
  it('sends the checked grantable keys and keeps held keys the editor could not see', () => {
    expect(
      authoritiesToSave(
        ['VIEW_USER', 'EDIT_USER', 'CREATE_COMPANY'],
        ['CREATE_COMPANY', 'VIEW_USER'],
        ['VIEW_USER', 'EDIT_USER'],
      ),
    ).toEqual(['VIEW_USER', 'EDIT_USER', 'CREATE_COMPANY']);
    expect(authoritiesToSave([], ['CREATE_COMPANY', 'VIEW_USER'], ['VIEW_USER'])).toEqual(['CREATE_COMPANY']);
  });
});

describe('filterRoles', () => {
  const role = (name: string, companyName: string | null, titles: string[]): Role => ({
    id: name.length,
    name,
    isProtected: false,
    editable: true,
    deletable: true,
    tenantId: null,
    companyName,
    authorities: titles.map((title) => ({ id: title, key: title, title })),
  });
  const roles = [role('Auditors', 'North', ['View user']), role('Planners', 'South', ['Create schedule'])];

  it('matches name, company or authority title, case-insensitively', () => {
    expect(filterRoles(roles, 'audit').map((r) => r.name)).toEqual(['Auditors']);
    expect(filterRoles(roles, 'SOUTH').map((r) => r.name)).toEqual(['Planners']);
    expect(filterRoles(roles, 'schedule').map((r) => r.name)).toEqual(['Planners']);
    expect(filterRoles(roles, '  ')).toHaveLength(2);
  });
});
