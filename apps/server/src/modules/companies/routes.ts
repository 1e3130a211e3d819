import { Company, IndustryType } from '@opsdeck/contract/companies';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import type { CompaniesService } from './service';

const tags = ['companies'];

export const companyRoutes: FastifyPluginAsyncZod<{ companies: CompaniesService }> = async (app, { companies }) => {
  app.get(
    '/company',
    {
      config: { access: access.anyOf('VIEW_COMPANY', 'ACCESS_COMPANY_TAB', 'ADMIN_ACCESS_LEVEL') },
      schema: {
        tags,
        summary: 'Companies (all for admins, the own one otherwise)',
        response: { 200: Company.array() },
      },
    },
    async (request) => companies.list(requireAuth(request)),
  );

  app.get(
    '/industry-type',
    {
      config: { access: access.anyOf('VIEW_COMPANY', 'CREATE_COMPANY', 'EDIT_COMPANY', 'ACCESS_COMPANY_TAB') },
      schema: { tags: ['industry types'], summary: 'Industry types', response: { 200: IndustryType.array() } },
    },
    async () => companies.industryTypes(),
  );
};
