import { List, Stack, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Schedule } from '@opsdeck/contract/schedules';
import { useTranslation } from 'react-i18next';
import { DeleteModal } from '../../components/delete-modal';
import { Truncate } from '../../components/truncate';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { ARCHIVE_SCHEDULES_FAILURE, useArchiveSchedules } from './api';
import type { SelectionDialogProps } from './schedule-format';
import { fullName } from './schedule-format';

/** The names the selection touches, once each, and the dates it covers (spec section 2). */
export function deleteSummary(schedules: readonly Schedule[]) {
  const names = [...new Set(schedules.map(fullName))].sort((a, b) => a.localeCompare(b));
  const starts = schedules.map((schedule) => schedule.scheduleStart);
  return { names, from: Math.min(...starts), to: Math.max(...starts) };
}

/** Delete mode's dialog: lists the affected users and the covered range, then archives. */
export function DeleteSchedulesModal({ schedules, onClose, onDone }: SelectionDialogProps) {
  const { t } = useTranslation();
  const archive = useArchiveSchedules();
  const summary = deleteSummary(schedules);

  const remove = async () => {
    await archive.mutateAsync(schedules.map((schedule) => schedule.id));
    onDone();
  };

  return (
    <DeleteModal
      area="schedules"
      name={summary.names.join(', ')}
      remove={remove}
      failure={ARCHIVE_SCHEDULES_FAILURE}
      success={t('schedules.deleted', { count: schedules.length })}
      onClose={onClose}
    >
      <Stack gap="xs">
        <Text size="sm">{t('schedules.deleteIntro', { count: schedules.length })}</Text>
        <List size="sm" aria-label={t('schedules.users')}>
          {summary.names.map((name) => (
            <List.Item key={name}>
              <Truncate text={name} max={LIMITS.truncate.modalName} />
            </List.Item>
          ))}
        </List>
        <Text size="sm" fw={500}>
          {t('schedules.deleteRange', {
            from: formatEpoch(summary.from, DATE_FORMATS.scheduleDate),
            to: formatEpoch(summary.to, DATE_FORMATS.scheduleDate),
          })}
        </Text>
      </Stack>
    </DeleteModal>
  );
}
