import { zodResolver } from '@hookform/resolvers/zod';
import { useDebouncedValue } from '@mantine/hooks';
import type { Company } from '@opsdeck/contract/companies';
import { EMAIL_PATTERN, LIMITS } from '@opsdeck/contract/limits';
import { requiresDepartment, type User } from '@opsdeck/contract/users';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CompanyField, useCompanyScope } from '../../components/company-select';
import { FormModal, useModalForm } from '../../components/form-modal';
import { nameOptions, PasswordField, SelectField, TextField } from '../../components/form-parts';
import { isAdmin } from '../../lib/authorities';
import { doneText } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { useTenantId } from '../../lib/session';
import { truncateText } from '../../lib/truncate';
import { departmentsQueryOptions } from '../../resources/departments';
import { rolesQueryOptions } from '../../resources/roles';
import { emailTakenQueryOptions } from '../../resources/users';
import { USER_CHANGE_FAILURE, useRegisterUser, useUpdateUser } from './api';
import {
  emptyUserForm,
  roleIsAdmin,
  toRegisterUser,
  toUpdateUser,
  type UserFormOutput,
  type UserFormValues,
  userFormSchema,
  userToForm,
} from './user-form-schema';

interface UserFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The user to edit (loaded fresh); none to create one. */
  user?: User;
}

/** Whether an address is already used, asked as the user types (debounced); the server checks again. */
function useEmailTaken(email: string, enabled: boolean) {
  const [debounced] = useDebouncedValue(email.trim(), 400);
  const valid = enabled && debounced.length > 0 && debounced.length <= LIMITS.nameMax && EMAIL_PATTERN.test(debounced);
  const result = useQuery({ ...emailTakenQueryOptions(debounced), enabled: valid });
  return valid && result.data === true;
}

/**
 * Create and edit (spec sections 2, 4, 5). An admin picks the company; changing it resets the
 * department and role and reloads both for that company. On edit the e-mail and the company are
 * read-only and the password is not shown.
 */
export function UserFormModal({ opened, onClose, user }: UserFormModalProps) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const admin = isAdmin(viewer);
  const storedTenant = useTenantId();
  const editing = user !== undefined;
  const [company, setCompany] = useState<Company | null>(null);

  const initial = useMemo(
    () => (user ? userToForm(user) : emptyUserForm(admin ? storedTenant : null)),
    [user, admin, storedTenant],
  );
  const rolesRef = useRef<Parameters<typeof userFormSchema>[0]['roles']>([]);
  const resolver = useMemo(
    () =>
      // The department rule reads the roles of the chosen company, loaded below.
      ((values, context, options) =>
        zodResolver(userFormSchema({ admin, editing, roles: rolesRef.current }))(
          values,
          context,
          options,
        )) as ReturnType<typeof zodResolver<UserFormValues, unknown, UserFormOutput>>,
    [admin, editing],
  );
  const form = useModalForm<UserFormValues, UserFormOutput>({ opened, initial, resolver });
  // Admins read the chosen (or the edited user's) company's lists; anyone else their own.
  const { tenant, ready } = useCompanyScope(form.watch('company'), opened);
  const departments = useQuery({ ...departmentsQueryOptions(tenant), enabled: ready });
  const roles = useQuery({ ...rolesQueryOptions(tenant), enabled: ready });
  rolesRef.current = roles.data ?? [];
  const chosenRole = rolesRef.current.find((role) => String(role.id) === form.watch('roleId'));
  const departmentRequired = chosenRole !== undefined && requiresDepartment([chosenRole]);

  const emailTaken = useEmailTaken(form.watch('emailAddress'), opened && !editing);

  const register = useRegisterUser();
  const update = useUpdateUser();

  const submit = async (values: UserFormOutput) => {
    if (user) await update.mutateAsync({ id: user.id, body: toUpdateUser(values) });
    else await register.mutateAsync(toRegisterUser(values, admin ? (company?.id ?? null) : null));
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={
        editing
          ? t('users.editTitle', { name: truncateText(user.completeName, LIMITS.truncate.modalName) })
          : t('users.createTitle')
      }
      form={form}
      onSubmit={submit}
      success={(values) => doneText(editing ? 'updated' : 'added', `${values.firstName} ${values.lastName}`)}
      // Spec section 8, User: a failed update shows the server's message in a toast and closes.
      failure={editing ? USER_CHANGE_FAILURE : undefined}
      itemName={user?.completeName}
      errorPlacement={{
        fields: {
          groups: 'roleId',
          department: 'departmentId',
          companyId: 'company',
          'credential.newPassword': 'credential.newPassword',
          'credential.confirmPassword': 'credential.confirmPassword',
        },
        keys: {
          ERROR_USER_EMAIL_ALREADY_USED: 'emailAddress',
          ERROR_USER_ROLE_NOT_ALLOWED: 'roleId',
          ERROR_ROLE_NOT_EXIST: 'roleId',
          ERROR_DEPARTMENT_NOT_EXIST: 'departmentId',
          ERROR_COMPANY_REQUIRED: 'company',
        },
      }}
    >
      <CompanyField
        form={form}
        name="company"
        disabled={editing}
        resets={{ departmentId: null, roleId: null }}
        onChange={setCompany}
      />
      <TextField form={form} name="firstName" label={t('users.firstName')} required />
      <TextField form={form} name="lastName" label={t('users.lastName')} required />
      <TextField
        form={form}
        name="emailAddress"
        label={t('users.email')}
        required={!editing}
        readOnly={editing}
        disabled={editing}
        type="email"
        autoComplete="off"
        otherError={emailTaken ? 'ERROR_USER_EMAIL_ALREADY_USED' : undefined}
      />
      {!editing && (
        <>
          <PasswordField
            form={form}
            name="credential.newPassword"
            label={t('users.password')}
            required
            autoComplete="new-password"
            strength={{
              admin: roleIsAdmin(chosenRole),
              person: {
                firstName: form.watch('firstName'),
                lastName: form.watch('lastName'),
                emailAddress: form.watch('emailAddress'),
              },
            }}
            rules={{
              onChange: () => {
                if (form.getFieldState('credential.confirmPassword').isTouched) {
                  void form.trigger('credential.confirmPassword');
                }
              },
            }}
          />
          <PasswordField
            form={form}
            name="credential.confirmPassword"
            label={t('users.confirmPassword')}
            required
            autoComplete="new-password"
          />
        </>
      )}
      <SelectField
        control={form.control}
        name="roleId"
        label={t('users.role')}
        placeholder={t('users.rolePlaceholder')}
        required
        disabled={!ready}
        data={nameOptions(roles.data ?? [])}
        onChange={() => {
          if (form.formState.submitCount > 0 || form.getFieldState('departmentId').isTouched) {
            void form.trigger('departmentId');
          }
          // An admin role asks a longer password (docs/security.md).
          if (!editing && form.getFieldState('credential.newPassword').isTouched) {
            void form.trigger('credential.newPassword');
          }
        }}
      />
      <SelectField
        control={form.control}
        name="departmentId"
        label={t('users.department')}
        placeholder={t('users.departmentPlaceholder')}
        // Marked required once the chosen role holds DEPARTMENT_ACCESS_LEVEL (spec section 5).
        required={departmentRequired}
        clearable
        disabled={!ready}
        data={nameOptions(departments.data ?? [])}
      />
    </FormModal>
  );
}
