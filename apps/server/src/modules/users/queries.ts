import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { companies, departments, roleAuthorities, userRoles, users } from '../../db/schema';

export async function findProfile(db: Executor, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      emailAddress: users.emailAddress,
      tenantId: users.tenantId,
      companyId: companies.id,
      companyName: companies.name,
      companyTenantId: companies.tenantId,
      departmentId: departments.id,
      departmentName: departments.name,
      auths: sql<string[]>`coalesce((
        select array_agg(distinct ${roleAuthorities.authorityKey} order by ${roleAuthorities.authorityKey})
        from ${userRoles} join ${roleAuthorities} on ${roleAuthorities.roleId} = ${userRoles.roleId}
        where ${userRoles.userId} = ${users.id}
      ), '{}')`,
    })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(eq(users.id, userId));
  return row;
}
