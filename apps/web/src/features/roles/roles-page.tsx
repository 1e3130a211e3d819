import {
  Accordion,
  Badge,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import type { Role } from '@opsdeck/contract/roles';
import { IconCheck, IconLock, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FloatingCreateButton } from '../../components/floating-create-button';
import { LoadForEdit } from '../../components/load-for-edit';
import { RowActions } from '../../components/row-actions';
import { Truncate } from '../../components/truncate';
import { holds, isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { roleKeys, roleQueryOptions, rolesQueryOptions } from './api';
import { DeleteRoleModal } from './delete-role-modal';
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
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const shown = useMemo(() => filterRoles(roles.data ?? [], search), [roles.data, search]);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" wrap="wrap" gap="md">
        <Title order={1} fz={26}>
          {t('roles.title')}
        </Title>
        <TextInput
          aria-label={t('search.text')}
          placeholder={t('roles.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 340 }}
        />
      </Group>

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
                <Accordion.Control aria-label={role.name}>
                  <Group gap="sm" wrap="nowrap">
                    <Text fw={600}>
                      <Truncate text={role.name} max={LIMITS.truncate.tableContent} />
                    </Text>
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
                </Accordion.Control>
                <RowActions
                  gap="xs"
                  editLabel={t('roles.edit', { name: role.name })}
                  onEdit={canEdit && !role.isProtected ? () => setEditingId(role.id) : undefined}
                  deleteLabel={t('roles.delete', { name: role.name })}
                  onDelete={canDelete ? () => setDeleting(role) : undefined}
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

      {canCreate && (
        <FloatingCreateButton label={t('roles.create')} withTooltip={false} onClick={() => setCreating(true)} />
      )}

      {creating && <RoleFormModal opened onClose={() => setCreating(false)} />}
      {editingId !== null && (
        <LoadForEdit
          query={roleQueryOptions(editingId)}
          invalidate={roleKeys.list()}
          onClose={() => setEditingId(null)}
        >
          {(role) => <RoleFormModal key={role.id} opened onClose={() => setEditingId(null)} role={role} />}
        </LoadForEdit>
      )}
      <DeleteRoleModal role={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
