import { describe, expect, it } from 'vitest';
import { viewerOf } from '../../lib/authorities';
import { itemActions, type MenuItemRef, placeRules } from './workflow-access';

const ALL = ['VIEW_WORKFLOW', 'CREATE_WORKFLOW', 'EDIT_WORKFLOW', 'DELETE_WORKFLOW', 'DOWNLOAD_WORKFLOW'];
const admin = viewerOf(ALL, null);
const staff = viewerOf(ALL, 5);
const item = (overrides: Partial<MenuItemRef> = {}): MenuItemRef => ({
  type: 'workflow',
  parent: 'Workflows/Finance',
  protected: false,
  ...overrides,
});

describe('workflow access', () => {
  it('shows changes and search from the third level to the admin and the second to a company user', () => {
    expect(placeRules(admin, 'Workflows')).toEqual({ changesShown: false, creatable: false });
    expect(placeRules(admin, 'Workflows/Northwind')).toEqual({ changesShown: false, creatable: true });
    expect(placeRules(admin, 'Workflows/Northwind/Finance')).toEqual({ changesShown: true, creatable: true });
    expect(placeRules(staff, 'Workflows')).toEqual({ changesShown: false, creatable: true });
    expect(placeRules(staff, 'Workflows/Finance')).toEqual({ changesShown: true, creatable: true });
  });

  it('enables each action by its authority, and disables it without', () => {
    const rules = placeRules(staff, 'Workflows/Finance');
    expect(itemActions(staff, rules, [item()])).toEqual({
      open: 'enabled',
      edit: 'enabled',
      download: 'enabled',
      remove: 'enabled',
      create: 'enabled',
    });
    expect(itemActions(viewerOf(['VIEW_WORKFLOW'], 5), rules, [item()])).toEqual({
      open: 'enabled',
      edit: 'disabled',
      download: 'disabled',
      remove: 'disabled',
      create: 'disabled',
    });
    // The background offers only the creation.
    expect(itemActions(staff, rules, [])).toEqual({
      open: 'hidden',
      edit: 'hidden',
      download: 'hidden',
      remove: 'hidden',
      create: 'enabled',
    });
  });

  it('offers no rename or delete of a company folder, and nothing for several items of different directories', () => {
    const rules = placeRules(admin, 'Workflows/Northwind/Finance');
    expect(itemActions(admin, rules, [item({ type: 'directory', protected: true })])).toMatchObject({
      edit: 'hidden',
      remove: 'hidden',
      download: 'enabled',
    });
    expect(itemActions(admin, rules, [item(), item({ parent: 'Workflows/Northwind/Finance/Q1' })])).toMatchObject({
      open: 'hidden',
      edit: 'disabled',
      download: 'disabled',
      remove: 'disabled',
    });
  });
});
