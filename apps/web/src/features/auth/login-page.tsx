import { Anchor, Box, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconCircleCheck, IconMailCheck } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { BrandMark } from '../../components/brand-mark';
import { errorText } from '../../lib/i18n';
import { ForgotPasswordForm } from './forgot-password-form';
import { LoginForm } from './login-form';
import { LOGIN_VIEWS, RESET_KEY_PARAM } from './login-views';
import { PanelMessage } from './panel-message';
import { useResetKeyState } from './reset-key-status';
import { ResetPasswordForm } from './reset-password-form';

function BackToLogin() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={LOGIN_VIEWS.login} size="sm">
      <Group gap={6} component="span" wrap="nowrap">
        <IconArrowLeft size={16} aria-hidden="true" />
        {t('auth.backToLogin')}
      </Group>
    </Anchor>
  );
}

function PanelFrame({ title, children, back = true }: { title: string; children: ReactNode; back?: boolean }) {
  return (
    <Stack gap="lg">
      <Title order={2} fz={24}>
        {title}
      </Title>
      {children}
      {back && (
        <Center>
          <BackToLogin />
        </Center>
      )}
    </Stack>
  );
}

function ForgotPanel() {
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

function ResetPanel({ resetPasswordKey, onUsed }: { resetPasswordKey: string | null; onUsed: () => void }) {
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

function LoginPanel() {
  const { t } = useTranslation();
  return (
    <PanelFrame title={t('auth.login.title')} back={false}>
      <LoginForm />
    </PanelFrame>
  );
}

/**
 * Spec section 2, login panel: login, forgot password, e-mail sent, reset password, password
 * changed. The reset link's key is taken out of the address bar at once, so that it stays out of
 * the history, bookmarks and anything the page later sends as a referrer.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const linkKey = params.get(RESET_KEY_PARAM);
  const [resetPasswordKey, setResetPasswordKey] = useState<string | null>(linkKey);

  useEffect(() => {
    if (linkKey === null) return;
    setResetPasswordKey(linkKey);
    // The same view under a cleaner address: the panel keeps its key, so nothing typed meanwhile is lost.
    navigate(LOGIN_VIEWS.reset, { replace: true, state: { panelKey: location.key } });
  }, [linkKey, navigate, location.key]);
  const panelKey = (location.state as { panelKey?: string } | null)?.panelKey ?? location.key;

  const view = linkKey !== null ? 'reset' : params.get('view');
  let panel: ReactNode;
  if (view === 'forgot') panel = <ForgotPanel />;
  else if (view === 'reset')
    panel = <ResetPanel resetPasswordKey={resetPasswordKey} onUsed={() => setResetPasswordKey(null)} />;
  else panel = <LoginPanel />;

  return (
    <Center
      mih="100dvh"
      p="md"
      style={{
        background:
          'radial-gradient(circle at 15% 20%, var(--mantine-color-indigo-1), transparent 45%), radial-gradient(circle at 85% 80%, var(--mantine-color-cyan-1), transparent 40%), var(--mantine-color-gray-0)',
      }}
    >
      <Paper component="main" withBorder shadow="xl" radius="lg" w="100%" maw={920} style={{ overflow: 'hidden' }}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={0}>
          <Box
            p={{ base: 'xl', sm: 48 }}
            c="white"
            style={{
              background:
                'linear-gradient(145deg, var(--mantine-color-indigo-8) 0%, var(--mantine-color-indigo-6) 55%, var(--mantine-color-cyan-6) 100%)',
            }}
          >
            <Stack justify="space-between" h="100%" gap="xl">
              <BrandMark inverted size="lg" asHeading />
              <Stack gap="sm">
                <Text fz={{ base: 24, sm: 30 }} fw={700} lh={1.2}>
                  {t('app.strapline')}
                </Text>
                <Text c="indigo.1" size="sm">
                  {t('app.tagline')}
                </Text>
              </Stack>
              <Text c="indigo.2" size="xs">
                © Opsdeck
              </Text>
            </Stack>
          </Box>
          <Box p={{ base: 'xl', sm: 48 }}>
            {/* A new key per navigation starts each view fresh: 'Back to Login' forgets a sent or changed state. */}
            <Box key={panelKey}>{panel}</Box>
          </Box>
        </SimpleGrid>
      </Paper>
    </Center>
  );
}
