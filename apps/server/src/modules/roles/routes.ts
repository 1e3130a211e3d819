import { Ok } from '@opsdeck/contract/auth';
import { ListFormatQuery } from '@opsdeck/contract/paging';
import { AuthorityItem, CreateRole, Role, RoleIdParams, UpdateRole } from '@opsdeck/contract/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import { type CsvTable, csvAnswer, csvDescription, sendTableCsv } from '../../platform/csv-export';
import type { RolesService } from './service';

const tags = ['roles'];

/** The roles page as a file (docs/csv-export.md): the provider's own roles say so as their company. */
const ROLES_CSV: CsvTable<Role> = {
  table: 'roles',
  columns: {
    name: (row) => row.name,
    company: (row) => row.companyName ?? 'Provider',
    protected: (row) => row.isProtected,
    authorities: (row) => row.authorities.map((authority) => authority.title).join('; '),
  },
};

export const roleRoutes: FastifyPluginAsyncZod<{ roles: RolesService }> = async (app, { roles }) => {
  app.get(
    '/authority/findAll',
    {
      config: { access: access.anyOf('VIEW_ROLE', 'CREATE_ROLE', 'EDIT_ROLE', 'ACCESS_ROLE_TAB') },
      schema: {
        tags,
        summary: 'Authorities the caller may put in a role',
        description:
          'Admins: every authority. Company users: only those they hold themselves, never ADMIN_ACCESS_LEVEL.',
        response: { 200: AuthorityItem.array() },
      },
    },
    async (request) => roles.authorities(requireAuth(request)),
  );

  app.get(
    '/usergroup/findAllActive',
    {
      // The monitor dashboard's role filter lists them too (docs/monitor.md).
      config: {
        access: access.anyOf('VIEW_ROLE', 'ACCESS_ROLE_TAB', 'CREATE_USER', 'EDIT_USER', 'ACCESS_MONITOR_REPORT_TAB'),
      },
      schema: {
        tags,
        summary: 'Roles of the tenant, with their authorities',
        description: csvDescription(
          "The caller's company's roles; an admin without X-Tenant-Id reads every company's roles and the provider's own (companyName null).",
        ),
        querystring: ListFormatQuery,
        response: { 200: csvAnswer(Role.array()) },
      },
    },
    async (request, reply) => {
      const rows = await roles.listActive(requireAuth(request));
      return request.query.format === 'csv' ? sendTableCsv(reply, ROLES_CSV, rows) : rows;
    },
  );

  app.get(
    '/usergroup/:id',
    {
      config: { access: access.anyOf('VIEW_ROLE', 'ACCESS_ROLE_TAB', 'EDIT_ROLE', 'DELETE_ROLE') },
      schema: { tags, summary: 'One role', params: RoleIdParams, response: { 200: Role } },
    },
    async (request) => roles.get(requireAuth(request), request.params.id),
  );

  app.post(
    '/usergroup',
    {
      config: { access: access.anyOf('CREATE_ROLE'), audit: audit.action('role.create') },
      schema: {
        tags,
        summary: 'Create a role in the tenant (admins name the company with X-Tenant-Id)',
        body: CreateRole,
        response: { 200: Role },
      },
    },
    async (request) => roles.create(requireAuth(request), request.body),
  );

  app.put(
    '/usergroup/:id',
    {
      config: { access: access.anyOf('EDIT_ROLE'), audit: audit.action('role.update') },
      schema: {
        tags,
        summary: 'Rename a role and set its authorities (newAuthorityName is the full new list)',
        description: 'Built-in roles are read-only (409 ERROR_ROLE_PROTECTED).',
        params: RoleIdParams,
        body: UpdateRole,
        response: { 200: Role },
      },
    },
    async (request) => roles.update(requireAuth(request), request.params.id, request.body),
  );

  app.delete(
    '/usergroup/archiveRole/:id',
    {
      config: { access: access.anyOf('DELETE_ROLE'), audit: audit.of('role.delete', roles.get) },
      schema: {
        tags,
        summary: 'Delete a role',
        description:
          'Removes the role (spec section 4: roles are hard-deleted). Protected roles: 409 ERROR_GENERAL_PROTECTED; roles active users hold: 409 ERROR_ROLE_DELETE_ASSOCIATED_WITH_USER.',
        params: RoleIdParams,
        response: { 200: Ok },
      },
    },
    async (request) => {
      await roles.remove(requireAuth(request), request.params.id);
      return { ok: true as const };
    },
  );
};
