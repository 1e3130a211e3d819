import { zodResolver } from '@hookform/resolvers/zod';
import { SimpleGrid, Text } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { moveShift, ScheduleShiftForm, type ScheduleShiftFormValues } from '@opsdeck/contract/schedules';
import dayjs from 'dayjs';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/form-modal';
import { errorText } from '../../lib/i18n';
import { useUpdateSchedules } from './api';
import type { SelectionDialogProps } from './schedule-format';

/** Update mode's dialog: new shift times for every selected schedule, each on its own date. */
export function UpdateSchedulesModal({ schedules, onClose, onDone }: SelectionDialogProps) {
  const { t } = useTranslation();
  const update = useUpdateSchedules();
  const first = schedules[0];
  const form = useForm<ScheduleShiftFormValues>({
    resolver: zodResolver(ScheduleShiftForm),
    mode: 'onTouched',
    defaultValues: {
      shiftStart: first ? dayjs(first.scheduleStart).format('HH:mm') : '',
      shiftEnd: first ? dayjs(first.scheduleEnd).format('HH:mm') : '',
    },
  });

  const submit = async (values: ScheduleShiftFormValues) => {
    await update.mutateAsync(
      schedules.map((schedule) => ({ id: schedule.id, ...moveShift(schedule, values.shiftStart, values.shiftEnd) })),
    );
    onDone();
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title={t('schedules.updateTitle')}
      form={form}
      onSubmit={submit}
      success={() => t('schedules.updated', { count: schedules.length })}
      submitLabel={t('schedules.updateSubmit')}
    >
      <Text size="sm">{t('schedules.updateIntro', { count: schedules.length })}</Text>
      <SimpleGrid cols={2}>
        <TimeInput
          label={t('schedules.shiftStart')}
          required
          data-autofocus
          error={errorText(form.formState.errors.shiftStart?.message)}
          {...form.register('shiftStart')}
        />
        <TimeInput
          label={t('schedules.shiftEnd')}
          required
          error={errorText(form.formState.errors.shiftEnd?.message)}
          {...form.register('shiftEnd')}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('schedules.overnightHint')}
      </Text>
    </FormModal>
  );
}
