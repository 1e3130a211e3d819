import type { Role } from '@opsdeck/contract/roles';

/** The roles whose name, company or any authority title contains the text, case-insensitively. */
export function filterRoles(roles: readonly Role[], text: string): Role[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...roles];
  return roles.filter(
    (role) =>
      role.name.toLowerCase().includes(needle) ||
      (role.companyName ?? '').toLowerCase().includes(needle) ||
      role.authorities.some((authority) => authority.title.toLowerCase().includes(needle)),
  );
}
