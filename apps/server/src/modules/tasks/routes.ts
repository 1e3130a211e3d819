import { SaveTask, Task, TaskIdParams } from '@opsdeck/contract/tasks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceRoutes } from '../../platform/resource-routes';
import type { TasksService } from './service';

const TASK_READERS = ['VIEW_TASK', 'ACCESS_TASK_TAB'] as const;

export const taskRoutes: FastifyPluginAsyncZod<{ tasks: TasksService }> = async (app, { tasks }) => {
  resourceRoutes(app, {
    path: '/task',
    entity: 'task',
    tags: ['tasks'],
    params: TaskIdParams,
    row: Task,
    body: SaveTask,
    service: tasks,
    csv: {
      table: 'tasks',
      columns: {
        name: (row) => row.name,
        status: (row) => row.status.name,
        department: (row) => row.department.name,
      },
    },
    list: {
      anyOf: TASK_READERS,
      summary: "The tenant's tasks with their status and department",
      description: 'An admin with no X-Tenant-Id reads every company’s. Ordered by name.',
    },
    get: { anyOf: TASK_READERS, summary: 'One task' },
    create: { anyOf: ['CREATE_TASK'], summary: 'Create a task in a department the caller manages' },
    update: {
      anyOf: ['EDIT_TASK'],
      summary: 'Update a task of a department the caller manages (and move it only to one they manage)',
    },
    remove: { anyOf: ['DELETE_TASK'], summary: 'Delete a task of a department the caller manages' },
  });
};
