import { type Authority, isAuthority } from '@opsdeck/contract/authorities';
import { CreateRole } from '@opsdeck/contract/roles';
import { z } from 'zod';
import { companyChoice } from '../../lib/form-schemas';

/**
 * The role form: the contract's name rule, the admin's company (spec section 5: required for
 * admins) and the checked authority keys. The server checks the keys and the escalation rule.
 */
export function roleFormSchema(requireCompany: boolean) {
  return z.object({
    name: CreateRole.shape.name,
    // Checked on the field itself, so an empty form flags the company along with the name.
    company: companyChoice(requireCompany),
    authorityNames: z.array(z.string()),
  });
}

export type RoleFormValues = z.input<ReturnType<typeof roleFormSchema>>;

/**
 * The full list an update sends (newAuthorityName): what is checked, plus what the role holds
 * that the editor may not grant and so never saw in the checklist, which stays as it was.
 */
export function authoritiesToSave(
  checked: readonly string[],
  held: readonly string[],
  grantable: readonly string[],
): Authority[] {
  const shown = new Set(grantable);
  const keys = [...checked.filter((key) => shown.has(key)), ...held.filter((key) => !shown.has(key))];
  return [...new Set(keys)].filter(isAuthority);
}
