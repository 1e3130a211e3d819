import { zodResolver } from '@hookform/resolvers/zod';
import { NumberInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { LICENSE_LIMITS, type License } from '@opsdeck/contract/licenses';
import dayjs from 'dayjs';
import type { KeyboardEvent } from 'react';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { TextField } from '../../components/form-parts';
import { DATE_FORMATS, parseTypedDay } from '../../lib/dates';
import { errorText } from '../../lib/i18n';
import { doneText } from '../../lib/notify';
import type { LicenseOwner } from '../../resources/licenses';
import { RENEW_LICENSE_FAILURE, useRenewLicense } from './api';
import { licenseName } from './license-display';
import {
  licenseToRenewForm,
  type RenewLicenseFormOutput,
  type RenewLicenseFormValues,
  renewLicenseFormSchema,
  toUpdateLicense,
} from './license-form-schema';

const resolver = zodResolver(renewLicenseFormSchema);

/** Spec section 5: the allowed keys take at most 10 characters. */
const ALLOWED_KEYS_MAX_LENGTH = 10;

/** Days before today cannot be picked in the calendar; a typed one is refused by the form's rule. */
const isPast = (day: string) => dayjs(day).isBefore(dayjs(), 'day');

/** Enter in the date field takes the typed date; it must not submit the form half filled in. */
const enterDoesNotSubmit = (event: KeyboardEvent) => {
  if (event.key === 'Enter') event.preventDefault();
};

interface RenewLicenseModalProps {
  company: LicenseOwner;
  /** The licence, loaded fresh. */
  license: License;
  onClose: () => void;
}

/**
 * The renew of spec section 4 (the update modal, titled 'Renew License Confirmation'): a new
 * expiration date (not already past), the allowed keys (1 to 100) and the label.
 */
export function RenewLicenseModal({ company, license, onClose }: RenewLicenseModalProps) {
  const { t } = useTranslation();
  const initial = useMemo(() => licenseToRenewForm(license), [license]);
  const form = useModalForm<RenewLicenseFormValues, RenewLicenseFormOutput>({ opened: true, initial, resolver });
  const renew = useRenewLicense(company);
  const { errors } = form.formState;
  return (
    <FormModal
      opened
      onClose={onClose}
      title={t('licenses.renewTitle')}
      form={form}
      onSubmit={(values) => renew.mutateAsync(toUpdateLicense(license, company.id, values))}
      success={() => doneText('updated', licenseName(t, license))}
      failure={RENEW_LICENSE_FAILURE}
      itemName={licenseName(t, license)}
      submitLabel={t('licenses.renew')}
      errorPlacement={{
        keys: {
          ERROR_LICENSE_EXPIRATION_DATE_REQUIRED: 'expirationDate',
          ERROR_LICENSE_EXPIRATION_DATE_INVALID: 'expirationDate',
          ERROR_LICENSE_ALLOWED_KEYS_REQUIRED: 'maxAccounts',
          ERROR_LICENSE_ALLOWED_KEYS_TOO_LOW: 'maxAccounts',
          ERROR_LICENSE_ALLOWED_KEYS_TOO_HIGH: 'maxAccounts',
          // Spec section 8: 'Company is using more licenses than the new allowed key count.'
          ERROR_COMPANY_MORE_LICENSES: 'maxAccounts',
          ERROR_LICENSE_LABEL_TOO_LONG: 'label',
        },
      }}
    >
      <Controller
        control={form.control}
        name="expirationDate"
        render={({ field }) => (
          <DateInput
            label={t('licenses.expirationDate')}
            required
            valueFormat={DATE_FORMATS.date}
            dateParser={parseTypedDay}
            excludeDate={isPast}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? null)}
            onBlur={field.onBlur}
            onKeyDown={enterDoesNotSubmit}
            error={errorText(errors.expirationDate?.message)}
          />
        )}
      />
      <Controller
        control={form.control}
        name="maxAccounts"
        render={({ field }) => (
          <NumberInput
            label={t('licenses.maxAccounts')}
            description={t('licenses.maxAccountsHint', { min: LICENSE_LIMITS.minKeys, max: LICENSE_LIMITS.maxKeys })}
            required
            min={LICENSE_LIMITS.minKeys}
            max={LICENSE_LIMITS.maxKeys}
            maxLength={ALLOWED_KEYS_MAX_LENGTH}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errorText(errors.maxAccounts?.message)}
          />
        )}
      />
      <TextField form={form} name="label" label={t('licenses.label')} />
    </FormModal>
  );
}
