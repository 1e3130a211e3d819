import { ScheduleForm } from '@opsdeck/contract/schedules';
import { z } from 'zod';
import { companyChoice } from '../../lib/form-schemas';

/** The create form's values: the contract's form, plus the company an admin picks. */
export type ScheduleFormInput = {
  tenantId: string | null;
  userIds: number[];
  startDate: string;
  endDate: string;
  weekdays: number[];
  shiftStart: string;
  shiftEnd: string;
};

/** Admins name the company (spec section 5, "Company required for admins"); others schedule their own. */
export function scheduleFormSchema(admin: boolean) {
  return z.intersection(ScheduleForm, z.object({ tenantId: companyChoice(admin) }));
}

/**
 * Monday to Friday, no dates and no shift times yet: the times are chosen, not assumed (spec
 * section 5, 'Select shift start' / 'Select shift end'), so a stray Enter cannot book the default
 * hours. The spec's default shift (now until now plus 9 hours) is one click away in the form.
 */
export function scheduleFormDefaults(): ScheduleFormInput {
  return {
    tenantId: null,
    userIds: [],
    startDate: '',
    endDate: '',
    weekdays: [1, 2, 3, 4, 5],
    shiftStart: '',
    shiftEnd: '',
  };
}
