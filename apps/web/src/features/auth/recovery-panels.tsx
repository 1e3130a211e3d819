import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../lib/i18n';
import { ForgotPasswordForm } from './forgot-password-form';
import { LOGIN_VIEWS } from './login-views';
import { PanelFrame } from './panel-frame';
import { PanelMessage } from './panel-message';
import { useResetKeyState } from './reset-key-status';
import { ResetPasswordForm } from './reset-password-form';

/*
 * The forgot-password and reset-password panels: their forms check with the contract's zod
 * schemas through react-hook-form, so they load only when opened, not with the login form
 * (docs/performance.md, the console's initial JavaScript).
 */

export function ForgotPanel() {
  const { t } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (sentTo !== null) {
    return (
      <PanelFrame title={t('auth.forgotSent.title')}>
        <PanelMessage icon={<IconMailCheck size={34} />}>{t('auth.forgotSent.body', { email: sentTo })}</PanelMessage>
      </PanelFrame>
    );
  }
  return (
    <PanelFrame title={t('auth.forgot.title')}>
      <ForgotPasswordForm onSent={setSentTo} />
    </PanelFrame>
  );
}

export function ResetPanel({ resetPasswordKey, onUsed }: { resetPasswordKey: string | null; onUsed: () => void }) {
  const { t } = useTranslation();
  const [changed, setChanged] = useState(false);
  if (changed) {
    return (
      <PanelFrame title={t('auth.resetDone.title')}>
        <PanelMessage icon={<IconCircleCheck size={34} />}>{t('auth.resetDone.body')}</PanelMessage>
      </PanelFrame>
    );
  }
  if (resetPasswordKey === null) {
    // The key is kept in memory only; after a reload the e-mailed link has to be opened again.
    return (
      <PanelFrame title={t('auth.reset.title')}>
        <Text c="dimmed">{t('auth.reset.missingKey')}</Text>
        <Anchor component={Link} to={LOGIN_VIEWS.forgot} size="sm">
          {t('auth.login.forgot')}
        </Anchor>
      </PanelFrame>
    );
  }
  return (
    <PanelFrame title={t('auth.reset.title')}>
      <CheckedResetForm
        resetPasswordKey={resetPasswordKey}
        onChanged={() => {
          setChanged(true);
          onUsed();
        }}
      />
    </PanelFrame>
  );
}

/** The reset form, once the server says the link's key still works; a used or expired one says so instead. */
function CheckedResetForm({ resetPasswordKey, onChanged }: { resetPasswordKey: string; onChanged: () => void }) {
  const { t } = useTranslation();
  const state = useResetKeyState(resetPasswordKey);
  if (state === 'checking') {
    return (
      <Center py="lg">
        <Loader size="sm" aria-label={t('auth.reset.checking')} />
      </Center>
    );
  }
  if (state === 'invalid') {
    return (
      <Stack gap="sm">
        <PanelMessage icon={<IconAlertCircle size={34} />} color="red">
          {errorText('ERROR_RESET_PASSWORD_FORM_INVALID')}
        </PanelMessage>
        <Text size="sm" c="dimmed" ta="center">
          {t('auth.reset.askAgain')}{' '}
          {/* A link inside a sentence is underlined: colour alone does not tell it apart (axe link-in-text-block). */}
          <Anchor component={Link} to={LOGIN_VIEWS.forgot} size="sm" underline="always">
            {t('auth.login.forgot')}
          </Anchor>
        </Text>
      </Stack>
    );
  }
  return <ResetPasswordForm resetPasswordKey={resetPasswordKey} onChanged={onChanged} />;
}
