import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, Group, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import type { AuthorityItem, Role } from '@opsdeck/contract/roles';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanyField } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { isAdmin } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { notifyDone } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { authoritiesQueryOptions, useCreateRole, useUpdateRole } from './api';
import { authoritiesToSave, type RoleFormValues, roleFormSchema } from './role-form';

interface RoleFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The role to edit (loaded fresh); none to create one. */
  role?: Role;
}

/** Create and edit dialogs of a role (spec section 2): name, company (admins) and the checklist. */
export function RoleFormModal({ opened, onClose, role }: RoleFormModalProps) {
  const { t } = useTranslation();
  const admin = isAdmin(useViewer());
  const editing = role !== undefined;
  const authorities = useQuery(authoritiesQueryOptions());
  const grantable: AuthorityItem[] = authorities.data ?? [];
  const createRole = useCreateRole();
  const updateRole = useUpdateRole();

  const form = useForm<RoleFormValues>({
    resolver: zodResolver(roleFormSchema(admin && !editing)),
    mode: 'onTouched',
    defaultValues: {
      name: role?.name ?? '',
      company: role?.tenantId ?? null,
      authorityNames: role?.authorities.map((authority) => authority.key) ?? [],
    },
  });
  const grantableKeys = grantable.map((authority) => authority.key);
  const kept = (role?.authorities ?? []).filter((authority) => !grantableKeys.includes(authority.key));
  const checked = form.watch('authorityNames');

  const submit = async (values: RoleFormValues) => {
    const name = values.name.trim();
    if (role) {
      const newAuthorityName = authoritiesToSave(
        values.authorityNames,
        role.authorities.map((authority) => authority.key),
        grantableKeys,
      );
      await updateRole.mutateAsync({ id: role.id, body: { name, newAuthorityName } });
      notifyDone('updated', name);
    } else {
      const authorityNames = authoritiesToSave(values.authorityNames, [], grantableKeys);
      await createRole.mutateAsync({ body: { name, authorityNames }, tenantId: values.company ?? undefined });
      notifyDone('added', name);
    }
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t(editing ? 'roles.editTitle' : 'roles.createTitle')}
      form={form}
      onSubmit={submit}
    >
      <TextInput
        label={t('roles.name')}
        placeholder={t('roles.namePlaceholder')}
        required
        data-autofocus
        error={errorText(form.formState.errors.name?.message)}
        {...form.register('name')}
      />
      {admin && <CompanyField control={form.control} name="company" disabled={editing} />}
      <Stack gap={6}>
        <Group justify="space-between" align="flex-end" wrap="nowrap">
          <Text fw={500} size="sm" id="role-authorities-label">
            {t('roles.authorize')}
          </Text>
          <Group gap={6} wrap="nowrap">
            <Button
              size="compact-xs"
              variant="light"
              onClick={() => form.setValue('authorityNames', grantableKeys, { shouldDirty: true })}
            >
              {t('roles.selectAll')}
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              onClick={() => form.setValue('authorityNames', [], { shouldDirty: true })}
            >
              {t('roles.unselectAll')}
            </Button>
          </Group>
        </Group>
        <Text size="xs" c="dimmed" aria-live="polite">
          {t('roles.selectedCount', {
            count: checked.filter((key) => grantableKeys.includes(key)).length,
            total: grantable.length,
          })}
        </Text>
        <Controller
          control={form.control}
          name="authorityNames"
          render={({ field }) => (
            <ScrollArea.Autosize mah={300} type="auto" offsetScrollbars>
              <Checkbox.Group value={field.value} onChange={field.onChange} aria-labelledby="role-authorities-label">
                <Stack gap={6} py={4}>
                  {grantable.map((authority) => (
                    <Checkbox key={authority.key} value={authority.key} label={authority.title} size="sm" />
                  ))}
                </Stack>
              </Checkbox.Group>
            </ScrollArea.Autosize>
          )}
        />
        {kept.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('roles.keptAuthorities', { names: kept.map((authority) => authority.title).join(', ') })}
          </Text>
        )}
      </Stack>
    </FormModal>
  );
}
