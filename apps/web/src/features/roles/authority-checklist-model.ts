import type { GroupedAuthorities } from '@opsdeck/contract/authority-groups';
import type { AuthorityItem } from '@opsdeck/contract/roles';

/**
 * The checklist's filter: an area whose name matches keeps all its authorities, otherwise an
 * authority stays when its title matches; areas left empty go. Case and outer spaces do not count.
 */
export function filterAuthorityGroups(
  groups: readonly GroupedAuthorities<AuthorityItem>[],
  text: string,
  groupName: (group: GroupedAuthorities<AuthorityItem>['group']) => string,
): GroupedAuthorities<AuthorityItem>[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...groups];
  return groups
    .map((entry) =>
      groupName(entry.group).toLowerCase().includes(needle)
        ? entry
        : { ...entry, items: entry.items.filter((item) => item.title.toLowerCase().includes(needle)) },
    )
    .filter((entry) => entry.items.length > 0);
}

export type GroupCheckState = 'all' | 'some' | 'none';

/** The tri-state of an area's checkbox over the keys it shows. */
export function groupCheckState(keys: readonly string[], checked: readonly string[]): GroupCheckState {
  const count = keys.filter((key) => checked.includes(key)).length;
  if (count === 0) return 'none';
  return count === keys.length ? 'all' : 'some';
}

/** An area's checkbox clicked: all of its keys checked unless they all were, then none of them. */
export function toggleGroup(keys: readonly string[], checked: readonly string[]): string[] {
  if (groupCheckState(keys, checked) === 'all') return checked.filter((key) => !keys.includes(key));
  return [...new Set([...checked, ...keys])];
}
