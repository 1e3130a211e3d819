import { z } from 'zod';
import { epoch, epochText, id, searchText } from './fields';
import { listFormat } from './paging';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Spec section 9 (schedule edit lock, default shift end) and the API's own bound on a bulk call. */
export const SCHEDULE_RULES = {
  /** Update only schedules that start later than this from now. */
  updateLockMs: 14 * DAY_MS,
  /** Default shift end: now plus 9 hours. */
  defaultShiftMs: 9 * HOUR_MS,
  /** Records one POST, PUT or PATCH may carry. */
  maxPerCall: 5000,
  /** A shift is at most a day long. */
  maxShiftMs: DAY_MS,
} as const;

/** Update mode selects schedules that start later than 14 days from now (spec section 2). */
export const isUpdatable = (schedule: { scheduleStart: number }, now: number) =>
  schedule.scheduleStart > now + SCHEDULE_RULES.updateLockMs;

/** Delete mode selects schedules that start later than now (spec section 2). */
export const isDeletable = (schedule: { scheduleStart: number }, now: number) => schedule.scheduleStart > now;

/** Spec section 3, Schedule entry. */
export const Schedule = z
  .object({
    id: z.number().int(),
    userId: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    scheduleStart: z.number(),
    scheduleEnd: z.number(),
    archived: z.boolean(),
    /** The company's tenant: an admin's list spans companies and shows a Company column. */
    tenantId: z.string(),
  })
  .meta({ id: 'Schedule' });
export type Schedule = z.infer<typeof Schedule>;

const optionalEpoch = epochText().optional();

/** GET /api/schedule: schedules overlapping [from, to] whose user's full name contains userName. */
export const ScheduleListQuery = z.object({
  from: optionalEpoch,
  to: optionalEpoch,
  userName: searchText(),
  ...listFormat,
});
export type ScheduleListQuery = z.infer<typeof ScheduleListQuery>;

const validShift = (value: { scheduleStart: number; scheduleEnd: number }) =>
  value.scheduleEnd > value.scheduleStart && value.scheduleEnd - value.scheduleStart <= SCHEDULE_RULES.maxShiftMs;
const shiftIssue = { message: 'ERROR_SCHEDULE_SHIFT_INVALID', path: ['scheduleEnd'] };

const bulk = <T extends z.ZodType>(item: T) =>
  z
    .array(item, { error: 'ERROR_SCHEDULE_NOTHING_SELECTED' })
    .min(1, 'ERROR_SCHEDULE_NOTHING_SELECTED')
    .max(SCHEDULE_RULES.maxPerCall, 'ERROR_SCHEDULE_TOO_MANY');

/** One record of POST /api/schedule: one user, one day (spec section 7). */
export const NewSchedule = z
  .object({
    userId: id('ERROR_SCHEDULE_USER_INVALID'),
    scheduleStart: epoch(),
    scheduleEnd: epoch(),
    archived: z.literal(false).optional().default(false),
  })
  .refine(validShift, shiftIssue);
export type NewSchedule = z.input<typeof NewSchedule>;

export const CreateSchedules = bulk(NewSchedule).meta({ id: 'CreateSchedules' });

/** One record of PUT /api/schedule: new times for an existing schedule. */
export const ScheduleTimes = z
  .object({ id: id(), scheduleStart: epoch(), scheduleEnd: epoch() })
  .refine(validShift, shiftIssue);
export type ScheduleTimes = z.infer<typeof ScheduleTimes>;

export const UpdateSchedules = bulk(ScheduleTimes).meta({ id: 'UpdateSchedules' });

/** PATCH /api/schedule: a plain array of the ids to archive (spec section 7, "a list of ids"). */
export const ArchiveSchedules = bulk(id()).meta({ id: 'ArchiveSchedules' });

export const ArchivedSchedules = z.object({ ids: z.array(z.number().int()) }).meta({ id: 'ArchivedSchedules' });

// --- The create form and its expansion (spec sections 4 and 5) ---

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Weekdays as JavaScript numbers them: 0 is Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0] as const;

type DateParts = { year: number; month: number; day: number };
const dateParts = (date: string): DateParts => {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return { year, month, day };
};
const timeParts = (time: string) => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return { hours, minutes };
};

/** Local calendar days from start to end inclusive (at most `limit` of them), with their weekday. */
function* daysBetween(startDate: string, endDate: string, limit = 5 * 366): Generator<DateParts & { weekday: number }> {
  const start = dateParts(startDate);
  const end = dateParts(endDate);
  for (let offset = 0; offset < limit; offset += 1) {
    const day = new Date(start.year, start.month - 1, start.day + offset);
    const parts = { year: day.getFullYear(), month: day.getMonth() + 1, day: day.getDate() };
    if (parts.year * 10000 + parts.month * 100 + parts.day > end.year * 10000 + end.month * 100 + end.day) return;
    yield { ...parts, weekday: day.getDay() };
  }
}

/** Epoch ms of a shift on one local day; an end not after the start runs into the next day (a night shift). */
export function shiftOn(date: DateParts, shiftStart: string, shiftEnd: string) {
  const from = timeParts(shiftStart);
  const to = timeParts(shiftEnd);
  const scheduleStart = new Date(date.year, date.month - 1, date.day, from.hours, from.minutes).getTime();
  let scheduleEnd = new Date(date.year, date.month - 1, date.day, to.hours, to.minutes).getTime();
  if (scheduleEnd <= scheduleStart) {
    scheduleEnd = new Date(date.year, date.month - 1, date.day + 1, to.hours, to.minutes).getTime();
  }
  return { scheduleStart, scheduleEnd };
}

/** The same shift times on the local day a schedule starts (update mode keeps each one's date). */
export function moveShift(schedule: { scheduleStart: number }, shiftStart: string, shiftEnd: string) {
  const day = new Date(schedule.scheduleStart);
  return shiftOn({ year: day.getFullYear(), month: day.getMonth() + 1, day: day.getDate() }, shiftStart, shiftEnd);
}

const matchingDays = (form: { startDate: string; endDate: string; weekdays: readonly number[] }) =>
  [...daysBetween(form.startDate, form.endDate)].filter((day) => form.weekdays.includes(day.weekday));

/**
 * Spec section 4: one record per selected user per day of the range that falls on a selected
 * weekday, with the shift's times on that day and archived false. Local time of the runtime.
 */
export function expandSchedules(form: ScheduleFormValues): NewSchedule[] {
  const records: NewSchedule[] = [];
  for (const day of matchingDays(form)) {
    const times = shiftOn(day, form.shiftStart, form.shiftEnd);
    for (const userId of form.userIds) records.push({ userId, ...times, archived: false });
  }
  return records;
}

const twoDigits = (value: number) => String(value).padStart(2, '0');
const clock = (date: Date) => `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;

/** The form's default shift: from now to now plus 9 hours (spec sections 4 and 9). */
export function defaultShift(now: number) {
  return { shiftStart: clock(new Date(now)), shiftEnd: clock(new Date(now + SCHEDULE_RULES.defaultShiftMs)) };
}

const requiredDate = (key: 'ERROR_SCHEDULE_START_DATE_REQUIRED' | 'ERROR_SCHEDULE_END_DATE_REQUIRED') =>
  z.string({ error: key }).regex(DATE_PATTERN, key);
const requiredTime = (key: 'ERROR_SCHEDULE_SHIFT_START_REQUIRED' | 'ERROR_SCHEDULE_SHIFT_END_REQUIRED') =>
  z.string({ error: key }).regex(TIME_PATTERN, key);

/** The create form (spec section 5, Schedule); its messages are error keys like the API's. */
export const ScheduleForm = z
  .object({
    userIds: z.array(id()).min(1, 'ERROR_SCHEDULE_USERS_REQUIRED'),
    startDate: requiredDate('ERROR_SCHEDULE_START_DATE_REQUIRED'),
    endDate: requiredDate('ERROR_SCHEDULE_END_DATE_REQUIRED'),
    weekdays: z.array(z.number().int().min(0).max(6)).min(1, 'ERROR_SCHEDULE_WEEKDAYS_REQUIRED'),
    shiftStart: requiredTime('ERROR_SCHEDULE_SHIFT_START_REQUIRED'),
    shiftEnd: requiredTime('ERROR_SCHEDULE_SHIFT_END_REQUIRED'),
  })
  .superRefine((form, context) => {
    // Zod runs refinements on input whose fields already failed: judge only the parts that are whole.
    const datesWhole = DATE_PATTERN.test(form.startDate) && DATE_PATTERN.test(form.endDate);
    if (datesWhole && form.startDate > form.endDate) {
      context.addIssue({ code: 'custom', message: 'ERROR_SCHEDULE_DATES_INVALID', path: ['endDate'] });
    }
    const shiftWhole = TIME_PATTERN.test(form.shiftStart) && TIME_PATTERN.test(form.shiftEnd);
    if (shiftWhole && form.shiftStart === form.shiftEnd) {
      context.addIssue({ code: 'custom', message: 'ERROR_SCHEDULE_SHIFT_INVALID', path: ['shiftEnd'] });
    }
    if (!datesWhole || form.startDate > form.endDate || form.weekdays.length === 0) return;
    const days = matchingDays(form).length;
    if (days === 0) context.addIssue({ code: 'custom', message: 'ERROR_SCHEDULE_NO_DAYS', path: ['weekdays'] });
    else if (days * form.userIds.length > SCHEDULE_RULES.maxPerCall) {
      context.addIssue({ code: 'custom', message: 'ERROR_SCHEDULE_TOO_MANY', path: ['userIds'] });
    }
  });
export type ScheduleFormValues = z.infer<typeof ScheduleForm>;

/** The update form: new shift times for every selected schedule. */
export const ScheduleShiftForm = z
  .object({
    shiftStart: requiredTime('ERROR_SCHEDULE_SHIFT_START_REQUIRED'),
    shiftEnd: requiredTime('ERROR_SCHEDULE_SHIFT_END_REQUIRED'),
  })
  .refine((form) => !TIME_PATTERN.test(form.shiftEnd) || form.shiftStart !== form.shiftEnd, {
    message: 'ERROR_SCHEDULE_SHIFT_INVALID',
    path: ['shiftEnd'],
  });
export type ScheduleShiftFormValues = z.infer<typeof ScheduleShiftForm>;
