import { SaveTask, type Task } from '@opsdeck/contract/tasks';
import { z } from 'zod';
import { chosenId, companyChoice } from '../../lib/form-schemas';

/** The task form (spec section 5): the contract's rules, over the Selects' text values. */
export function taskFormSchema(needsCompany: boolean) {
  return z.object({
    company: companyChoice(needsCompany),
    name: SaveTask.shape.name,
    statusId: chosenId('ERROR_TASK_STATUS_REQUIRED'),
    departmentId: chosenId('ERROR_TASK_DEPARTMENT_REQUIRED'),
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

/**
 * The statuses a task of this department may take: its own, those of the departments above it
 * (a status of Operations applies in Dispatch, which is part of Operations) and the built-ins every
 * department shares. Never another branch's (the walk: the task form offered every department's).
 * `departments` gives the parent links known to the user; the walk stops where they end.
 */
export function statusesForDepartment<T extends { departmentId: number; builtIn: boolean }>(
  statuses: readonly T[],
  departments: readonly { id: number; parentId: number | null }[],
  departmentId: string | null,
): T[] {
  if (!departmentId) return [];
  const parentOf = new Map(departments.map((department) => [department.id, department.parentId]));
  const line = new Set<number>();
  for (let id: number | null = Number(departmentId); id !== null && !line.has(id); id = parentOf.get(id) ?? null) {
    line.add(id);
  }
  return statuses.filter((status) => status.builtIn || line.has(status.departmentId));
}

/** The search matches the name, the status or the department (spec section 2: tasks have a search). */
export function matchesTask(task: Task, text: string, companyName?: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [task.name, task.status.name, task.department.name, companyName].some((value) =>
    value?.toLowerCase().includes(needle),
  );
}
