import { defaultShift, ScheduleForm } from '@opsdeck/contract/schedules';
import { z } from 'zod';

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

const company = z.object({
  tenantId: z.string({ error: 'ERROR_COMPANY_REQUIRED' }).min(1, 'ERROR_COMPANY_REQUIRED'),
});

/** Admins name the company (spec section 5, "Company required for admins"); others schedule their own. */
export function scheduleFormSchema(admin: boolean) {
  return admin ? z.intersection(ScheduleForm, company) : ScheduleForm;
}

/** Monday to Friday, no dates yet, and the spec's default shift: now until now plus 9 hours. */
export function scheduleFormDefaults(now: number): ScheduleFormInput {
  return {
    tenantId: null,
    userIds: [],
    startDate: '',
    endDate: '',
    weekdays: [1, 2, 3, 4, 5],
    ...defaultShift(now),
  };
}
