import { zodResolver } from '@hookform/resolvers/zod';
import { Text } from '@mantine/core';
import type { AuthorityItem, Role } from '@opsdeck/contract/roles';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanyField } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { TextField } from '../../components/form-parts';
import { isAdmin } from '../../lib/authorities';
import { doneText } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { authoritiesQueryOptions } from '../../resources/roles';
import { useCreateRole, useUpdateRole } from './api';
import { AuthorityChecklist } from './authority-checklist';
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

  const submit = async (values: RoleFormValues) => {
    const name = values.name.trim();
    if (role) {
      const newAuthorityName = authoritiesToSave(
        values.authorityNames,
        role.authorities.map((authority) => authority.key),
        grantableKeys,
      );
      await updateRole.mutateAsync({ id: role.id, body: { name, newAuthorityName } });
    } else {
      const authorityNames = authoritiesToSave(values.authorityNames, [], grantableKeys);
      await createRole.mutateAsync({ body: { name, authorityNames }, tenant: values.company ?? undefined });
    }
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t(editing ? 'roles.editTitle' : 'roles.createTitle')}
      form={form}
      onSubmit={submit}
      success={(values) => doneText(editing ? 'updated' : 'added', values.name.trim())}
      errorPlacement={{ keys: { ERROR_COMPANY_REQUIRED: 'company', ERROR_ROLE_NAME_DUPLICATE: 'name' } }}
    >
      <TextField
        form={form}
        name="name"
        label={t('roles.name')}
        placeholder={t('roles.namePlaceholder')}
        required
        data-autofocus
      />
      <CompanyField form={form} name="company" disabled={editing} />
      <Controller
        control={form.control}
        name="authorityNames"
        render={({ field }) => (
          <AuthorityChecklist authorities={grantable} value={field.value} onChange={field.onChange} />
        )}
      />
      {kept.length > 0 && (
        <Text size="xs" c="dimmed">
          {t('roles.keptAuthorities', { names: kept.map((authority) => authority.title).join(', ') })}
        </Text>
      )}
    </FormModal>
  );
}
