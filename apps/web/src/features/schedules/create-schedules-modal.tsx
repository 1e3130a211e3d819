import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Group, MultiSelect, SimpleGrid, Text } from '@mantine/core';
import { DateInput, TimeInput } from '@mantine/dates';
import { LIMITS } from '@opsdeck/contract/limits';
import { expandSchedules, ScheduleForm, WEEKDAYS } from '@opsdeck/contract/schedules';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanyField } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { isAdmin } from '../../lib/authorities';
import { DATE_FORMATS } from '../../lib/dates';
import { errorText } from '../../lib/i18n';
import { notifySuccess } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { truncateText } from '../../lib/truncate';
import { scheduleUsersQueryOptions, useCreateSchedules } from './api';
import { type ScheduleFormInput, scheduleFormDefaults, scheduleFormSchema } from './schedule-form';

/** Typed dates in ISO form or as shown ('MMM DD YYYY'). */
const parseDate = (value: string) => {
  const parsed = dayjs(value.trim());
  return parsed.isValid() ? parsed.format('YYYY-MM-DD') : null;
};

/**
 * Spec sections 2, 4 and 5: users, a date range, weekdays and shift times, expanded here into one
 * record per user per matching day and sent in one call.
 */
export function CreateSchedulesModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const admin = isAdmin(useViewer());
  const create = useCreateSchedules();
  const form = useForm<ScheduleFormInput>({
    resolver: zodResolver(scheduleFormSchema(admin)) as never,
    mode: 'onTouched',
    defaultValues: scheduleFormDefaults(Date.now()),
  });
  const tenantId = form.watch('tenantId');
  const users = useQuery(scheduleUsersQueryOptions(tenantId, admin));
  const values = form.watch();
  const preview = ScheduleForm.safeParse(values);
  const count = preview.success ? expandSchedules(preview.data).length : 0;
  const error = (name: keyof ScheduleFormInput) => errorText(form.formState.errors[name]?.message);

  const submit = async (input: ScheduleFormInput) => {
    const records = expandSchedules(ScheduleForm.parse(input));
    await create.mutateAsync({ records, ...(admin && input.tenantId ? { tenantId: input.tenantId } : {}) });
    notifySuccess(t('schedules.created', { count: records.length }));
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t('schedules.createTitle')}
      form={form}
      onSubmit={submit}
      submitLabel={t('schedules.createSubmit')}
      errorPlacement={{ keys: { ERROR_COMPANY_REQUIRED: 'tenantId', ERROR_SCHEDULE_USER_INVALID: 'userIds' } }}
    >
      {admin && <CompanyField control={form.control} name="tenantId" onChange={() => form.setValue('userIds', [])} />}
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
            data={(users.data ?? []).map((user) => ({
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
      <Text size="sm" c="dimmed">
        {values.shiftEnd && values.shiftStart && values.shiftEnd < values.shiftStart
          ? `${t('schedules.overnightHint')} `
          : ''}
        {count > 0 ? t('schedules.recordCount', { count }) : ''}
      </Text>
    </FormModal>
  );
}
