import { AddLicense, AllowedKeys, type License, type UpdateLicense } from '@opsdeck/contract/licenses';
import dayjs from 'dayjs';
import { z } from 'zod';

/** The date inputs' value: a calendar day as 'YYYY-MM-DD' (Mantine dates), or null. */
const DAY = 'YYYY-MM-DD';

/**
 * The add dialog (spec section 5, Licence create): the type, pre-selected 'pro', and a label, by
 * the contract's rules (ERROR_LICENSE_TYPE_REQUIRED / _INVALID, ERROR_LICENSE_LABEL_TOO_LONG).
 */
export const addLicenseFormSchema = z.object({
  licenseType: z
    .string()
    .nullable()
    .transform((value) => value ?? '')
    .pipe(AddLicense.shape.licenseType),
  label: AddLicense.shape.label,
});

export type AddLicenseFormValues = z.input<typeof addLicenseFormSchema>;
export type AddLicenseFormOutput = z.output<typeof addLicenseFormSchema>;

export const emptyAddLicenseForm = (): AddLicenseFormValues => ({ licenseType: 'pro', label: '' });

export const toAddLicense = (companyId: number, values: AddLicenseFormOutput) => ({
  companyId,
  licenseType: values.licenseType,
  label: values.label,
});

/**
 * The last moment of a chosen day, in the viewer's time zone: a licence renewed until a day is good
 * through that day, so today itself is not "already expired".
 */
export function expiryOfDay(day: string): number {
  return dayjs(day).endOf('day').valueOf();
}

/**
 * Spec section 5, Licence update: the expiration date required, a valid date, not already past.
 * The server checks "past" again against its clock; the form says it before the call.
 */
const ExpirationDay = z
  .string()
  .nullable()
  .transform((day, context) => {
    if (!day) {
      context.addIssue({ code: 'custom', message: 'ERROR_LICENSE_EXPIRATION_DATE_REQUIRED' });
      return z.NEVER;
    }
    const expiry = dayjs(day).isValid() ? expiryOfDay(day) : Number.NaN;
    if (!Number.isFinite(expiry) || expiry < Date.now()) {
      context.addIssue({ code: 'custom', message: 'ERROR_LICENSE_EXPIRATION_DATE_INVALID' });
      return z.NEVER;
    }
    return expiry;
  });

/**
 * The renew dialog ('Renew License Confirmation'): the expiration date, the allowed keys (the
 * contract's 1 to 100) and the label.
 */
export const renewLicenseFormSchema = z.object({
  expirationDate: ExpirationDay,
  // The number input holds a number, or '' when emptied; the contract's rule reads both.
  maxAccounts: z.union([z.number(), z.string()]).transform((value, context) => {
    const result = AllowedKeys.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) context.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  }),
  label: AddLicense.shape.label,
});

export type RenewLicenseFormValues = z.input<typeof renewLicenseFormSchema>;
export type RenewLicenseFormOutput = z.output<typeof renewLicenseFormSchema>;

export const licenseToRenewForm = (license: License): RenewLicenseFormValues => ({
  expirationDate: dayjs(license.expirationDate).format(DAY),
  maxAccounts: license.maxAccounts,
  label: license.label,
});

export const toUpdateLicense = (
  license: License,
  companyId: number,
  values: RenewLicenseFormOutput,
): UpdateLicense => ({
  companyId,
  licenseId: license.id,
  expirationDate: values.expirationDate,
  maxAccounts: values.maxAccounts,
  label: values.label,
});
