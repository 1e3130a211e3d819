import { SaveStatus, Status, StatusIdParams } from '@opsdeck/contract/statuses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceRoutes } from '../../platform/resource-routes';
import type { StatusesService } from './service';

/** The status screen reads them, and so does the task form (its status select). */
const STATUS_READERS = ['VIEW_STATUS', 'ACCESS_STATUS_TAB', 'VIEW_TASK', 'CREATE_TASK', 'EDIT_TASK'] as const;

export const statusRoutes: FastifyPluginAsyncZod<{ statuses: StatusesService }> = async (app, { statuses }) => {
  resourceRoutes(app, {
    path: '/status',
    entity: 'status',
    tags: ['statuses'],
    params: StatusIdParams,
    row: Status,
    body: SaveStatus,
    service: statuses,
    csv: {
      table: 'statuses',
      columns: {
        name: (row) => row.name,
        department: (row) => row.department.name,
        threshold: (row) => row.threshold,
        color: (row) => row.color,
        trackIdle: (row) => row.trackIdle,
        builtIn: (row) => row.builtIn,
      },
    },
    list: {
      anyOf: STATUS_READERS,
      summary: "The tenant's statuses, with their icons as data URLs",
      description: 'An admin with no X-Tenant-Id reads every company’s. Ordered by name.',
    },
    get: { anyOf: STATUS_READERS, summary: 'One status' },
    create: {
      anyOf: ['CREATE_STATUS'],
      summary: 'Create a status in a department the caller manages',
      description:
        'The icon is a base64 data URL of a png of at most 512000 bytes, a square of 24, 48 or 128 px, checked from its bytes.',
    },
    update: {
      anyOf: ['EDIT_STATUS'],
      summary: 'Update an editable status of a department the caller manages',
      description: 'A missing or empty icon keeps the stored one. Built-in statuses answer ERROR_STATUS_INACCESSIBLE.',
    },
    remove: {
      anyOf: ['DELETE_STATUS'],
      summary: 'Delete an editable status no task uses (ERROR_STATUS_DELETE otherwise)',
    },
  });
};
