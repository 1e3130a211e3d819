import { z } from 'zod';
import { DepartmentRef } from './departments';
import { GENERAL_NAME_KEYS, id, idParams, name } from './fields';
import { StatusRef } from './statuses';

/** Spec section 3, Task. */
export const Task = z
  .object({
    id: z.number().int(),
    name: z.string(),
    status: StatusRef,
    department: DepartmentRef,
    /** Whether the caller may change or delete it: of a department they head or one below (spec section 6). */
    editable: z.boolean(),
    tenantId: z.string(),
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof Task>;

/** The body of POST /api/task and PUT /api/task/{id} (spec sections 5 and 7). */
export const SaveTask = z
  .object({
    name: name({ ...GENERAL_NAME_KEYS, required: 'ERROR_TASK_NAME_REQUIRED' }),
    statusId: id('ERROR_TASK_STATUS_REQUIRED'),
    departmentId: id('ERROR_TASK_DEPARTMENT_REQUIRED'),
  })
  .meta({ id: 'SaveTask' });
export type SaveTask = z.infer<typeof SaveTask>;
export type SaveTaskInput = z.input<typeof SaveTask>;

export const TaskIdParams = idParams('ERROR_TASK_NOT_EXIST');
