import { z } from 'zod';
import { AUTHORITY_KEYS } from './authorities';
import { FORBIDDEN_NAME_CHARS, LIMITS } from './limits';

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
  })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

/** Spec section 5, Role: name required, at most 255 characters (trimmed), none of the forbidden characters. */
export const RoleName = z
  .string({ error: 'ERROR_ROLE_NAME_REQUIRED' })
  .trim()
  .min(1, 'ERROR_ROLE_NAME_REQUIRED')
  .max(LIMITS.nameMax, 'ERROR_ROLE_NAME_TOO_LONG')
  .refine((name) => !FORBIDDEN_NAME_CHARS.test(name), 'ERROR_ROLE_NAME_INVALID');

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

export const RoleIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
