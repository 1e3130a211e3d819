import { Ok } from '@opsdeck/contract/auth';
import { SaveTask, Task, TaskIdParams } from '@opsdeck/contract/tasks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import type { TasksService } from './service';

const tags = ['tasks'];

const TASK_READERS = ['VIEW_TASK', 'ACCESS_TASK_TAB'] as const;

export const taskRoutes: FastifyPluginAsyncZod<{ tasks: TasksService }> = async (app, { tasks }) => {
  app.get(
    '/task',
    {
      config: { access: access.anyOf(...TASK_READERS) },
      schema: {
        tags,
        summary: "The tenant's tasks with their status and department",
        description: 'An admin with no X-Tenant-Id reads every company’s. Ordered by name.',
        response: { 200: Task.array() },
      },
    },
    async (request) => tasks.list(requireAuth(request)),
  );

  app.get(
    '/task/:id',
    {
      config: { access: access.anyOf(...TASK_READERS) },
      schema: { tags, summary: 'One task', params: TaskIdParams, response: { 200: Task } },
    },
    async (request) => tasks.get(requireAuth(request), request.params.id),
  );

  app.post(
    '/task',
    {
      config: { access: access.anyOf('CREATE_TASK') },
      schema: {
        tags,
        summary: 'Create a task in a department the caller manages',
        body: SaveTask,
        response: { 201: Task },
      },
    },
    async (request, reply) => reply.status(201).send(await tasks.create(requireAuth(request), request.body)),
  );

  app.put(
    '/task/:id',
    {
      config: { access: access.anyOf('EDIT_TASK') },
      schema: {
        tags,
        summary: 'Update a task of a department the caller manages (and move it only to one they manage)',
        params: TaskIdParams,
        body: SaveTask,
        response: { 200: Task },
      },
    },
    async (request) => tasks.update(requireAuth(request), request.params.id, request.body),
  );

  app.delete(
    '/task/:id',
    {
      config: { access: access.anyOf('DELETE_TASK') },
      schema: {
        tags,
        summary: 'Delete a task of a department the caller manages',
        params: TaskIdParams,
        response: { 200: Ok },
      },
    },
    async (request) => {
      await tasks.remove(requireAuth(request), request.params.id);
      return { ok: true as const };
    },
  );
};
