import { Button, Checkbox, Group, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { type AuthorityGroup, groupAuthorities } from '@opsdeck/contract/authority-groups';
import type { AuthorityItem } from '@opsdeck/contract/roles';
import { IconSearch } from '@tabler/icons-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterAuthorityGroups, groupCheckState, toggleGroup } from './authority-checklist-model';

interface AuthorityChecklistProps {
  /** What the editor may grant, in any order: the checklist groups them by area. */
  authorities: readonly AuthorityItem[];
  /** The checked keys. */
  value: readonly string[];
  onChange: (keys: string[]) => void;
}

/**
 * The role's authorities (spec section 2: 'Authorize role with the following', Select All,
 * Unselect All), grouped by area with a filter and a tri-state checkbox per area. Select All and
 * Unselect All act on every authority; an area's checkbox on the ones the filter shows.
 */
export function AuthorityChecklist({ authorities, value, onChange }: AuthorityChecklistProps) {
  const { t } = useTranslation();
  const ids = useId();
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => groupAuthorities(authorities), [authorities]);
  const groupName = (group: AuthorityGroup) => t(`roles.groups.${group}`);
  const shown = filterAuthorityGroups(groups, filter, groupName);
  const allKeys = authorities.map((authority) => authority.key);
  const toggle = (key: string) =>
    onChange(value.includes(key) ? value.filter((other) => other !== key) : [...value, key]);

  return (
    <Stack gap={6}>
      <Group justify="space-between" align="flex-end" wrap="nowrap">
        <Text fw={500} size="sm" id={`${ids}-label`}>
          {t('roles.authorize')}
        </Text>
        <Group gap={6} wrap="nowrap">
          <Button size="compact-xs" variant="light" onClick={() => onChange(allKeys)}>
            {t('roles.selectAll')}
          </Button>
          <Button size="compact-xs" variant="default" onClick={() => onChange([])}>
            {t('roles.unselectAll')}
          </Button>
        </Group>
      </Group>
      <Text size="xs" c="dimmed" aria-live="polite">
        {t('roles.selectedCount', {
          count: value.filter((key) => allKeys.includes(key)).length,
          total: allKeys.length,
        })}
      </Text>
      <TextInput
        size="xs"
        aria-label={t('roles.filterLabel')}
        placeholder={t('roles.filterPlaceholder')}
        leftSection={<IconSearch size={14} aria-hidden="true" />}
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
      />
      <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
        <Stack gap="sm" py={4} role="group" aria-labelledby={`${ids}-label`}>
          {shown.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('roles.filterEmpty', { text: filter.trim() })}
            </Text>
          )}
          {shown.map(({ group, items }) => {
            const keys = items.map((item) => item.key);
            const state = groupCheckState(keys, value);
            const count = keys.filter((key) => value.includes(key)).length;
            return (
              <Stack key={group} gap={4} role="group" aria-labelledby={`${ids}-${group}`}>
                <Group gap="xs" wrap="nowrap">
                  <Checkbox
                    size="sm"
                    fw={600}
                    checked={state === 'all'}
                    indeterminate={state === 'some'}
                    onChange={() => onChange(toggleGroup(keys, value))}
                    label={<span id={`${ids}-${group}`}>{groupName(group)}</span>}
                  />
                  <Text size="xs" c="dimmed">
                    {t('roles.groupCount', { count, total: keys.length })}
                  </Text>
                </Group>
                <Stack gap={4} pl="lg">
                  {items.map((authority) => (
                    <Checkbox
                      key={authority.key}
                      size="sm"
                      label={authority.title}
                      checked={value.includes(authority.key)}
                      onChange={() => toggle(authority.key)}
                    />
                  ))}
                </Stack>
              </Stack>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
