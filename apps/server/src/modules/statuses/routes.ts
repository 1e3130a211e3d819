import { Ok } from '@opsdeck/contract/auth';
import { SaveStatus, Status, StatusIdParams } from '@opsdeck/contract/statuses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import type { StatusesService } from './service';

const tags = ['statuses'];

/** The status screen reads them, and so does the task form (its status select). */
const STATUS_READERS = ['VIEW_STATUS', 'ACCESS_STATUS_TAB', 'VIEW_TASK', 'CREATE_TASK', 'EDIT_TASK'] as const;

export const statusRoutes: FastifyPluginAsyncZod<{ statuses: StatusesService }> = async (app, { statuses }) => {
  app.get(
    '/status',
    {
      config: { access: access.anyOf(...STATUS_READERS) },
      schema: {
        tags,
        summary: "The tenant's statuses, with their icons as data URLs",
        description: 'An admin with no X-Tenant-Id reads every company’s. Ordered by name.',
        response: { 200: Status.array() },
      },
    },
    async (request) => statuses.list(requireAuth(request)),
  );

  app.get(
    '/status/:id',
    {
      config: { access: access.anyOf(...STATUS_READERS) },
      schema: { tags, summary: 'One status', params: StatusIdParams, response: { 200: Status } },
    },
    async (request) => statuses.get(requireAuth(request), request.params.id),
  );

  app.post(
    '/status',
    {
      config: { access: access.anyOf('CREATE_STATUS') },
      schema: {
        tags,
        summary: 'Create a status in a department the caller manages',
        description:
          'The icon is a base64 data URL of a png of at most 512000 bytes, a square of 24, 48 or 128 px, checked from its bytes.',
        body: SaveStatus,
        response: { 201: Status },
      },
    },
    async (request, reply) => reply.status(201).send(await statuses.create(requireAuth(request), request.body)),
  );

  app.put(
    '/status/:id',
    {
      config: { access: access.anyOf('EDIT_STATUS') },
      schema: {
        tags,
        summary: 'Update an editable status of a department the caller manages',
        description:
          'A missing or empty icon keeps the stored one. Built-in statuses answer ERROR_STATUS_INACCESSIBLE.',
        params: StatusIdParams,
        body: SaveStatus,
        response: { 200: Status },
      },
    },
    async (request) => statuses.update(requireAuth(request), request.params.id, request.body),
  );

  app.delete(
    '/status/:id',
    {
      config: { access: access.anyOf('DELETE_STATUS') },
      schema: {
        tags,
        summary: 'Delete an editable status no task uses (ERROR_STATUS_DELETE otherwise)',
        params: StatusIdParams,
        response: { 200: Ok },
      },
    },
    async (request) => {
      await statuses.remove(requireAuth(request), request.params.id);
      return { ok: true as const };
    },
  );
};
