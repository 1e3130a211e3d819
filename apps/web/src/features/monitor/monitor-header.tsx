import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconFilter } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATE_FORMATS } from '../../lib/dates';
import { type FilterDimension, useFilterOptions } from './filter-options';
import type { MonitorFilters } from './monitor-filters';

const day = (value: string) => dayjs(value).format(DATE_FORMATS.date);

/**
 * The page's title, the active filters (spec section 2: name, department, role and date) and the
 * buttons of the two modals.
 */
export function MonitorHeader({
  filters,
  onOpenFilters,
  onOpenSettings,
  settingsDisabled,
}: {
  filters: MonitorFilters;
  onOpenFilters: () => void;
  onOpenSettings: () => void;
  settingsDisabled: boolean;
}) {
  const { t } = useTranslation();
  const { options } = useFilterOptions({
    user: filters.user !== null,
    department: filters.department !== null,
    role: filters.role !== null,
  });
  const nameOf = (dimension: FilterDimension, all: string) => {
    const id = filters[dimension];
    if (id === null) return t(all);
    return (
      options[dimension].find((option) => option.value === String(id))?.label ?? t('monitor.filters.unknown', { id })
    );
  };
  const active = [
    { label: t('monitor.filters.person'), value: nameOf('user', 'monitor.filters.allPeople') },
    { label: t('monitor.filters.department'), value: nameOf('department', 'monitor.filters.allDepartments') },
    { label: t('monitor.filters.role'), value: nameOf('role', 'monitor.filters.allRoles') },
    {
      label: t('monitor.filters.dates'),
      value:
        filters.dateFrom === filters.dateTo
          ? day(filters.dateFrom)
          : t('monitor.filters.range', { from: day(filters.dateFrom), to: day(filters.dateTo) }),
    },
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
        <Title order={1} fz={26}>
          {t('monitor.title')}
        </Title>
        <Group gap="sm">
          <Button variant="default" leftSection={<IconFilter size={16} aria-hidden />} onClick={onOpenFilters}>
            {t('monitor.filters.open')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
            onClick={onOpenSettings}
            disabled={settingsDisabled}
          >
            {t('monitor.settings.open')}
          </Button>
        </Group>
      </Group>
      <Group
        component="ul"
        gap="xs"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label={t('monitor.filters.activeLabel')}
      >
        {active.map((item) => (
          <li key={item.label}>
            <Badge variant="light" color="gray" size="lg" tt="none" fw={500}>
              {item.label}: {item.value}
            </Badge>
          </li>
        ))}
      </Group>
    </Stack>
  );
}
