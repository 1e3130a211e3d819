import { AUTHORITIES, AUTHORITY_KEYS, type Authority } from '@opsdeck/contract/authorities';
import { AUTHORITY_GROUP_OF, AUTHORITY_GROUPS, groupAuthorities } from '@opsdeck/contract/authority-groups';
import type { AuthorityItem } from '@opsdeck/contract/roles';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AuthorityChecklist } from './authority-checklist';
import { filterAuthorityGroups, groupCheckState, toggleGroup } from './authority-checklist-model';

const item = (key: keyof typeof AUTHORITIES): AuthorityItem => ({ id: key, key, title: AUTHORITIES[key] });
const every = AUTHORITY_KEYS.map(item);
const checked = (element: HTMLElement) => (element as HTMLInputElement).checked;

describe('groupAuthorities', () => {
  it('puts each of the 73 authorities in exactly one area, in the areas order, tabs with their area', () => {
    const groups = groupAuthorities([...every].reverse());
    expect(groups.map((entry) => entry.group)).toEqual([...AUTHORITY_GROUPS]);
    expect(groups.flatMap((entry) => entry.items).map((entry) => entry.key)).toHaveLength(AUTHORITY_KEYS.length);
    const users = groups.find((entry) => entry.group === 'users');
    // The contract's order inside an area, whatever order the server sent.
    expect(users?.items.map((entry) => entry.title)).toEqual([
      'Access user tab',
      'View user',
      'Create user',
      'Edit user',
      'Delete user',
    ]);
    expect(groups.find((entry) => entry.group === 'levels')?.items.map((entry) => entry.key)).toEqual([
      'ADMIN_ACCESS_LEVEL',
      'COMPANY_ACCESS_LEVEL',
      'DEPARTMENT_ACCESS_LEVEL',
    ]);
  });

  it('leaves out empty areas and keys the contract does not know', () => {
    const groups = groupAuthorities([item('VIEW_TASK'), { id: 'x', key: 'NOT_AN_AUTHORITY', title: 'x' }]);
    expect(groups).toEqual([{ group: 'tasks', items: [item('VIEW_TASK')] }]);
  });
});

describe('filterAuthorityGroups', () => {
  const groups = groupAuthorities(every);
  const name = (group: string) => group.toUpperCase();

  it('keeps the authorities whose title matches, and drops areas left empty', () => {
    const shown = filterAuthorityGroups(groups, '  DELETE LICENSE ', name);
    expect(shown.map((entry) => [entry.group, entry.items.map((entry) => entry.key)])).toEqual([
      ['licensing', ['DELETE_LICENSE', 'DELETE_LICENSE_KEY']],
    ]);
  });

  it('keeps a whole area when its name matches', () => {
    const shown = filterAuthorityGroups(groups, 'statuses', name);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.items).toHaveLength(5);
  });

  it('shows everything for an empty filter and nothing for a text nothing matches', () => {
    expect(filterAuthorityGroups(groups, ' ', name)).toEqual(groups);
    expect(filterAuthorityGroups(groups, 'zzz', name)).toEqual([]);
  });
});

describe('group select-all', () => {
  it('is all, some or none of the area, and toggles to all unless all are checked', () => {
    const keys = ['A', 'B'];
    expect(groupCheckState(keys, [])).toBe('none');
    expect(groupCheckState(keys, ['A', 'X'])).toBe('some');
    expect(groupCheckState(keys, ['B', 'A'])).toBe('all');
    expect(toggleGroup(keys, ['X', 'A'])).toEqual(['X', 'A', 'B']);
    expect(toggleGroup(keys, ['A', 'X', 'B'])).toEqual(['X']);
  });
});

// Three areas are enough for the component, and keep its renders quick.
const some = every.filter((entry) =>
  ['users', 'tasks', 'licensing'].includes(AUTHORITY_GROUP_OF[entry.key as Authority]),
);

function Harness({ initial = [] as string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  return (
    <>
      <AuthorityChecklist authorities={some} value={value} onChange={setValue} />
      <output data-testid="value">{[...value].sort().join(',')}</output>
    </>
  );
}

describe('AuthorityChecklist', () => {
  it('checks and unchecks an area with its tri-state checkbox', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness initial={['VIEW_USER']} />);
    const area = screen.getByRole('group', { name: 'Users' });
    const areaBox = within(area).getByRole('checkbox', { name: 'Users' });
    expect(checked(areaBox)).toBe(false);
    expect((areaBox as HTMLInputElement).indeterminate).toBe(true);
    expect(within(area).getByText('1 of 5')).toBeTruthy();

    await user.click(areaBox);
    expect(screen.getByTestId('value').textContent).toBe('ACCESS_USER_TAB,CREATE_USER,DELETE_USER,EDIT_USER,VIEW_USER');
    expect(checked(areaBox)).toBe(true);
    expect(screen.getByText(`5 of ${some.length} selected`)).toBeTruthy();

    await user.click(areaBox);
    expect(screen.getByTestId('value').textContent).toBe('');
    expect(checked(within(area).getByRole('checkbox', { name: 'View user' }))).toBe(false);
  });

  it('filters, and an area checkbox then acts on what the filter shows; Select All on everything', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await user.type(screen.getByRole('textbox', { name: 'Filter authorities' }), 'delete');
    expect(screen.queryByRole('checkbox', { name: 'View user' })).toBeNull();
    const users = screen.getByRole('group', { name: 'Users' });
    await user.click(within(users).getByRole('checkbox', { name: 'Users' }));
    expect(screen.getByTestId('value').textContent).toBe('DELETE_USER');

    await user.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.getByText(`${some.length} of ${some.length} selected`)).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'Filter authorities' }));
    await user.type(screen.getByRole('textbox', { name: 'Filter authorities' }), 'nothing like it');
    expect(screen.getByText('No authority matches "nothing like it".')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Unselect All' }));
    expect(screen.getByText(`0 of ${some.length} selected`)).toBeTruthy();
  });
});
