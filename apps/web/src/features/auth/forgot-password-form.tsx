import { zodResolver } from '@hookform/resolvers/zod';
import { Stack, Text } from '@mantine/core';
import { ForgotPasswordForm as ForgotPasswordSchema } from '@opsdeck/contract/auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormErrorAlert, SubmitButton, TextField } from '../../components/form-parts';
import { applyApiError } from '../../lib/form-errors';
import { useSubmitLock } from '../../lib/use-submit-lock';
import { requestPasswordReset } from './api';

interface ForgotPasswordFormProps {
  onSent: (email: string) => void;
}

export function ForgotPasswordForm({ onSent }: ForgotPasswordFormProps) {
  const { t } = useTranslation();
  const lock = useSubmitLock();
  const [generalKey, setGeneralKey] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(ForgotPasswordSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setGeneralKey(null);
    try {
      await lock.run(() => requestPasswordReset(values));
      onSent(values.email);
    } catch (error) {
      setGeneralKey(
        applyApiError(error, form, {
          fields: { u: 'email', email: 'email' },
          keys: { ERROR_FORGOT_PASSWORD_FORM_EMAIL_REQUIRED: 'email', ERROR_FORGOT_PASSWORD_FORM_INVALID: 'email' },
        }),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.forgot.title')}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('auth.forgot.intro')}
        </Text>
        <FormErrorAlert errorKey={generalKey} />
        <TextField
          form={form}
          name="email"
          label={t('auth.forgot.email')}
          placeholder={t('auth.login.emailPlaceholder')}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <SubmitButton lock={lock} hasErrors={Object.keys(errors).length > 0} fullWidth size="md">
          {t('auth.forgot.submit')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
