import { Anchor, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormErrorAlert, SubmitButton } from '../../components/form-actions';
import { isApiError } from '../../lib/api-client';
import { placeApiError } from '../../lib/form-errors';
import { errorText } from '../../lib/i18n';
import { useSubmitLock } from '../../lib/use-submit-lock';
import { preloadSignedIn } from '../../shell/routes';
import { LOGIN_FIELDS, LOGIN_RULES, type LoginField, type LoginValues, loginRequest } from './login-rules';
import { LOGIN_VIEWS, SUPPORT_MAILTO } from './login-views';
import { useSignIn } from './session';

/** Wrong credentials, or a session that failed right after sign-in, read as the same message (spec section 4). */
function loginFailureKey(error: unknown, fallback: string | null): string | null {
  if (isApiError(error) && error.status === 401) return 'ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS';
  return fallback;
}

type FieldErrors = Partial<Record<LoginField, string>>;

/**
 * The two fields' values and error keys, checked as the console's other forms check theirs
 * (react-hook-form's `onTouched`): a field is first checked when it loses the focus or the form is
 * sent, and from then on at every change. The login page keeps its own state so that it loads
 * neither react-hook-form nor zod (docs/performance.md, the console's initial JavaScript).
 */
function useLoginFields(onFirstInput: () => void) {
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const checked = useRef(new Set<LoginField>());
  const typed = useRef(false);

  const check = (field: LoginField, value: string) =>
    setErrors((previous) => ({ ...previous, [field]: LOGIN_RULES[field](value) }));

  const bind = (field: LoginField) => ({
    value: values[field],
    error: errorText(errors[field]),
    onChange: (event: { currentTarget: HTMLInputElement }) => {
      const { value } = event.currentTarget;
      setValues((previous) => ({ ...previous, [field]: value }));
      if (checked.current.has(field)) check(field, value);
      if (!typed.current) {
        typed.current = true;
        onFirstInput();
      }
    },
    onBlur: () => {
      checked.current.add(field);
      check(field, values[field]);
    },
  });

  /** Checks every field; answers the first one in error, or null when the form may be sent. */
  const checkAll = (): LoginField | null => {
    const found: FieldErrors = {};
    for (const field of LOGIN_FIELDS) {
      checked.current.add(field);
      found[field] = LOGIN_RULES[field](values[field]);
    }
    setErrors(found);
    return LOGIN_FIELDS.find((field) => found[field]) ?? null;
  };

  const setServerErrors = (placed: [LoginField, string][]) =>
    setErrors((previous) => ({ ...previous, ...Object.fromEntries(placed) }));

  const hasErrors = LOGIN_FIELDS.some((field) => errors[field]);
  return { values, bind, checkAll, setServerErrors, hasErrors };
}

export function LoginForm() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const lock = useSubmitLock();
  const [generalKey, setGeneralKey] = useState<string | null>(null);
  // The shell is fetched while the person types, so that the page after sign-in does not wait for it.
  const fields = useLoginFields(() => void preloadSignedIn());
  const inputs = { email: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const firstError = fields.checkAll();
    if (firstError) {
      inputs[firstError].current?.focus();
      return;
    }
    setGeneralKey(null);
    void preloadSignedIn();
    try {
      await lock.run(() => signIn.mutateAsync(loginRequest(fields.values)));
    } catch (error) {
      const { fields: placed, general } = placeApiError<LoginValues>(error, new Set(LOGIN_FIELDS), {
        fields: { username: 'email' },
      });
      fields.setServerErrors(placed);
      setGeneralKey(loginFailureKey(error, general));
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.login.title')}>
      <Stack gap="md">
        <FormErrorAlert errorKey={generalKey} />
        <TextInput
          ref={inputs.email}
          name="email"
          label={t('auth.login.email')}
          placeholder={t('auth.login.emailPlaceholder')}
          type="email"
          autoComplete="username"
          autoFocus
          {...fields.bind('email')}
        />
        <PasswordInput
          ref={inputs.password}
          name="password"
          label={t('auth.login.password')}
          placeholder={t('auth.login.passwordPlaceholder')}
          autoComplete="current-password"
          {...fields.bind('password')}
        />
        <Group justify="flex-end">
          <Anchor component={Link} to={LOGIN_VIEWS.forgot} size="sm">
            {t('auth.login.forgot')}
          </Anchor>
        </Group>
        <SubmitButton lock={lock} hasErrors={fields.hasErrors} fullWidth size="md">
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
