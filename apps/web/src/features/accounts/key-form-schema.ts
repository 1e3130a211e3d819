import { LICENSE_TYPE_KEYS } from '@opsdeck/contract/activities';
import { z } from 'zod';
import { chosenId } from '../../lib/form-schemas';

/**
 * The registration file (spec section 5, Key generation): required, and its name must end in
 * `.dat`, with the contract's keys. Whether its content is valid only the server says.
 */
const registrationFile = z.custom<File | null>().superRefine((file, context) => {
  if (!(file instanceof File) || file.size === 0)
    context.addIssue({ code: 'custom', message: 'ERROR_ACCOUNT_REGFILE_REQUIRED' });
  else if (!file.name.toLowerCase().endsWith('.dat'))
    context.addIssue({ code: 'custom', message: 'ERROR_ACCOUNT_REGFILE_UNSUPPORTED' });
});

/*
 * The fields are not named as the API's (department, regFile) on purpose: spec section 8 has every
 * key generation failure toast and close the dialog, and a failure naming one of the form's own
 * fields would instead be put on that field (FormModal's applyApiError).
 */

/** Generate a key: a department of the company, required before submit (ERROR_ACCOUNT_DEPARTMENT_REQUIRED). */
export const generateKeySchema = z.object({
  departmentId: chosenId('ERROR_ACCOUNT_DEPARTMENT_REQUIRED'),
  file: z.custom<File | null>(),
});

/** Generate a key from a machine's registration file: the department and the `.dat` file. */
export const generateFromFileSchema = z.object({
  departmentId: chosenId('ERROR_ACCOUNT_DEPARTMENT_REQUIRED'),
  file: registrationFile,
});

export type GenerateKeyValues = { departmentId: string | null; file: File | null };
export const emptyGenerateKeyForm: GenerateKeyValues = { departmentId: null, file: null };

/** The provider's solo account: a licence type ('pro' pre-selected, spec section 9) and the file. */
export const soloAccountSchema = z.object({
  licenseType: z.enum(LICENSE_TYPE_KEYS, { error: 'ERROR_LICENSE_TYPE_REQUIRED' }),
  file: registrationFile,
});

export type SoloAccountValues = z.input<typeof soloAccountSchema>;
export const emptySoloAccountForm: SoloAccountValues = { licenseType: 'pro', file: null };
