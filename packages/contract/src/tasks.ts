import { z } from 'zod';
import { DepartmentRef } from './departments';
import { FORBIDDEN_NAME_CHARS, LIMITS } from './limits';
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
    name: z
      .string({ error: 'ERROR_TASK_NAME_REQUIRED' })
      .trim()
      .min(1, 'ERROR_TASK_NAME_REQUIRED')
      .max(LIMITS.nameMax, 'ERROR_GENERAL_NAME_TOO_LONG')
      .refine((name) => !FORBIDDEN_NAME_CHARS.test(name), 'ERROR_GENERAL_NAME_INVALID'),
    statusId: z
      .number({ error: 'ERROR_TASK_STATUS_REQUIRED' })
      .int('ERROR_TASK_STATUS_REQUIRED')
      .positive('ERROR_TASK_STATUS_REQUIRED'),
    departmentId: z
      .number({ error: 'ERROR_TASK_DEPARTMENT_REQUIRED' })
      .int('ERROR_TASK_DEPARTMENT_REQUIRED')
      .positive('ERROR_TASK_DEPARTMENT_REQUIRED'),
  })
  .meta({ id: 'SaveTask' });
export type SaveTask = z.infer<typeof SaveTask>;
export type SaveTaskInput = z.input<typeof SaveTask>;

export const TaskIdParams = z.object({
  id: z.coerce.number({ error: 'ERROR_TASK_NOT_EXIST' }).int('ERROR_TASK_NOT_EXIST').positive('ERROR_TASK_NOT_EXIST'),
});
