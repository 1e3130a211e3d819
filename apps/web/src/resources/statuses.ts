import type { Status } from '@opsdeck/contract/statuses';
import { restResource } from './rest-resource';

/** The statuses resource: the statuses page and the task form's status select read the same list. */
const statuses = restResource<Status>('statuses', { list: '/status', one: '/status' });

export const statusKeys = statuses.keys;
export const statusesQueryOptions = statuses.listOptions;
export const statusQueryOptions = statuses.oneOptions;
