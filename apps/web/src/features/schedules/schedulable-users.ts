import type { Department } from '@opsdeck/contract/departments';
import type { User } from '@opsdeck/contract/users';
import { useQuery } from '@tanstack/react-query';
import { holds, isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { accessibleDepartmentsQueryOptions } from '../../resources/departments';
import type { Tenant } from '../../resources/tenant';
import { usersQueryOptions } from '../../resources/users';

/**
 * The users of departments the caller may manage (spec section 6, the department-head rule of
 * statuses and tasks, which schedules follow). Null `departments`: no such limit.
 */
export function schedulableUsers(users: readonly User[], departments: readonly Department[] | null): User[] {
  if (departments === null) return [...users];
  const managed = new Set(departments.map((department) => department.id));
  return users.filter((user) => user.departmentId !== null && managed.has(user.departmentId));
}

/**
 * The schedule form's user picker: an admin or a company-level user may schedule anyone of the
 * company; a department head only the users of the departments he heads and those below them.
 * The server refuses anyone else (ERROR_SCHEDULE_INACCESSIBLE) whatever the picker offers.
 */
export function useSchedulableUsers(tenant: Tenant, enabled: boolean) {
  const viewer = useViewer();
  const everyone = isAdmin(viewer) || holds(viewer, 'COMPANY_ACCESS_LEVEL');
  const users = useQuery({ ...usersQueryOptions(tenant), enabled });
  const departments = useQuery({ ...accessibleDepartmentsQueryOptions(tenant), enabled: enabled && !everyone });
  if (!everyone && !departments.data) return { users: [], loading: users.isLoading || departments.isLoading };
  return { users: schedulableUsers(users.data ?? [], everyone ? null : (departments.data ?? [])), loading: false };
}
