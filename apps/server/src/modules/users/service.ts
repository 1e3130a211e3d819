import type { CurrentUserProfile } from '@opsdeck/contract/auth';
import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import * as q from './queries';

export const completeName = (user: { firstName: string; lastName: string }) =>
  `${user.firstName} ${user.lastName}`.trim();

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(deps: { db: Db }) {
  const { db } = deps;

  async function currentUserProfile(userId: number): Promise<CurrentUserProfile> {
    const row = await q.findProfile(db, userId);
    if (!row) throw notFound('ERROR_USER_NOT_EXIST');
    const name = completeName(row);
    return {
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      completeName: name,
      fullName: name,
      emailAddress: row.emailAddress,
      tenantId: row.tenantId,
      auths: row.auths,
      company:
        row.companyId !== null && row.companyName !== null && row.companyTenantId !== null
          ? { id: row.companyId, name: row.companyName, tenantId: row.companyTenantId }
          : null,
      department:
        row.departmentId !== null && row.departmentName !== null
          ? { id: row.departmentId, name: row.departmentName }
          : null,
    };
  }

  return { currentUserProfile };
}
