import { zodResolver } from '@hookform/resolvers/zod';
import { LICENSE_TYPE_KEYS } from '@opsdeck/contract/activities';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { SelectField, TextField } from '../../components/form-parts';
import { doneText } from '../../lib/notify';
import type { LicenseOwner } from '../../resources/licenses';
import { ADD_LICENSE_FAILURE, useAddLicense } from './api';
import {
  type AddLicenseFormOutput,
  type AddLicenseFormValues,
  addLicenseFormSchema,
  emptyAddLicenseForm,
  toAddLicense,
} from './license-form-schema';

const resolver = zodResolver(addLicenseFormSchema);
const initial = emptyAddLicenseForm();

/** Spec sections 2 and 5, Licence create: the type ('pro' pre-selected) and a label. */
export function AddLicenseModal({ company, onClose }: { company: LicenseOwner; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useModalForm<AddLicenseFormValues, AddLicenseFormOutput>({ opened: true, initial, resolver });
  const add = useAddLicense(company);
  return (
    <FormModal
      opened
      onClose={onClose}
      title={t('licenses.createTitle')}
      form={form}
      onSubmit={(values) => add.mutateAsync(toAddLicense(company.id, values))}
      success={(values) => doneText('added', values.label || t(`licenses.types.${values.licenseType}`))}
      failure={ADD_LICENSE_FAILURE}
      errorPlacement={{
        keys: {
          ERROR_LICENSE_TYPE_REQUIRED: 'licenseType',
          ERROR_LICENSE_TYPE_INVALID: 'licenseType',
          ERROR_LICENSE_LABEL_TOO_LONG: 'label',
        },
      }}
    >
      <SelectField
        control={form.control}
        name="licenseType"
        label={t('licenses.type')}
        required
        searchable={false}
        allowDeselect={false}
        data={LICENSE_TYPE_KEYS.map((key) => ({ value: key, label: t(`licenses.types.${key}`) }))}
      />
      <TextField form={form} name="label" label={t('licenses.label')} />
    </FormModal>
  );
}
