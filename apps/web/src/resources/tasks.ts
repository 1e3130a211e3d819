import type { Task } from '@opsdeck/contract/tasks';
import { restResource } from './rest-resource';

const tasks = restResource<Task>('tasks', { list: '/task', one: '/task' });

export const taskKeys = tasks.keys;
export const tasksQueryOptions = tasks.listOptions;
export const taskQueryOptions = tasks.oneOptions;
