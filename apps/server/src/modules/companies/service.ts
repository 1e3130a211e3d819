import type { Company, IndustryType } from '@opsdeck/contract/companies';
import type { Db } from '../../db/client';
import type { RequestAuth } from '../../platform/access';
import { completeName } from '../users/names';
import * as q from './queries';

function toCompany(row: q.CompanyRow): Company {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    emailAddress: row.emailAddress,
    industryType: { key: row.industryKey, name: row.industryName },
    head:
      row.headId !== null && row.headFirstName !== null && row.headLastName !== null && row.headEmailAddress !== null
        ? {
            id: row.headId,
            firstName: row.headFirstName,
            lastName: row.headLastName,
            completeName: completeName({ firstName: row.headFirstName, lastName: row.headLastName }),
            emailAddress: row.headEmailAddress,
          }
        : null,
    // Licences arrive with the licensing area; until then no company has one.
    license: null,
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;

export function createCompaniesService(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** Admins see every company; anyone else sees only their own. */
    async list(caller: RequestAuth): Promise<Company[]> {
      if (!caller.isAdmin && caller.companyId === null) return [];
      const rows = await q.listCompanies(db, caller.isAdmin ? undefined : (caller.companyId ?? undefined));
      return rows.map(toCompany);
    },
    industryTypes: (): Promise<IndustryType[]> => q.listIndustryTypes(db),
  };
}
