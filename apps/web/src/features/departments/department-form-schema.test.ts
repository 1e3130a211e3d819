import type { Department } from '@opsdeck/contract/departments';
import { describe, expect, it } from 'vitest';
import { departmentFormSchema, parentChoices, toSaveDepartment } from './department-form-schema';
import { departmentTreeData } from './department-tree';

const issues = (needsCompany: boolean, values: Record<string, unknown>) => {
  const result = departmentFormSchema(needsCompany).safeParse({
    company: 'tenant',
    name: 'Sales',
    head: { text: 'Ann Lee', id: 4 },
    parentId: null,
    ...values,
  });
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('the department form', () => {
  it('tells an empty head from a typed but unpicked one', () => {
    expect(issues(false, { head: { text: '  ', id: null } })).toEqual({ head: 'ERROR_DEPARTMENT_HEAD_REQUIRED' });
    expect(issues(false, { head: { text: 'Ann', id: null } })).toEqual({ head: 'ERROR_DEPARTMENT_HEAD_NOT_SELECTED' });
    expect(issues(false, {})).toEqual({});
  });

  it('fails the name with the server’s keys', () => {
    expect(issues(false, { name: ' ' })).toEqual({ name: 'ERROR_DEPARTMENT_NAME_REQUIRED' });
    expect(issues(false, { name: 'x'.repeat(256) })).toEqual({ name: 'ERROR_DEPARTMENT_NAME_TOO_LONG' });
    expect(issues(false, { name: 'a|b' })).toEqual({ name: 'ERROR_DEPARTMENT_NAME_INVALID' });
  });

  it('needs a company for admins only', () => {
    expect(issues(true, { company: null })).toEqual({ company: 'ERROR_COMPANY_REQUIRED' });
    expect(issues(false, { company: null })).toEqual({});
  });

  it('sends the picked head and the parent as numbers', () => {
    const values = departmentFormSchema(false).parse({
      company: null,
      name: ' Sales ',
      head: { text: 'Ann Lee', id: 4 },
      parentId: '9',
    });
    expect(toSaveDepartment(values)).toEqual({ name: 'Sales', headId: 4, parentId: 9 });
  });
});

const department = (id: number, parentId: number | null): Department => ({
  id,
  name: `D${id}`,
  head: null,
  headId: null,
  parent: null,
  parentId,
  tenantId: 't',
  companyName: 'C',
  archived: false,
});
const list = [department(1, null), department(2, 1), department(3, 2), department(4, null)];

describe('parent choices and the tree', () => {
  it('leave out the department itself and everything below it', () => {
    expect(parentChoices(list, 1).map((choice) => choice.id)).toEqual([4]);
    expect(parentChoices(list, 2).map((choice) => choice.id)).toEqual([1, 4]);
    expect(parentChoices(list).map((choice) => choice.id)).toEqual([1, 2, 3, 4]);
  });

  it('nest children and give a childless department the no-children placeholder', () => {
    const tree = departmentTreeData(list);
    expect(tree.map((node) => node.value)).toEqual(['1', '4']);
    expect(tree[0]?.children?.[0]?.children?.[0]?.children?.[0]?.value).toBe('3:none');
    expect(tree[1]?.children?.map((node) => node.value)).toEqual(['4:none']);
  });

  it('hang the departments of several companies under their company', () => {
    const other = { ...department(5, null), companyName: 'A' };
    const tree = departmentTreeData([...list, other]);
    expect(tree.map((node) => [node.value, node.label])).toEqual([
      ['company:A', 'A'],
      ['company:C', 'C'],
    ]);
    expect(tree[0]?.children?.map((node) => node.value)).toEqual(['5']);
    expect(tree[1]?.children?.map((node) => node.value)).toEqual(['1', '4']);
  });
});
