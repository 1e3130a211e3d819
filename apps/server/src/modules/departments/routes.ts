import {
  Department,
  DepartmentHeadCandidate,
  DepartmentHeadListQuery,
  DepartmentIdParams,
  DepartmentNode,
  SaveDepartment,
} from '@opsdeck/contract/departments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import { resourceRoutes } from '../../platform/resource-routes';
import type { DepartmentsService } from './service';

const tags = ['departments'];

/**
 * Who may read departments: the department screen, the user forms that pick one, and the monitor
 * dashboard's department filter (docs/monitor.md).
 */
export const DEPARTMENT_READERS = [
  'VIEW_DEPARTMENT',
  'ACCESS_DEPARTMENT_TAB',
  'CREATE_USER',
  'EDIT_USER',
  'ACCESS_MONITOR_REPORT_TAB',
] as const;
/** Who may ask which departments they manage: the status and task screens and forms. */
export const ACCESSIBLE_READERS = [
  'VIEW_STATUS',
  'CREATE_STATUS',
  'EDIT_STATUS',
  'VIEW_TASK',
  'CREATE_TASK',
  'EDIT_TASK',
  'VIEW_DEPARTMENT',
] as const;

export const departmentRoutes: FastifyPluginAsyncZod<{ departments: DepartmentsService }> = async (
  app,
  { departments },
) => {
  app.get(
    '/department/usersAccessibleDepts',
    {
      config: { access: access.anyOf(...ACCESSIBLE_READERS) },
      schema: {
        tags,
        summary: 'The departments whose statuses and tasks the caller may change, as a flat list',
        description:
          "Those the caller heads and every department below them; all of the tenant's for admins and the company head.",
        response: { 200: Department.array() },
      },
    },
    async (request) => departments.accessible(requireAuth(request)),
  );

  app.get(
    '/department/usersAccessibleDeptsForDisplay',
    {
      config: { access: access.anyOf(...ACCESSIBLE_READERS) },
      schema: {
        tags,
        summary: 'The same departments as usersAccessibleDepts, nested as a tree for display',
        description: 'Roots are the departments whose parent is not in the set; each node carries its children.',
        response: { 200: DepartmentNode.array() },
      },
    },
    async (request) => departments.accessibleTree(requireAuth(request)),
  );

  resourceRoutes(app, {
    path: '/department',
    entity: 'department',
    tags,
    params: DepartmentIdParams,
    row: Department,
    body: SaveDepartment,
    service: departments,
    csv: {
      table: 'departments',
      columns: {
        name: (row) => row.name,
        head: (row) => row.head?.completeName,
        parent: (row) => row.parent?.name,
        company: (row) => row.companyName,
      },
    },
    list: {
      anyOf: DEPARTMENT_READERS,
      summary: "The tenant's departments (every company's, with companyName, for an admin with no X-Tenant-Id)",
      description: 'Archived departments are left out. Ordered by name.',
    },
    get: {
      anyOf: ['VIEW_DEPARTMENT', 'ACCESS_DEPARTMENT_TAB', 'EDIT_DEPARTMENT', 'DELETE_DEPARTMENT'],
      summary: 'One department',
    },
    create: {
      anyOf: ['CREATE_DEPARTMENT'],
      summary: 'Create a department in the request tenant (X-Tenant-Id required for admins)',
    },
    update: { anyOf: ['EDIT_DEPARTMENT'], summary: 'Change the name, head and parent of a department' },
    remove: {
      anyOf: ['DELETE_DEPARTMENT'],
      summary: 'Delete a department (refused while it has children, statuses or tasks); its users keep no department',
    },
  });

  app.get(
    '/user/get-department-head-list',
    {
      config: { access: access.anyOf('CREATE_DEPARTMENT', 'EDIT_DEPARTMENT') },
      schema: {
        tags,
        summary: 'Who may head a department: the department form picks the head from this list',
        description:
          "Non-archived users of the tenant whose roles hold DEPARTMENT_ACCESS_LEVEL or COMPANY_ACCESS_LEVEL, plus the department's current head. With departmentId: that department's tenant, its own users first.",
        querystring: DepartmentHeadListQuery,
        response: { 200: DepartmentHeadCandidate.array() },
      },
    },
    async (request) => departments.headList(requireAuth(request), request.query.departmentId),
  );
};
