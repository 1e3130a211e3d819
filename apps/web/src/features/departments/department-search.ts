import type { Department } from '@opsdeck/contract/departments';

/** Spec section 2: the search matches the name, the head, the parent and (for admins) the company. */
export function matchesDepartment(department: Department, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [department.name, department.head?.completeName, department.parent?.name, department.companyName].some(
    (value) => value?.toLowerCase().includes(needle),
  );
}

/**
 * The departments the tree shows for a search: the matching ones and their ancestors, so that a
 * match is seen where it sits. Null when there is no search (the tree shows everything).
 */
export function treeSelection(list: readonly Department[], text: string): ReadonlySet<number> | null {
  if (!text.trim()) return null;
  const byId = new Map(list.map((department) => [department.id, department]));
  const shown = new Set<number>();
  for (const match of list.filter((department) => matchesDepartment(department, text))) {
    // Walks up until a department already shown: its ancestors are then shown too (and a cycle stops).
    for (let at: Department | undefined = match; at && !shown.has(at.id); at = byId.get(at.parentId ?? -1)) {
      shown.add(at.id);
    }
  }
  return shown;
}
