import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { LoginForm as LoginFormSchema } from '@opsdeck/contract/auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormErrorAlert, PasswordField, SubmitButton, TextField } from '../../components/form-parts';
import { isApiError } from '../../lib/api-client';
import { applyApiError } from '../../lib/form-errors';
import { useSubmitLock } from '../../lib/use-submit-lock';
import { LOGIN_VIEWS, SUPPORT_MAILTO } from './login-views';
import { useSignIn } from './session';

/** Wrong credentials, or a session that failed right after sign-in, read as the same message (spec section 4). */
function loginFailureKey(error: unknown, fallback: string | null): string | null {
  if (isApiError(error) && error.status === 401) return 'ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS';
  return fallback;
}

export function LoginForm() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const lock = useSubmitLock();
  const [generalKey, setGeneralKey] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(LoginFormSchema),
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;
  const hasFieldErrors = Object.keys(errors).length > 0;

  const onSubmit = form.handleSubmit(async (values) => {
    setGeneralKey(null);
    try {
      await lock.run(() => signIn.mutateAsync({ username: values.email, password: values.password }));
    } catch (error) {
      const left = applyApiError(error, form, { fields: { username: 'email' } });
      setGeneralKey(loginFailureKey(error, left));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.login.title')}>
      <Stack gap="md">
        <FormErrorAlert errorKey={generalKey} />
        <TextField
          form={form}
          name="email"
          label={t('auth.login.email')}
          placeholder={t('auth.login.emailPlaceholder')}
          type="email"
          autoComplete="username"
          autoFocus
        />
        <PasswordField
          form={form}
          name="password"
          label={t('auth.login.password')}
          placeholder={t('auth.login.passwordPlaceholder')}
          autoComplete="current-password"
        />
        <Group justify="flex-end">
          <Anchor component={Link} to={LOGIN_VIEWS.forgot} size="sm">
            {t('auth.login.forgot')}
          </Anchor>
        </Group>
        <SubmitButton lock={lock} hasErrors={hasFieldErrors} fullWidth size="md">
          {t('auth.login.submit')}
        </SubmitButton>
        <Text size="sm" c="dimmed" ta="center">
          {t('auth.login.supportPrompt')}{' '}
          <Anchor href={SUPPORT_MAILTO} size="sm">
            {t('auth.login.support')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
