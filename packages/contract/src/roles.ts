import { z } from 'zod';
import { AUTHORITY_KEYS } from './authorities';
import { idParams, name } from './fields';

/** An authority as the role checklist shows it (spec section 3: id, key, title; the id is the key). */
export const AuthorityItem = z.object({ id: z.string(), key: z.string(), title: z.string() }).meta({ id: 'Authority' });
export type AuthorityItem = z.infer<typeof AuthorityItem>;

/** A role (the spec's user group). Owned by the roles area. */
export const Role = z
  .object({
    id: z.number().int(),
    name: z.string(),
    isProtected: z.boolean(),
    /** Null for the provider's own roles. */
    tenantId: z.string().nullable(),
    companyName: z.string().nullable(),
    authorities: z.array(AuthorityItem),
    /** Built-in roles keep their name and authorities (ERROR_ROLE_PROTECTED). */
    editable: z.boolean(),
    /** Protected and built-in roles are never deleted (ERROR_GENERAL_PROTECTED). */
    deletable: z.boolean(),
  })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

/** Spec section 5, Role: name required, at most 255 characters (trimmed), none of the forbidden characters. */
export const RoleName = name({
  required: 'ERROR_ROLE_NAME_REQUIRED',
  tooLong: 'ERROR_ROLE_NAME_TOO_LONG',
  invalid: 'ERROR_ROLE_NAME_INVALID',
});

/** Authority keys a role holds; each must be one the product knows. */
export const AuthorityNames = z.array(z.enum(AUTHORITY_KEYS, { error: 'ERROR_ROLE_AUTHORITY_INVALID' }), {
  error: 'ERROR_ROLE_AUTHORITY_INVALID',
});

/** POST /api/usergroup (spec section 7: name, authorityNames; the company is the request's tenant). */
export const CreateRole = z
  .object({ name: RoleName, authorityNames: AuthorityNames.default([]) })
  .meta({ id: 'CreateRole' });
export type CreateRole = z.infer<typeof CreateRole>;

/** PUT /api/usergroup/{id} (spec section 7: name, newAuthorityName = the role's new full list). */
export const UpdateRole = z
  .object({ name: RoleName, newAuthorityName: AuthorityNames.default([]) })
  .meta({ id: 'UpdateRole' });
export type UpdateRole = z.infer<typeof UpdateRole>;

export const RoleIdParams = idParams();
