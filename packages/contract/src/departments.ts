import { z } from 'zod';
import { id, idParams, idText, name } from './fields';

/** A department as every list and form reads it (spec section 3). Owned by the departments area. */
export const DepartmentRef = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'DepartmentRef' });
export type DepartmentRef = z.infer<typeof DepartmentRef>;

export const DepartmentHeadRef = z.object({ id: z.number().int(), completeName: z.string() });

export const Department = z
  .object({
    id: z.number().int(),
    name: z.string(),
    head: DepartmentHeadRef.nullable(),
    headId: z.number().int().nullable(),
    parent: DepartmentRef.nullable(),
    parentId: z.number().int().nullable(),
    tenantId: z.string(),
    companyName: z.string(),
    archived: z.boolean(),
  })
  .meta({ id: 'Department' });
export type Department = z.infer<typeof Department>;

/** A department with the departments below it, for the tree display (spec section 2). */
export type DepartmentNode = {
  id: number;
  name: string;
  head: { id: number; completeName: string } | null;
  parentId: number | null;
  tenantId: string;
  children: DepartmentNode[];
};
export const DepartmentNode: z.ZodType<DepartmentNode> = z
  .object({
    id: z.number().int(),
    name: z.string(),
    head: DepartmentHeadRef.nullable(),
    parentId: z.number().int().nullable(),
    tenantId: z.string(),
    get children() {
      return z.array(DepartmentNode);
    },
  })
  .meta({ id: 'DepartmentNode' });

/**
 * Spec section 5, Department: required, max 255 (docs/architecture.md, "Open points of the spec,
 * decided"), no forbidden characters.
 */
export const DepartmentName = name({
  required: 'ERROR_DEPARTMENT_NAME_REQUIRED',
  tooLong: 'ERROR_DEPARTMENT_NAME_TOO_LONG',
  invalid: 'ERROR_DEPARTMENT_NAME_INVALID',
});

/**
 * The body of POST /api/department and PUT /api/department/{id}. The tenant is X-Tenant-Id for
 * admins (ERROR_COMPANY_REQUIRED without it), the caller's own company otherwise.
 */
export const SaveDepartment = z
  .object({
    name: DepartmentName,
    headId: id('ERROR_DEPARTMENT_HEAD_NOT_SELECTED', 'ERROR_DEPARTMENT_HEAD_REQUIRED'),
    parentId: id('ERROR_DEPARTMENT_PARENT_INVALID').nullish(),
  })
  .meta({ id: 'SaveDepartment' });
export type SaveDepartment = z.infer<typeof SaveDepartment>;
export type SaveDepartmentInput = z.input<typeof SaveDepartment>;

export const DepartmentIdParams = idParams('ERROR_DEPARTMENT_NOT_EXIST');

export const DepartmentHeadListQuery = z.object({ departmentId: idText('ERROR_DEPARTMENT_NOT_EXIST').optional() });

/** One entry of GET /api/user/get-department-head-list. */
export const DepartmentHeadCandidate = z
  .object({ id: z.number().int(), completeName: z.string(), emailAddress: z.string() })
  .meta({ id: 'DepartmentHeadCandidate' });
export type DepartmentHeadCandidate = z.infer<typeof DepartmentHeadCandidate>;
