import {
  defaultShift,
  expandSchedules,
  isDeletable,
  isUpdatable,
  moveShift,
  ScheduleForm,
  type ScheduleFormValues,
} from '@opsdeck/contract/schedules';
import { describe, expect, it } from 'vitest';
import { deleteSummary } from './delete-schedules-modal';
import { scheduleFormSchema } from './schedule-form';

const DAY = 24 * 60 * 60 * 1000;
const at = (date: string, time: string) => new Date(`${date}T${time}:00`).getTime();

const form = (overrides: Partial<ScheduleFormValues> = {}): ScheduleFormValues => ({
  userIds: [7, 9],
  // Mon 2030-01-07 to Sun 2030-01-13.
  startDate: '2030-01-07',
  endDate: '2030-01-13',
  weekdays: [1, 3, 5],
  shiftStart: '09:00',
  shiftEnd: '17:30',
  ...overrides,
});

const keysOf = (input: unknown, schema = ScheduleForm) => {
  const result = schema.safeParse(input);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('expandSchedules (spec section 4)', () => {
  it('makes one record per user per day of the range that falls on a chosen weekday', () => {
    const records = expandSchedules(form());
    expect(records).toEqual(
      ['2030-01-07', '2030-01-09', '2030-01-11'].flatMap((date) =>
        [7, 9].map((userId) => ({
          userId,
          scheduleStart: at(date, '09:00'),
          scheduleEnd: at(date, '17:30'),
          archived: false,
        })),
      ),
    );
  });

  it('includes both ends of the range and crosses months', () => {
    const records = expandSchedules(
      form({ userIds: [1], startDate: '2030-01-31', endDate: '2030-02-03', weekdays: [0, 4, 5, 6] }),
    );
    expect(records.map((record) => new Date(record.scheduleStart).getDate())).toEqual([31, 1, 2, 3]);
  });

  it('runs a shift whose end is before its start into the next day', () => {
    const [night] = expandSchedules(form({ userIds: [1], weekdays: [1], shiftStart: '22:00', shiftEnd: '06:00' }));
    expect(night).toMatchObject({ scheduleStart: at('2030-01-07', '22:00'), scheduleEnd: at('2030-01-08', '06:00') });
  });

  it('gives nothing when no day of the range is a chosen weekday', () => {
    expect(expandSchedules(form({ startDate: '2030-01-07', endDate: '2030-01-07', weekdays: [2] }))).toEqual([]);
  });
});

describe('the create form (spec section 5)', () => {
  it('accepts a complete form', () => {
    expect(keysOf(form())).toEqual({});
  });

  it('names each missing part with its key', () => {
    expect(keysOf({ userIds: [], startDate: '', endDate: '', weekdays: [], shiftStart: '', shiftEnd: '' })).toEqual({
      userIds: 'ERROR_SCHEDULE_USERS_REQUIRED',
      startDate: 'ERROR_SCHEDULE_START_DATE_REQUIRED',
      endDate: 'ERROR_SCHEDULE_END_DATE_REQUIRED',
      weekdays: 'ERROR_SCHEDULE_WEEKDAYS_REQUIRED',
      shiftStart: 'ERROR_SCHEDULE_SHIFT_START_REQUIRED',
      shiftEnd: 'ERROR_SCHEDULE_SHIFT_END_REQUIRED',
    });
  });

  it('refuses a start after the end, equal shift times, no matching day, and over 5000 records', () => {
    expect(keysOf(form({ startDate: '2030-01-08', endDate: '2030-01-07' }))).toEqual({
      endDate: 'ERROR_SCHEDULE_DATES_INVALID',
    });
    expect(keysOf(form({ startDate: '2030-01-07', endDate: '2030-01-07' }))).toEqual({});
    expect(keysOf(form({ shiftEnd: '09:00' }))).toEqual({ shiftEnd: 'ERROR_SCHEDULE_SHIFT_INVALID' });
    expect(keysOf(form({ endDate: '2030-01-07', weekdays: [2] }))).toEqual({ weekdays: 'ERROR_SCHEDULE_NO_DAYS' });
    const userIds = Array.from({ length: 500 }, (_, index) => index + 1);
    expect(keysOf(form({ userIds, endDate: '2030-01-31', weekdays: [1, 2, 3, 4, 5] }))).toEqual({
      userIds: 'ERROR_SCHEDULE_TOO_MANY',
    });
  });

  it('needs a company from an admin', () => {
    const admin = scheduleFormSchema(true);
    expect(admin.safeParse({ ...form(), tenantId: null }).error?.issues.map((issue) => issue.message)).toEqual([
      'ERROR_COMPANY_REQUIRED',
    ]);
    expect(admin.safeParse({ ...form(), tenantId: 'tenant' }).success).toBe(true);
  });
});

describe('shift helpers', () => {
  it('defaults the shift to now until now plus 9 hours', () => {
    expect(defaultShift(at('2030-01-07', '08:15'))).toEqual({ shiftStart: '08:15', shiftEnd: '17:15' });
    expect(defaultShift(at('2030-01-07', '20:05'))).toEqual({ shiftStart: '20:05', shiftEnd: '05:05' });
  });

  it('moves a schedule to new times on its own date', () => {
    expect(moveShift({ scheduleStart: at('2030-01-09', '09:00') }, '13:00', '21:45')).toEqual({
      scheduleStart: at('2030-01-09', '13:00'),
      scheduleEnd: at('2030-01-09', '21:45'),
    });
  });

  it('locks updates within 14 days and deletes of started schedules', () => {
    const now = at('2030-01-01', '12:00');
    expect(isUpdatable({ scheduleStart: now + 13 * DAY }, now)).toBe(false);
    expect(isUpdatable({ scheduleStart: now + 14 * DAY }, now)).toBe(false);
    expect(isUpdatable({ scheduleStart: now + 14 * DAY + 1 }, now)).toBe(true);
    expect(isDeletable({ scheduleStart: now }, now)).toBe(false);
    expect(isDeletable({ scheduleStart: now + 1 }, now)).toBe(true);
  });

  it('summarises a deletion as names once each and the covered range', () => {
    const row = (firstName: string, scheduleStart: number) => ({
      id: scheduleStart,
      userId: 1,
      firstName,
      lastName: 'Doe',
      scheduleStart,
      scheduleEnd: scheduleStart + 1,
      archived: false,
      tenantId: 't',
    });
    expect(deleteSummary([row('Zed', 30), row('Ann', 10), row('Zed', 20)])).toEqual({
      names: ['Ann Doe', 'Zed Doe'],
      from: 10,
      to: 30,
    });
  });
});
