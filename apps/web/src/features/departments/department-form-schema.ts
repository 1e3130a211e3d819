import { type Department, DepartmentName, type SaveDepartment } from '@opsdeck/contract/departments';
import { z } from 'zod';
import { companyChoice } from '../../lib/form-schemas';

/**
 * The department form (spec section 5): the head is typed into a typeahead and counts only when
 * picked from the department-head list, so an empty text and an unpicked text fail differently.
 */
export const HeadChoice = z.object({ text: z.string(), id: z.number().int().nullable() }).superRefine((head, ctx) => {
  if (!head.text.trim()) ctx.addIssue({ code: 'custom', message: 'ERROR_DEPARTMENT_HEAD_REQUIRED' });
  else if (head.id === null) ctx.addIssue({ code: 'custom', message: 'ERROR_DEPARTMENT_HEAD_NOT_SELECTED' });
});

/** `needsCompany`: admins pick the company (ERROR_COMPANY_REQUIRED without one). */
export function departmentFormSchema(needsCompany: boolean) {
  return z.object({
    company: companyChoice(needsCompany),
    name: DepartmentName,
    head: HeadChoice,
    /** A Select's value: the parent's id as text, or null for a top-level department. */
    parentId: z.string().nullable(),
  });
}

export type DepartmentFormValues = z.input<ReturnType<typeof departmentFormSchema>>;
export type DepartmentFormOutput = z.output<ReturnType<typeof departmentFormSchema>>;

export function emptyDepartmentForm(company: string | null): DepartmentFormValues {
  return { company, name: '', head: { text: '', id: null }, parentId: null };
}

export function departmentToForm(department: Department): DepartmentFormValues {
  return {
    company: department.tenantId,
    name: department.name,
    head: { text: department.head?.completeName ?? '', id: department.headId },
    parentId: department.parentId === null ? null : String(department.parentId),
  };
}

export function toSaveDepartment(values: DepartmentFormOutput): SaveDepartment {
  return {
    name: values.name,
    headId: values.head.id ?? 0,
    parentId: values.parentId ? Number(values.parentId) : null,
  };
}

/** The parents a department may take: any of its company's but itself and those below it. */
export function parentChoices(list: readonly Department[], editingId?: number): Department[] {
  if (editingId === undefined) return [...list];
  const below = new Set<number>([editingId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const department of list) {
      if (department.parentId !== null && below.has(department.parentId) && !below.has(department.id)) {
        below.add(department.id);
        grew = true;
      }
    }
  }
  return list.filter((department) => !below.has(department.id));
}
