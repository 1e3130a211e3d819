import { Button, Group, Modal, Select, SimpleGrid, Stack } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FORMATS, parseTypedDay } from '../../lib/dates';
import { type FilterDimension, useFilterOptions } from './filter-options';
import { isDay, type MonitorFilters, todayFilters } from './monitor-filters';

const ALL_LABEL: Record<FilterDimension, string> = {
  user: 'monitor.filters.allPeople',
  department: 'monitor.filters.allDepartments',
  role: 'monitor.filters.allRoles',
};
const FIELD_LABEL: Record<FilterDimension, string> = {
  user: 'monitor.filters.person',
  department: 'monitor.filters.department',
  role: 'monitor.filters.role',
};

const parseDate = (value: string) => parseTypedDay(value) ?? null;

/**
 * The filter modal (spec section 2): person, department and role, each with an "All …" first
 * option that means no filter, and the first and last day. Applied as a whole to the URL.
 */
export function FilterModal({
  opened,
  onClose,
  filters,
  onApply,
}: {
  opened: boolean;
  onClose: () => void;
  filters: MonitorFilters;
  onApply: (next: MonitorFilters) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(filters);
  useEffect(() => {
    if (opened) setDraft(filters);
  }, [opened, filters]);
  const { allowed, options } = useFilterOptions({ user: opened, department: opened, role: opened });

  const datesValid = isDay(draft.dateFrom) && isDay(draft.dateTo);
  const rangeError = datesValid && draft.dateFrom > draft.dateTo ? t('monitor.filters.rangeInvalid') : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!datesValid || rangeError) return;
    onApply(draft);
    onClose();
  };

  const select = (dimension: FilterDimension) => {
    const value = draft[dimension];
    const known = options[dimension];
    // A chosen id the list does not hold (yet) still shows as chosen.
    const data = [
      { value: '', label: t(ALL_LABEL[dimension]) },
      ...known,
      ...(value !== null && !known.some((option) => option.value === String(value))
        ? [{ value: String(value), label: t('monitor.filters.unknown', { id: value }) }]
        : []),
    ];
    return (
      <Select
        label={t(FIELD_LABEL[dimension])}
        data={data}
        value={value === null ? '' : String(value)}
        onChange={(next) => setDraft((current) => ({ ...current, [dimension]: next ? Number(next) : null }))}
        searchable
        allowDeselect={false}
        disabled={!allowed[dimension]}
        description={allowed[dimension] ? undefined : t('monitor.filters.noList')}
        comboboxProps={{ withinPortal: true }}
      />
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('monitor.filters.title')}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t('modal.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {select('user')}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            {select('department')}
            {select('role')}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <DateInput
              label={t('monitor.filters.dateFrom')}
              required
              valueFormat={DATE_FORMATS.date}
              dateParser={parseDate}
              value={draft.dateFrom || null}
              onChange={(value) => setDraft((current) => ({ ...current, dateFrom: value ?? '' }))}
              error={isDay(draft.dateFrom) ? undefined : t('monitor.filters.dateRequired')}
            />
            <DateInput
              label={t('monitor.filters.dateTo')}
              required
              valueFormat={DATE_FORMATS.date}
              dateParser={parseDate}
              value={draft.dateTo || null}
              onChange={(value) => setDraft((current) => ({ ...current, dateTo: value ?? '' }))}
              error={isDay(draft.dateTo) ? rangeError : t('monitor.filters.dateRequired')}
            />
          </SimpleGrid>
          <Group justify="space-between">
            <Button
              variant="subtle"
              onClick={() => setDraft({ user: null, department: null, role: null, ...todayFilters() })}
            >
              {t('monitor.filters.reset')}
            </Button>
            <Group gap="sm">
              <Button variant="default" onClick={onClose}>
                {t('monitor.filters.cancel')}
              </Button>
              <Button type="submit" disabled={!datesValid || rangeError !== undefined}>
                {t('monitor.filters.apply')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
