import { zodResolver } from '@hookform/resolvers/zod';
import { Stack, Text } from '@mantine/core';
import { ResetPasswordForm as ResetPasswordSchema } from '@opsdeck/contract/auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormErrorAlert, PasswordField, SubmitButton } from '../../components/form-parts';
import { applyApiError } from '../../lib/form-errors';
import { useSubmitLock } from '../../lib/use-submit-lock';
import { postPasswordReset } from './api';

interface ResetPasswordFormProps {
  resetPasswordKey: string;
  onChanged: () => void;
}

export function ResetPasswordForm({ resetPasswordKey, onChanged }: ResetPasswordFormProps) {
  const { t } = useTranslation();
  const lock = useSubmitLock();
  const [generalKey, setGeneralKey] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(ResetPasswordSchema),
    mode: 'onTouched',
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setGeneralKey(null);
    try {
      // The key travels in the body: reset keys never go into a URL the console builds.
      await lock.run(() => postPasswordReset({ newPassword: values.newPassword, resetPasswordKey }));
      onChanged();
    } catch (error) {
      setGeneralKey(applyApiError(error, form));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.reset.title')}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('auth.reset.intro')}
        </Text>
        <FormErrorAlert errorKey={generalKey} />
        <PasswordField
          form={form}
          name="newPassword"
          label={t('auth.reset.newPassword')}
          autoComplete="new-password"
          autoFocus
          strength={{}}
          rules={{
            // The confirmation is checked against this field, so it is re-checked when this one changes.
            onChange: () => {
              if (form.getFieldState('confirmPassword').isTouched) void form.trigger('confirmPassword');
            },
          }}
        />
        <PasswordField
          form={form}
          name="confirmPassword"
          label={t('auth.reset.confirmPassword')}
          autoComplete="new-password"
        />
        <SubmitButton lock={lock} hasErrors={Object.keys(errors).length > 0} fullWidth size="md">
          {t('auth.reset.submit')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
