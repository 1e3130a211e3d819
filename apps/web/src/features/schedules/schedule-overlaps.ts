import type { NewSchedule, Schedule } from '@opsdeck/contract/schedules';

/**
 * The stored schedules that the new records would double-book: the same user, and times that
 * cross (a shift ending as the next begins does not). The server refuses these with
 * ERROR_SCHEDULE_OVERLAP; the form names them so the user knows which person and day to change.
 */
export function findOverlaps(records: readonly NewSchedule[], existing: readonly Schedule[]): Schedule[] {
  return existing
    .filter((stored) =>
      records.some(
        (record) =>
          record.userId === stored.userId &&
          record.scheduleStart < stored.scheduleEnd &&
          stored.scheduleStart < record.scheduleEnd,
      ),
    )
    .sort((a, b) => a.scheduleStart - b.scheduleStart);
}
