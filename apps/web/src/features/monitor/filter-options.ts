import type { Authority } from '@opsdeck/contract/authorities';
import { useQuery } from '@tanstack/react-query';
import { holdsAny } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { departmentsQueryOptions } from '../../resources/departments';
import { rolesQueryOptions } from '../../resources/roles';
import { activeUsersQueryOptions } from '../../resources/users';

export type FilterDimension = 'user' | 'department' | 'role';
export interface FilterOption {
  value: string;
  label: string;
}

/**
 * Who may read each list the filters choose from (the server's rules): the people through
 * getActiveUsers, which the monitor's tab opens; departments and roles through their own lists.
 */
const READERS: Record<FilterDimension, readonly Authority[]> = {
  user: ['VIEW_USER', 'ACCESS_USER_TAB', 'ACCESS_MONITOR_REPORT_TAB', 'VIEW_SCHEDULE'],
  department: ['VIEW_DEPARTMENT', 'ACCESS_DEPARTMENT_TAB', 'CREATE_USER', 'EDIT_USER', 'ACCESS_MONITOR_REPORT_TAB'],
  role: ['VIEW_ROLE', 'ACCESS_ROLE_TAB', 'CREATE_USER', 'EDIT_USER', 'ACCESS_MONITOR_REPORT_TAB'],
};

const byLabel = (a: FilterOption, b: FilterOption) => a.label.localeCompare(b.label);

/**
 * The options of the three selects, loaded while `enabled` (the modal is open, or the header names
 * a chosen one); `allowed` is false where the viewer may not read that list.
 */
export function useFilterOptions(enabled: Record<FilterDimension, boolean>) {
  const viewer = useViewer();
  const allowed = {
    user: holdsAny(viewer, READERS.user),
    department: holdsAny(viewer, READERS.department),
    role: holdsAny(viewer, READERS.role),
  };
  const users = useQuery({ ...activeUsersQueryOptions(), enabled: enabled.user && allowed.user });
  const departments = useQuery({ ...departmentsQueryOptions(), enabled: enabled.department && allowed.department });
  const roles = useQuery({ ...rolesQueryOptions(), enabled: enabled.role && allowed.role });
  const options: Record<FilterDimension, FilterOption[]> = {
    user: (users.data ?? []).map((user) => ({ value: String(user.id), label: user.completeName })).sort(byLabel),
    department: (departments.data ?? [])
      .filter((department) => !department.archived)
      .map((department) => ({ value: String(department.id), label: department.name }))
      .sort(byLabel),
    role: (roles.data ?? []).map((role) => ({ value: String(role.id), label: role.name })).sort(byLabel),
  };
  return { allowed, options };
}
