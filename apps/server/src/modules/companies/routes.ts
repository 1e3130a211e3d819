import {
  Company,
  CompanyIdParams,
  CompanyListQuery,
  CompanyNameParams,
  CompanyPage,
  CreateCompany,
  IndustryType,
  UpdateCompany,
} from '@opsdeck/contract/companies';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { asPage, type CsvTable, csvAnswer, csvDescription, pagedRows, sendTableCsv } from '../../platform/csv-export';
import { resourceRoutes } from '../../platform/resource-routes';
import type { CompaniesService } from './service';

const tags = ['companies'];

/** The companies page as a file (docs/csv-export.md). */
const COMPANIES_CSV: CsvTable<Company> = {
  table: 'companies',
  columns: {
    name: (row) => row.name,
    head: (row) => row.head?.completeName,
    industry: (row) => row.industryType.name,
  },
};
const READERS = ['VIEW_COMPANY', 'ACCESS_COMPANY_TAB', 'ACCESS_COMPANY_LICENSE_PAGE', 'ADMIN_ACCESS_LEVEL'] as const;

export const companyRoutes: FastifyPluginAsyncZod<{ companies: CompaniesService }> = async (app, { companies }) => {
  app.get(
    '/company',
    {
      config: { access: access.anyOf(...READERS) },
      schema: {
        tags,
        summary: 'Companies (all for admins, the own one otherwise)',
        description:
          'Without `page`: the plain array of the spec (the company selectors read it). With `page`: one ' +
          'page of the companies table, sorted (`sort` = name|head|industry, optionally `,asc|desc`; ties by ' +
          'id) and searched (`search`: case-insensitive substring of the name, the head’s first or last ' +
          'name, or the industry). ' +
          csvDescription(),
        querystring: CompanyListQuery,
        response: { 200: csvAnswer(z.union([Company.array(), CompanyPage])) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (request.query.format !== 'csv') return companies.list(auth, request.query);
      const rows = pagedRows((page, size) => asPage(companies.list(auth, { ...request.query, page, size })), {
        log: request.log,
      });
      return sendTableCsv(reply, COMPANIES_CSV, rows);
    },
  );

  app.get(
    '/company/find-by-name/:name',
    {
      config: { access: access.anyOf(...READERS, 'CREATE_COMPANY') },
      schema: {
        tags,
        summary: 'The company of that name (case-insensitive), or 404 ERROR_COMPANY_NOT_EXIST',
        params: CompanyNameParams,
        response: { 200: Company },
      },
    },
    async (request) => companies.findByName(requireAuth(request), request.params.name),
  );

  resourceRoutes(app, {
    path: '/company',
    entity: 'company',
    tags,
    params: CompanyIdParams,
    row: Company,
    body: CreateCompany,
    updateBody: UpdateCompany,
    service: { get: companies.get, create: companies.create, update: companies.update, remove: companies.remove },
    get: {
      anyOf: READERS,
      summary: 'One company, with its head and current licence',
      description: 'Company users read only their own company (any other id: 404 ERROR_COMPANY_NOT_EXIST).',
    },
    create: {
      anyOf: ['CREATE_COMPANY'],
      summary: 'Create a company and its head (provider only)',
      description:
        'In one transaction: the company, its built-in roles, and its head as its Company Administrator, ' +
        'who signs in with `head.emailAddress` and `head.credential.newPassword`. ' +
        '409 ERROR_COMPANY_NAME_DUPLICATE (name, case-insensitive) or ERROR_COMPANY_EMAIL_DUPLICATE (the head’s e-mail).',
    },
    update: {
      anyOf: ['EDIT_COMPANY'],
      summary: 'Edit a company: name, industry and head (provider only)',
      description: 'The head must be one of the company’s own users (else 400 ERROR_COMPANY_HEAD_INVALID).',
    },
    remove: {
      anyOf: ['DELETE_COMPANY'],
      summary: 'Delete a company and everything of its tenant (provider only)',
      description:
        '409 ERROR_COMPANY_HAS_LICENSE while it has licences. Otherwise the company, its users (who can no ' +
        'longer sign in), departments, roles, statuses, tasks and schedules go in one transaction. An ' +
        'X-Tenant-Id header, when sent, must be the company’s own.',
    },
  });

  app.get(
    '/industry-type',
    {
      config: { access: access.anyOf('VIEW_COMPANY', 'CREATE_COMPANY', 'EDIT_COMPANY', 'ACCESS_COMPANY_TAB') },
      schema: { tags: ['industry types'], summary: 'Industry types', response: { 200: IndustryType.array() } },
    },
    async () => companies.industryTypes(),
  );
};
