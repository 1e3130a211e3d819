import type { Schedule } from '@opsdeck/contract/schedules';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';

export const fullName = (schedule: Pick<Schedule, 'firstName' | 'lastName'>) =>
  `${schedule.firstName} ${schedule.lastName}`;

/** 'MMM DD YYYY' (spec section 9, schedule table). */
export const scheduleDate = (schedule: Pick<Schedule, 'scheduleStart'>) =>
  formatEpoch(schedule.scheduleStart, DATE_FORMATS.scheduleDate);

/** 'h:mm a – h:mm a' (spec section 9, schedule times). */
export const scheduleShift = (schedule: Pick<Schedule, 'scheduleStart' | 'scheduleEnd'>) =>
  `${formatEpoch(schedule.scheduleStart, DATE_FORMATS.scheduleTime)} – ${formatEpoch(schedule.scheduleEnd, DATE_FORMATS.scheduleTime)}`;

/** Update and delete mode's dialogs: the selected schedules, closing, and leaving the mode once done. */
export interface SelectionDialogProps {
  schedules: Schedule[];
  onClose: () => void;
  onDone: () => void;
}
