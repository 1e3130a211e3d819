import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, ColorInput, FileInput, Group, Image, NumberInput, Text } from '@mantine/core';
import { STATUS_LIMITS, type Status } from '@opsdeck/contract/statuses';
import { IconPhoto } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanyField } from '../../components/company-select';
import { FormModal } from '../../components/form-modal';
import { nameOptions, SelectField, TextField, withCurrent } from '../../components/form-parts';
import { useRecordForm } from '../../components/record-form';
import { isAdmin } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { useViewer } from '../../lib/profile-context';
import { accessibleDepartmentsQueryOptions } from '../../resources/departments';
import { UPDATE_STATUS_FAILURE, useCreateStatus, useUpdateStatus } from './api';
import { emptyStatusForm, readIconFile, statusFormSchema, statusToForm, toSaveStatus } from './status-form-schema';

interface StatusFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The status to edit (loaded fresh); none to create one. */
  status?: Status;
}

/**
 * Create and update dialogs (spec sections 2, 5, 8): name, department, threshold, colour, a png
 * icon read into a data URL and checked here as the server will, and track idle.
 */
export function StatusFormModal({ opened, onClose, status }: StatusFormModalProps) {
  const { t } = useTranslation();
  const admin = isAdmin(useViewer());
  const editing = status !== undefined;
  const schema = useMemo(() => statusFormSchema({ creating: !editing, needsCompany: admin }), [editing, admin]);
  const [iconFile, setIconFile] = useState<File | null>(null);
  const { form, tenant, ready, modal } = useRecordForm({
    area: 'statuses',
    record: status,
    opened,
    resolver: zodResolver(schema),
    toForm: statusToForm,
    empty: emptyStatusForm,
    toBody: toSaveStatus,
    create: useCreateStatus(),
    update: useUpdateStatus(),
    // A reset also clears the chosen file.
    onReset: () => setIconFile(null),
  });
  const { errors } = form.formState;

  const icon = form.watch('icon');
  // The departments the user manages, plus the status's own (so an edit shows it).
  const departments = useQuery({ ...accessibleDepartmentsQueryOptions(tenant), enabled: ready });
  const choices = withCurrent(departments.data ?? [], status?.department);

  const chooseIcon = async (file: File | null) => {
    setIconFile(file);
    form.setValue('icon', file ? await readIconFile(file) : null, { shouldDirty: true });
    await form.trigger('icon');
  };

  const preview = icon && !icon.problem ? icon.dataUrl : status?.icon;

  return (
    <FormModal
      {...modal}
      onClose={onClose}
      // Spec section 8, Status: create failures show on the form; an update refusal closes with a toast.
      failure={editing ? UPDATE_STATUS_FAILURE : undefined}
      itemName={status?.name}
      errorPlacement={{
        keys: {
          ERROR_GENERAL_NAME_REQUIRED: 'name',
          ERROR_DEPARTMENT_NAME_REQUIRED: 'name',
          ERROR_DEPARTMENT_NOT_EXIST: 'departmentId',
          ERROR_COMPANY_REQUIRED: 'company',
        },
      }}
    >
      <CompanyField form={form} name="company" disabled={editing} resets={{ departmentId: null }} />
      <TextField form={form} name="name" label={t('statuses.name')} required />
      <SelectField
        control={form.control}
        name="departmentId"
        label={t('statuses.department')}
        placeholder={t('statuses.departmentPlaceholder')}
        required
        disabled={!ready}
        data={nameOptions(choices)}
      />
      <Controller
        control={form.control}
        name="threshold"
        render={({ field }) => (
          <NumberInput
            label={t('statuses.threshold')}
            description={t('statuses.thresholdHint')}
            min={STATUS_LIMITS.thresholdMin}
            max={STATUS_LIMITS.thresholdMax}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errorText(errors.threshold?.message)}
          />
        )}
      />
      <Controller
        control={form.control}
        name="color"
        render={({ field }) => (
          <ColorInput
            label={t('statuses.color')}
            required
            format="hex"
            // Mantine would put the last valid colour back on blur, so a typed 'red' silently became
            // #000000; the typed text stays and the form refuses it (ERROR_STATUS_COLOR_INVALID).
            fixOnBlur={false}
            eyeDropperButtonProps={{ 'aria-label': t('statuses.pickFromScreen') }}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errorText(errors.color?.message)}
          />
        )}
      />
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <FileInput
          label={t('statuses.icon')}
          description={editing ? t('statuses.iconKeepHint') : t('statuses.iconHint')}
          placeholder={editing ? (status.fileName ?? t('statuses.iconPlaceholder')) : t('statuses.iconPlaceholder')}
          required={!editing}
          accept="image/png,.png"
          clearable
          leftSection={<IconPhoto size={16} aria-hidden="true" />}
          value={iconFile}
          onChange={(file) => void chooseIcon(file)}
          error={errorText(errors.icon?.message)}
          style={{ flex: 1 }}
        />
        {preview && (
          <Image src={preview} alt={t('statuses.iconPreview')} w={32} h={32} fit="contain" mb={errors.icon ? 24 : 6} />
        )}
      </Group>
      {editing && !iconFile && (
        <Text size="xs" c="dimmed">
          {t('statuses.currentIcon', { name: status.fileName })}
        </Text>
      )}
      <Controller
        control={form.control}
        name="trackIdle"
        render={({ field }) => (
          <Checkbox
            label={t('statuses.trackIdle')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
          />
        )}
      />
    </FormModal>
  );
}
