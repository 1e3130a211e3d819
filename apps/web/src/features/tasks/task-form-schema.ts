import { SaveTask, type Task } from '@opsdeck/contract/tasks';
import { z } from 'zod';

/** The task form (spec section 5): the contract's rules, over the Selects' text values. */
export function taskFormSchema(needsCompany: boolean) {
  return z.object({
    company: z
      .string()
      .nullable()
      .refine((company) => !needsCompany || Boolean(company), 'ERROR_COMPANY_REQUIRED'),
    name: SaveTask.shape.name,
    statusId: z.string().nullable().refine(Boolean, 'ERROR_TASK_STATUS_REQUIRED'),
    departmentId: z.string().nullable().refine(Boolean, 'ERROR_TASK_DEPARTMENT_REQUIRED'),
  });
}

export type TaskFormValues = z.input<ReturnType<typeof taskFormSchema>>;
export type TaskFormOutput = z.output<ReturnType<typeof taskFormSchema>>;

export const emptyTaskForm = (company: string | null): TaskFormValues => ({
  company,
  name: '',
  statusId: null,
  departmentId: null,
});

export const taskToForm = (task: Task): TaskFormValues => ({
  company: task.tenantId,
  name: task.name,
  statusId: String(task.status.id),
  departmentId: String(task.department.id),
});

export const toSaveTask = (values: TaskFormOutput): SaveTask => ({
  name: values.name,
  statusId: Number(values.statusId),
  departmentId: Number(values.departmentId),
});

/** Options of a select: the loaded list, plus the current choice if the list lacks it (so an edit shows it). */
export function withCurrent(list: readonly { id: number; name: string }[], current?: { id: number; name: string }) {
  const options = list.map((item) => ({ id: item.id, name: item.name }));
  if (current && !options.some((item) => item.id === current.id)) options.unshift(current);
  return options;
}

/** The search matches the name, the status or the department (spec section 2: tasks have a search). */
export function matchesTask(task: Task, text: string, companyName?: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [task.name, task.status.name, task.department.name, companyName].some((value) =>
    value?.toLowerCase().includes(needle),
  );
}
