import type { Department } from '@opsdeck/contract/departments';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { treeSelection } from './department-search';
import { DepartmentTree, departmentTreeData } from './department-tree';

const department = (id: number, name: string, parentId: number | null, companyName = 'Northwind'): Department => ({
  id,
  name,
  head: null,
  headId: null,
  parent: null,
  parentId,
  tenantId: companyName,
  companyName,
  archived: false,
});

// Operations > Dispatch > Night shift; Operations > Fleet; Finance.
const list = [
  department(1, 'Operations', null),
  department(2, 'Dispatch', 1),
  department(3, 'Night shift', 2),
  department(4, 'Fleet', 1),
  department(5, 'Finance', null),
];

describe('treeSelection', () => {
  it('is the matches and their ancestors, or null without a search', () => {
    expect(treeSelection(list, '  ')).toBeNull();
    expect([...(treeSelection(list, 'night') ?? [])].sort()).toEqual([1, 2, 3]);
    expect([...(treeSelection(list, 'FIN') ?? [])]).toEqual([5]);
    expect(treeSelection(list, 'nothing')?.size).toBe(0);
  });
});

describe('departmentTreeData with a search', () => {
  it('keeps a match where it sits, and no placeholder on a department whose children are hidden', () => {
    const tree = departmentTreeData(list, treeSelection(list, 'dispatch'));
    expect(tree.map((node) => node.value)).toEqual(['1']);
    const dispatch = tree[0]?.children?.[0];
    expect(tree[0]?.children?.map((node) => node.value)).toEqual(['2']);
    // Dispatch has a child (Night shift), hidden by the search: not 'No children'.
    expect(dispatch?.children).toBeUndefined();
    // A match with no children at all still says so.
    const finance = departmentTreeData(list, treeSelection(list, 'finance'));
    expect(finance[0]?.children?.map((node) => node.value)).toEqual(['5:none']);
  });

  it('drops the companies with nothing shown, and keeps the company level of a multi-company list', () => {
    const both = [...list, department(6, 'Harbour', null, 'Acme')];
    const tree = departmentTreeData(both, treeSelection(both, 'harbour'));
    expect(tree.map((node) => node.value)).toEqual(['company:Acme']);
    expect(tree[0]?.children?.map((node) => node.value)).toEqual(['6']);
  });
});

describe('DepartmentTree', () => {
  it('follows the search, and says when nothing matches', () => {
    const view = renderWithProviders(<DepartmentTree departments={list} search="night" />);
    const tree = screen.getByRole('tree', { name: 'Department hierarchy' });
    const names = within(tree)
      .getAllByRole('treeitem')
      .map((item) => item.getAttribute('data-value'));
    expect(names).toEqual(['1', '2', '3', '3:none']);
    expect(within(tree).getByText('No children')).toBeTruthy();

    view.unmount();
    renderWithProviders(<DepartmentTree departments={list} search="zzz" />);
    expect(screen.queryByRole('tree')).toBeNull();
    expect(screen.getByText('No department matches "zzz".')).toBeTruthy();
  });
});
