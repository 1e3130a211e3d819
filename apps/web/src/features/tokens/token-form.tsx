import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, ScrollArea, SimpleGrid } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { AUTHORITIES, isAuthority } from '@opsdeck/contract/authorities';
import type { CreatedApiToken } from '@opsdeck/contract/tokens';
import dayjs from 'dayjs';
import type { KeyboardEvent } from 'react';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormModal, useModalForm } from '../../components/form-modal';
import { TextField } from '../../components/form-parts';
import { DATE_FORMATS, parseTypedDay } from '../../lib/dates';
import { errorText } from '../../lib/i18n';
import { useProfile } from '../../lib/profile-context';
import { SAVE_TOKEN_FAILURE, useCreateToken } from './api';
import {
  emptyTokenForm,
  lastExpiryDay,
  type TokenFormOutput,
  type TokenFormValues,
  toCreateToken,
  tokenFormSchema,
} from './token-form-schema';

const resolver = zodResolver(tokenFormSchema);

/** Enter in the date field takes the typed date; it must not submit the form half filled in. */
const enterDoesNotSubmit = (event: KeyboardEvent) => {
  if (event.key === 'Enter') event.preventDefault();
};

/**
 * A new API token: its name, the day it expires (today to 364 days ahead) and its scopes, chosen
 * among the user's own authorities (the server refuses any other). The token made goes to
 * `onCreated`, to be shown once.
 */
export function TokenFormModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (token: CreatedApiToken) => void;
}) {
  const { t } = useTranslation();
  const profile = useProfile();
  const initial = useMemo(() => emptyTokenForm(), []);
  const form = useModalForm<TokenFormValues, TokenFormOutput>({ opened: true, initial, resolver });
  const create = useCreateToken();
  const { errors } = form.formState;
  const held = useMemo(() => profile.auths.filter(isAuthority).sort(), [profile.auths]);
  const today = dayjs().format('YYYY-MM-DD');
  return (
    <FormModal
      opened
      onClose={onClose}
      title={t('tokens.createTitle')}
      form={form}
      size="lg"
      onSubmit={async (values) => onCreated(await create.mutateAsync(toCreateToken(values)))}
      success={() => null}
      failure={SAVE_TOKEN_FAILURE}
      submitLabel={t('tokens.createSubmit')}
      errorPlacement={{
        keys: {
          ERROR_API_TOKEN_EXPIRY_PAST: 'expiresOn',
          ERROR_API_TOKEN_EXPIRY_TOO_FAR: 'expiresOn',
          ERROR_API_TOKEN_EXPIRY_REQUIRED: 'expiresOn',
          ERROR_API_TOKEN_SCOPE_NOT_HELD: 'scopes',
          ERROR_API_TOKEN_SCOPES_REQUIRED: 'scopes',
          ERROR_API_TOKEN_SCOPE_INVALID: 'scopes',
        },
      }}
    >
      <TextField form={form} name="name" label={t('tokens.name')} description={t('tokens.nameHint')} required />
      <Controller
        control={form.control}
        name="expiresOn"
        render={({ field }) => (
          <DateInput
            label={t('tokens.expiresOn')}
            description={t('tokens.expiresOnHint')}
            required
            valueFormat={DATE_FORMATS.date}
            dateParser={parseTypedDay}
            minDate={today}
            maxDate={lastExpiryDay()}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? null)}
            onBlur={field.onBlur}
            onKeyDown={enterDoesNotSubmit}
            error={errorText(errors.expiresOn?.message)}
          />
        )}
      />
      <Controller
        control={form.control}
        name="scopes"
        render={({ field }) => (
          <Checkbox.Group
            label={t('tokens.scopes')}
            description={t('tokens.scopesHint')}
            required
            value={field.value}
            onChange={(value) => {
              field.onChange(value);
              field.onBlur();
            }}
            error={errorText(errors.scopes?.message ?? errors.scopes?.root?.message)}
          >
            <ScrollArea.Autosize mah={260} mt="xs" type="auto">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
                {held.map((key) => (
                  <Checkbox key={key} value={key} label={AUTHORITIES[key]} />
                ))}
              </SimpleGrid>
            </ScrollArea.Autosize>
          </Checkbox.Group>
        )}
      />
    </FormModal>
  );
}
