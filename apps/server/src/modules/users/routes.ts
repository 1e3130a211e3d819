import { CurrentUserProfile, Ok } from '@opsdeck/contract/auth';
import {
  ActiveUsersParams,
  CompanyIdParams,
  EmailParams,
  RegisterUser,
  UpdateUser,
  User,
  UserIdParams,
  UserListQuery,
  UserPage,
} from '@opsdeck/contract/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import { asPage, type CsvTable, csvAnswer, csvDescription, pagedRows, sendTableCsv } from '../../platform/csv-export';
import type { UsersService } from './service';

const tags = ['users'];

/** The users page as a file (docs/csv-export.md): its columns, roles as text; never a credential. */
const USERS_CSV: CsvTable<User> = {
  table: 'users',
  columns: {
    fullName: (row) => row.completeName,
    department: (row) => row.displayDepartment,
    role: (row) => row.displayGroups,
    company: (row) => row.companyName,
    email: (row) => row.emailAddress,
  },
};

export const userRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/user/profile/current-user',
    {
      config: { access: access.session },
      schema: { tags, summary: 'The signed-in user, with their authorities', response: { 200: CurrentUserProfile } },
    },
    async (request) => users.currentUserProfile(requireAuth(request)),
  );

  app.get(
    '/user/get-user-list',
    {
      config: { access: access.anyOf('VIEW_USER', 'ACCESS_USER_TAB') },
      schema: {
        tags,
        summary: 'Users of the tenant (archived ones hidden)',
        description:
          "Company users: their company's users. Admins: every company's users, or X-Tenant-Id's. " +
          'Without `page`: the plain array of the spec. With `page`: one page, sorted (`sort` = ' +
          'fullName|department|role|company|email, optionally `,asc|desc`; ties by id) and searched ' +
          '(`search`: case-insensitive substring of full name, department, role, company or e-mail). ' +
          csvDescription(),
        querystring: UserListQuery,
        response: { 200: csvAnswer(z.union([User.array(), UserPage])) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (request.query.format !== 'csv') return users.list(auth, request.query);
      const rows = pagedRows((page, size) => asPage(users.list(auth, { ...request.query, page, size })), {
        log: request.log,
      });
      return sendTableCsv(reply, USERS_CSV, rows);
    },
  );

  app.get(
    '/user/getActiveUsers/:flag',
    {
      config: {
        access: access.anyOf('VIEW_USER', 'ACCESS_USER_TAB', 'ACCESS_MONITOR_REPORT_TAB', 'VIEW_SCHEDULE'),
      },
      schema: {
        tags,
        summary: 'Active users of the tenant',
        description: '`true`: users signed in right now (an unexpired session). `false`: every user not archived.',
        params: ActiveUsersParams,
        response: { 200: User.array() },
      },
    },
    async (request) => users.activeUsers(requireAuth(request), request.params.flag),
  );

  app.get(
    '/user/getSubordinates',
    {
      config: {
        access: access.anyOf('VIEW_USER', 'ACCESS_USER_TAB', 'ACCESS_MONITOR_REPORT_TAB', 'VIEW_SCHEDULE'),
      },
      schema: {
        tags,
        summary: 'Users of the departments the caller heads and their descendants',
        description: 'Admins and the company head: every user of the tenant. The caller is not listed.',
        response: { 200: User.array() },
      },
    },
    async (request) => users.subordinates(requireAuth(request)),
  );

  app.get(
    '/user/checkEmailExist/:email',
    {
      config: { access: access.anyOf('CREATE_USER', 'VIEW_USER') },
      schema: {
        tags,
        summary: 'Whether an e-mail address is already used (case-insensitive; archived users count)',
        params: EmailParams,
        response: { 200: z.boolean() },
      },
    },
    async (request) => users.checkEmailExist(request.params.email),
  );

  app.get(
    '/user/find-by-company/:id',
    {
      config: { access: access.anyOf('VIEW_USER', 'ACCESS_USER_TAB') },
      schema: {
        tags,
        summary: "A company's users (admins: any company; others: only their own, else 404)",
        params: CompanyIdParams,
        response: { 200: User.array() },
      },
    },
    async (request) => users.findByCompany(requireAuth(request), request.params.id),
  );

  app.post(
    '/user/register',
    {
      config: { access: access.anyOf('CREATE_USER'), audit: audit.action('user.create') },
      schema: {
        tags,
        summary: 'Create a user (the username is the e-mail)',
        description:
          'Admins name the company (`companyId`, else X-Tenant-Id; ERROR_COMPANY_REQUIRED without either); ' +
          'company users always create in their own. Department and roles must be of that company (404); ' +
          'a company user may not give a role holding authorities they lack (403 ERROR_USER_ROLE_NOT_ALLOWED).',
        body: RegisterUser,
        response: { 200: User },
      },
    },
    async (request) => users.register(requireAuth(request), request.body),
  );

  app.put(
    '/user/updateUser/:id',
    {
      config: { access: access.anyOf('EDIT_USER'), audit: audit.action('user.update') },
      schema: {
        tags,
        summary: 'Update names, department and roles of a user',
        description: 'E-mail and company are read-only: `emailAddress` and `company_` are accepted and ignored.',
        params: UserIdParams,
        body: UpdateUser,
        response: { 200: User },
      },
    },
    async (request) => users.update(requireAuth(request), request.params.id, request.body),
  );

  app.delete(
    '/user/archive/:id',
    {
      config: { access: access.anyOf('DELETE_USER'), audit: audit.of('user.archive', users.get) },
      schema: {
        tags,
        summary: 'Archive a user; their sessions end at once',
        description:
          '409 ERROR_USER_DEPARTMENT_HEAD (heads a department), ERROR_USER_COMPANY_HEAD (heads the company), ' +
          'ERROR_USER_ARCHIVE_SELF (the caller).',
        params: UserIdParams,
        response: { 200: Ok },
      },
    },
    async (request) => users.archive(requireAuth(request), request.params.id),
  );

  app.get(
    '/user/:id',
    {
      config: { access: access.anyOf('VIEW_USER', 'EDIT_USER') },
      schema: { tags, summary: 'One user', params: UserIdParams, response: { 200: User } },
    },
    async (request) => users.get(requireAuth(request), request.params.id),
  );
};
