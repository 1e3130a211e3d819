import { Accordion, Badge, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Role } from '@opsdeck/contract/roles';
import { IconCheck, IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useListParams } from '../../components/data-table/use-list-params';
import { ListPageHeader } from '../../components/list-page-header';
import { RowActions } from '../../components/row-actions';
import { RowDialogs, useRowDialogs } from '../../components/row-dialogs';
import { Truncate } from '../../components/truncate';
import { holds, isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { roleKeys, roleQueryOptions, rolesQueryOptions } from '../../resources/roles';
import { DELETE_ROLE_FAILURE, useDeleteRole } from './api';
import { RoleFormModal } from './role-form-modal';
import { filterRoles } from './role-search';

/** Spec section 2, Roles: an accordion of roles with their authorities, create, edit and delete. */
export function RolesPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const canEdit = holds(viewer, 'EDIT_ROLE');
  const canDelete = holds(viewer, 'DELETE_ROLE');
  const canCreate = holds(viewer, 'CREATE_ROLE');
  const roles = useQuery(rolesQueryOptions());
  const params = useListParams();
  const dialogs = useRowDialogs<Role>();
  const remove = useDeleteRole();
  const shown = useMemo(() => filterRoles(roles.data ?? [], params.search), [roles.data, params.search]);

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('roles.title')}
        searchPlaceholder={t('roles.searchPlaceholder')}
        list={params}
        csv={{
          path: '/usergroup/findAllActive',
          query: {},
          fallbackName: 'roles.csv',
          help: t('table.downloadCsvWholeHelp'),
        }}
        create={canCreate ? { label: t('roles.create'), withTooltip: false, onClick: dialogs.create } : undefined}
      />

      {roles.isPending ? (
        <Group justify="center" py="xl">
          <Loader size="sm" aria-label={t('table.loading')} />
        </Group>
      ) : shown.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t('table.empty')}
        </Text>
      ) : (
        <Accordion variant="separated" radius="md" multiple chevronPosition="left">
          {shown.map((role) => (
            <Accordion.Item key={role.id} value={String(role.id)} data-testid="role-item">
              <Group wrap="nowrap" gap="xs" pr="sm">
                {/* The control names only the role: the badges beside it are not part of its name
                    (an aria-label of the name alone over more visible text is a name mismatch). */}
                <Accordion.Control>
                  <Text fw={600}>
                    <Truncate text={role.name} max={LIMITS.truncate.tableContent} />
                  </Text>
                </Accordion.Control>
                {/* Wraps on a narrow screen rather than squeezing the badges to their first letter. */}
                <Group gap="sm" wrap="wrap" style={{ rowGap: 4, flexShrink: 1 }}>
                  {admin && (
                    <Badge variant="light" color={role.companyName ? 'blue' : 'grape'} tt="none">
                      <Truncate text={role.companyName ?? t('roles.provider')} max={LIMITS.truncate.companyName} />
                    </Badge>
                  )}
                  {role.isProtected && (
                    <Tooltip label={t('roles.protectedHint')}>
                      <Badge variant="outline" color="gray" leftSection={<IconLock size={12} />} tt="none">
                        {t('roles.protected')}
                      </Badge>
                    </Tooltip>
                  )}
                  <Text size="sm" c="dimmed" visibleFrom="sm">
                    {t('roles.authorityCount', { count: role.authorities.length })}
                  </Text>
                </Group>
                <RowActions
                  gap="xs"
                  editLabel={t('roles.edit', { name: role.name })}
                  onEdit={canEdit && role.editable ? () => dialogs.edit(role) : undefined}
                  deleteLabel={t('roles.delete', { name: role.name })}
                  onDelete={canDelete ? () => dialogs.remove(role) : undefined}
                  deleteBlockedReason={role.deletable ? undefined : t('roles.notDeletable')}
                  history={{ entityType: 'role', entityId: role.id, name: role.name }}
                />
              </Group>
              <Accordion.Panel>
                {role.authorities.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('roles.noAuthorities')}
                  </Text>
                ) : (
                  <SimpleGrid
                    cols={{ base: 1, sm: 2, lg: 3 }}
                    spacing="xs"
                    verticalSpacing={4}
                    component="ul"
                    aria-label={t('roles.authoritiesLabel')}
                    style={{ listStyle: 'none', padding: 0, margin: 0 }}
                  >
                    {role.authorities.map((authority) => (
                      <Group key={authority.key} component="li" gap={8} wrap="nowrap">
                        <ThemeIcon size={18} radius="xl" color="teal" variant="light" aria-hidden="true">
                          <IconCheck size={12} stroke={3} />
                        </ThemeIcon>
                        <Text size="sm">{authority.title}</Text>
                      </Group>
                    ))}
                  </SimpleGrid>
                )}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}

      <RowDialogs
        dialogs={dialogs}
        form={(role, onClose) => <RoleFormModal key={role?.id} opened role={role} onClose={onClose} />}
        load={roleQueryOptions}
        invalidate={roleKeys.all}
        remove={{
          area: 'roles',
          name: (role) => role.name,
          call: (role) => remove.mutateAsync({ id: role.id }),
          failure: DELETE_ROLE_FAILURE,
        }}
      />
    </Stack>
  );
}
