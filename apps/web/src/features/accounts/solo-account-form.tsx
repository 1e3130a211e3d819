import { zodResolver } from '@hookform/resolvers/zod';
import type { GeneratedAccount } from '@opsdeck/contract/accounts';
import { LICENSE_TYPE_KEYS } from '@opsdeck/contract/activities';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { SelectField } from '../../components/form-parts';
import { KEY_GENERATION_FAILURE, registrationFileErrors, useCreateSoloAccount } from './api';
import { RegistrationFileField } from './generate-key-form';
import { emptySoloAccountForm, type SoloAccountValues, soloAccountSchema } from './key-form-schema';

const resolver = zodResolver(soloAccountSchema);

/**
 * The provider's 'Add solo account' (POST /api/account/solo): a licence type and the person's
 * `.dat` registration file make a solo licence and its one key, shown once like any key's.
 */
export function SoloAccountFormModal({ onClose }: { onClose: (generated?: GeneratedAccount) => void }) {
  const { t } = useTranslation();
  const form = useModalForm({ opened: true, initial: emptySoloAccountForm, resolver });
  const create = useCreateSoloAccount();
  const generated = useRef<GeneratedAccount | undefined>(undefined);

  const onSubmit = async (values: SoloAccountValues) => {
    if (!values.file) return;
    generated.current = await create.mutateAsync({
      licenseType: values.licenseType,
      regFile: values.file,
    });
  };

  return (
    <FormModal
      opened
      onClose={() => onClose(generated.current)}
      title={t('accounts.solo.createTitle')}
      form={form}
      onSubmit={onSubmit}
      success={() => t('accounts.keys.generatedToast')}
      errorPlacement={registrationFileErrors<SoloAccountValues>('file')}
      failure={KEY_GENERATION_FAILURE}
      submitLabel={t('accounts.solo.submit')}
    >
      <SelectField
        control={form.control}
        name="licenseType"
        label={t('accounts.solo.licenseType')}
        required
        allowDeselect={false}
        searchable={false}
        data={LICENSE_TYPE_KEYS.map((key) => ({ value: key, label: t(`licenses.types.${key}`) }))}
      />
      <RegistrationFileField control={form.control} name="file" />
    </FormModal>
  );
}
