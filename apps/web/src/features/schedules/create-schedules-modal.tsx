import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Group, List, MultiSelect, SimpleGrid, Text } from '@mantine/core';
import { DateInput, TimeInput } from '@mantine/dates';
import { LIMITS } from '@opsdeck/contract/limits';
import { defaultShift, expandSchedules, type Schedule, ScheduleForm, WEEKDAYS } from '@opsdeck/contract/schedules';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { KeyboardEvent } from 'react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanyField } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { isApiError } from '../../lib/api-client';
import { isAdmin } from '../../lib/authorities';
import { DATE_FORMATS } from '../../lib/dates';
import { errorText } from '../../lib/i18n';
import { useViewer } from '../../lib/profile-context';
import { truncateText } from '../../lib/truncate';
import { schedulesQueryOptions } from '../../resources/schedules';
import { useCreateSchedules } from './api';
import { useSchedulableUsers } from './schedulable-users';
import { type ScheduleFormInput, scheduleFormDefaults, scheduleFormSchema } from './schedule-form';
import { fullName, scheduleDate, scheduleShift } from './schedule-format';
import { findOverlaps } from './schedule-overlaps';

/** Typed dates in ISO form or as shown ('MMM DD YYYY'). */
const parseDate = (value: string) => {
  const parsed = dayjs(value.trim());
  return parsed.isValid() ? parsed.format('YYYY-MM-DD') : null;
};

/** Enter in a date field takes the typed date; it must not submit the form half filled in. */
const enterDoesNotSubmit = (event: KeyboardEvent) => {
  if (event.key === 'Enter') event.preventDefault();
};

/**
 * Spec sections 2, 4 and 5: users, a date range, weekdays and shift times, expanded here into one
 * record per user per matching day and sent in one call. A refused overlap names the schedules it
 * would double-book, and everything typed stays.
 */
export function CreateSchedulesModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const admin = isAdmin(useViewer());
  const queryClient = useQueryClient();
  const create = useCreateSchedules();
  const [overlaps, setOverlaps] = useState<Schedule[]>([]);
  const form = useForm<ScheduleFormInput>({
    resolver: zodResolver(scheduleFormSchema(admin)) as never,
    mode: 'onTouched',
    defaultValues: scheduleFormDefaults(),
  });
  const tenantId = form.watch('tenantId');
  const users = useSchedulableUsers(admin ? (tenantId ?? undefined) : undefined, opened && (!admin || !!tenantId));
  const values = form.watch();
  const preview = ScheduleForm.safeParse(values);
  const count = preview.success ? expandSchedules(preview.data).length : 0;
  const error = (name: keyof ScheduleFormInput) => errorText(form.formState.errors[name]?.message);

  const submit = async (input: ScheduleFormInput) => {
    setOverlaps([]);
    const records = expandSchedules(ScheduleForm.parse(input));
    try {
      await create.mutateAsync({ records, ...(admin && input.tenantId ? { tenantId: input.tenantId } : {}) });
    } catch (failure) {
      if (isApiError(failure) && failure.key === 'ERROR_SCHEDULE_OVERLAP') {
        const from = Math.min(...records.map((record) => record.scheduleStart));
        const to = Math.max(...records.map((record) => record.scheduleEnd));
        const stored = await queryClient
          .fetchQuery(schedulesQueryOptions({ from, to, userName: '' }))
          .catch(() => [] as Schedule[]);
        setOverlaps(findOverlaps(records, stored));
      }
      throw failure;
    }
  };

  const fillDefaultShift = () => {
    const shift = defaultShift(Date.now());
    form.setValue('shiftStart', shift.shiftStart, { shouldValidate: true, shouldTouch: true });
    form.setValue('shiftEnd', shift.shiftEnd, { shouldValidate: true, shouldTouch: true });
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t('schedules.createTitle')}
      form={form}
      onSubmit={submit}
      success={(input) => t('schedules.created', { count: expandSchedules(ScheduleForm.parse(input)).length })}
      submitLabel={t('schedules.createSubmit')}
      errorPlacement={{ keys: { ERROR_COMPANY_REQUIRED: 'tenantId', ERROR_SCHEDULE_USER_INVALID: 'userIds' } }}
    >
      <CompanyField form={form} name="tenantId" resets={{ userIds: [] }} />
      <Controller
        control={form.control}
        name="userIds"
        render={({ field }) => (
          <MultiSelect
            label={t('schedules.users')}
            placeholder={t('schedules.usersPlaceholder')}
            required
            searchable
            clearable
            disabled={admin && !tenantId}
            data={users.users.map((user) => ({
              value: String(user.id),
              label: truncateText(user.completeName, LIMITS.truncate.dropdownName),
            }))}
            value={field.value.map(String)}
            onChange={(ids) => field.onChange(ids.map(Number))}
            onBlur={field.onBlur}
            error={error('userIds')}
            nothingFoundMessage={t('table.empty')}
          />
        )}
      />
      <SimpleGrid cols={2}>
        {(['startDate', 'endDate'] as const).map((name) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <DateInput
                label={t(`schedules.${name}`)}
                required
                valueFormat={DATE_FORMATS.scheduleDate}
                dateParser={parseDate}
                value={field.value || null}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  if (form.getFieldState('endDate').isTouched) void form.trigger('endDate');
                }}
                onBlur={field.onBlur}
                onKeyDown={enterDoesNotSubmit}
                error={error(name)}
                clearable
              />
            )}
          />
        ))}
      </SimpleGrid>
      <Controller
        control={form.control}
        name="weekdays"
        render={({ field }) => (
          <Checkbox.Group
            label={t('schedules.weekdays')}
            required
            value={field.value.map(String)}
            onChange={(days) => {
              field.onChange(days.map(Number));
              field.onBlur();
            }}
            error={error('weekdays')}
          >
            <Group gap="sm" mt={6}>
              {WEEKDAYS.map((day) => (
                <Checkbox key={day} value={String(day)} label={t(`schedules.weekdayNames.${day}`)} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
      />
      <SimpleGrid cols={2}>
        <TimeInput
          label={t('schedules.shiftStart')}
          required
          error={error('shiftStart')}
          {...form.register('shiftStart')}
        />
        <TimeInput label={t('schedules.shiftEnd')} required error={error('shiftEnd')} {...form.register('shiftEnd')} />
      </SimpleGrid>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {values.shiftEnd && values.shiftStart && values.shiftEnd < values.shiftStart
            ? `${t('schedules.overnightHint')} `
            : ''}
          {count > 0 ? t('schedules.recordCount', { count }) : ''}
        </Text>
        <Button variant="subtle" size="compact-sm" onClick={fillDefaultShift}>
          {t('schedules.defaultShift')}
        </Button>
      </Group>
      {overlaps.length > 0 && (
        <Alert color="red" variant="light" title={t('schedules.overlapTitle')}>
          <List size="sm" aria-label={t('schedules.overlapTitle')}>
            {overlaps.map((schedule) => (
              <List.Item key={schedule.id}>
                {t('schedules.overlapItem', {
                  name: truncateText(fullName(schedule), LIMITS.truncate.modalName),
                  date: scheduleDate(schedule),
                  shift: scheduleShift(schedule),
                })}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </FormModal>
  );
}
